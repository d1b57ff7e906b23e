// The profiler on a GPU backend: a traced launch from a queue made with profiling times every node of its GPU
// graph (timing events around each node, gpu_graph_lowering.hpp). Every node appears once per launch under its
// kernel's name, slices on one track never overlap, a successor starts after its predecessors end, each node
// lies inside its partition's slice, and a node update still gives slices (the timed form is lowered again).
// Under ENCORE_PROFILE (the cuda_profiled test) a trace already records: the checks then read a snapshot of it.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "encore/runtime/profiler.hpp"
#include "gpu_support.hpp"

using namespace encore;
using namespace encore::gpu_testing;

namespace {

// Long enough that the node's own time dominates its slice: 20 µs at 2 GHz.
constexpr long long spin_cycles = 40'000;

kernel_command spin(const char* name, long long cycles = spin_cycles) {
    return kernel_command{test_kernel(name), {kernel_argument::from_scalar(cycles)}, range(1)};
}

// Starts a trace unless one records already (ENCORE_PROFILE); then what it recorded for graph `id`.
class traced {
public:
    traced() : own_(!profiler::active()) {
        if (own_) profiler::start();
    }
    ~traced() {
        if (own_ && profiler::active()) profiler::stop();
    }
    trace finish() { return own_ ? profiler::stop() : profiler::snapshot(); }
    // Whether this trace was started here: under ENCORE_PROFILE every queue is made with profiling.
    bool own() const noexcept { return own_; }

private:
    bool own_;
};

struct slices_of_graph {
    std::map<std::pair<std::uint64_t, std::int64_t>, trace_slice> nodes; // (launch, node)
    std::map<std::uint64_t, trace_slice> partitions;                      // per launch (one partition)
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<trace_slice>> tracks;
    int repeated = 0;
};

slices_of_graph slices_for(const trace& t, std::uint64_t graph_id) {
    slices_of_graph out;
    for (const auto& s : t.slices) {
        if (s.graph < 0 || t.graphs[static_cast<std::size_t>(s.graph)].id != graph_id) continue;
        if (s.category == "partition") {
            out.partitions[s.launch] = s;
            continue;
        }
        if (!out.nodes.emplace(std::pair{s.launch, s.node}, s).second) ++out.repeated;
        out.tracks[{s.process, s.thread}].push_back(s);
    }
    return out;
}

// The rules every traced replay of `g` keeps (`launches` of them).
void check_replays(const slices_of_graph& seen, const graph& g, const std::vector<std::string>& names,
                   std::size_t launches) {
    CHECK(seen.repeated == 0);
    REQUIRE(seen.nodes.size() == names.size() * launches);
    REQUIRE(seen.partitions.size() == launches);
    for (const auto& [key, s] : seen.nodes) {
        CHECK(s.name == names.at(static_cast<std::size_t>(key.second)));
        CHECK_MESSAGE(s.end_ns - s.start_ns >= 10'000, s.name << " took " << s.end_ns - s.start_ns << " ns");
        const trace_slice& p = seen.partitions.at(key.first);
        // Its partition's slice runs from the start event before the graph launch to the event after it.
        CHECK_MESSAGE(s.start_ns >= p.start_ns, s.name << " starts before its partition");
        CHECK_MESSAGE(s.end_ns <= p.end_ns, s.name << " ends after its partition");
    }
    for (const auto& [track, list] : seen.tracks) {
        auto sorted = list;
        std::sort(sorted.begin(), sorted.end(),
                  [](const trace_slice& a, const trace_slice& b) { return a.start_ns < b.start_ns; });
        for (std::size_t i = 1; i < sorted.size(); ++i)
            CHECK_MESSAGE(sorted[i].start_ns >= sorted[i - 1].end_ns,
                          sorted[i - 1].name << " and " << sorted[i].name << " overlap on track " << track.second);
    }
    const auto& s = g.boost_graph();
    for (const auto& [key, slice] : seen.partitions)
        for (auto e : boost::make_iterator_range(boost::edges(s))) {
            const auto& from = seen.nodes.at({key, static_cast<std::int64_t>(boost::source(e, s))});
            const auto& to = seen.nodes.at({key, static_cast<std::int64_t>(boost::target(e, s))});
            CHECK_MESSAGE(to.start_ns >= from.end_ns, from.name << " -> " << to.name << " in launch " << key);
        }
}

} // namespace

TEST_CASE("profiler: a traced GPU graph launch gives one slice per node, in dependency order") {
    const device d = gpu_device();
    queue q(d, {.in_order = true, .enable_profiling = true});
    graph g; // a -> {b, c} -> d: b and c may run side by side, on two lanes of the stream's tracks
    auto a = g.add(spin("spin_a"));
    auto b = g.add(spin("spin_b"), {a});
    auto c = g.add(spin("spin_c"), {a});
    g.add(spin("spin_d"), {b, c});
    const std::vector<std::string> names{"spin_a", "spin_b", "spin_c", "spin_d"};
    executable_graph exec(g, d);
    REQUIRE(exec.partitions().partitions.size() == 1);

    traced tracing;
    constexpr std::size_t launches = 5;
    for (std::size_t i = 0; i < launches; ++i)
        q.launch(exec);
    q.wait_and_throw();
    check_replays(slices_for(tracing.finish(), g.id()), g, names, launches);
}

TEST_CASE("profiler: a node update between traced GPU launches still times every node") {
    const device d = gpu_device();
    queue q(d, {.in_order = true, .enable_profiling = true});
    graph g;
    auto a = g.add(spin("spin_a"));
    g.add(spin("spin_b"), {a});
    executable_graph exec(g, d);

    traced tracing;
    q.launch(exec);
    exec.update(a, spin("spin_a", 2 * spin_cycles)); // the timed form is lowered again
    q.launch(exec);
    q.launch(exec);
    q.wait_and_throw();
    const auto seen = slices_for(tracing.finish(), g.id());
    check_replays(seen, g, {"spin_a", "spin_b"}, 3);
    // The update took effect in the timed form: the first node of the later launches spins twice as long.
    std::vector<std::int64_t> first;
    for (const auto& [key, s] : seen.nodes)
        if (key.second == 0) first.push_back(s.end_ns - s.start_ns);
    REQUIRE(first.size() == 3);
    CHECK(first[1] > first[0] * 3 / 2);
    CHECK(first[2] > first[0] * 3 / 2);
}

TEST_CASE("profiler: a queue made without profiling gives a traced GPU launch no slices, and the work still runs") {
    const device d = gpu_device();
    queue q(d, {.in_order = true});
    usm<int> data(64);
    q.submit(memset_command{data.data(), 0, 64 * sizeof(int)}).wait();
    graph g;
    g.add(kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(data.data())}, range(64)});
    executable_graph exec(g, d);

    traced tracing;
    q.launch(exec);
    q.launch(exec);
    q.wait_and_throw();
    const auto seen = slices_for(tracing.finish(), g.id());
    if (tracing.own()) {
        CHECK(seen.nodes.empty());
        CHECK(seen.partitions.empty());
    } else {
        MESSAGE("ENCORE_PROFILE records: every queue is made with profiling, so the untimed case is not checked here");
        CHECK(seen.nodes.size() == 2);
    }
    int host[64];
    q.submit(memcpy_command{host, data.data(), sizeof(host)}).wait();
    q.wait_and_throw();
    for (int v : host)
        CHECK(v == 2);
}
