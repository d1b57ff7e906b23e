// encore::profiler on the native backend: the Chrome trace parses, every node of a known graph appears once
// per replay under its name, node slices on one thread's track never overlap, a successor starts after its
// predecessors end, flow arrows follow the edges, eager commands and host tasks appear, misuse and unwritable
// paths are clear errors, ENCORE_PROFILE works from a child process; and the timed picture: the critical path
// on a graph with known times, and the colours in its DOT.
#include <doctest/doctest.h>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "encore/encore.hpp"
#include "encore/graph/critical_path.hpp"
#include "encore/backends/detail/trace_recorder.hpp"
#include "encore/runtime/profiler.hpp"

extern char** environ;

using namespace encore;
using nlohmann::json;

namespace {

void spin_for(std::chrono::microseconds d) {
    const auto until = std::chrono::steady_clock::now() + d;
    while (std::chrono::steady_clock::now() < until) {
    }
}

std::shared_ptr<const kernel> busy_kernel(const std::string& name, int microseconds) {
    return make_kernel(
        name, [microseconds](const work_item&) { spin_for(std::chrono::microseconds(microseconds)); });
}

// a -> {b, c} -> d -> host task h -> e: two device partitions around a host task, six nodes, six edges.
struct diamond {
    graph g;
    std::vector<std::string> names{"node_a", "node_b", "node_c", "node_d", "host_task", "node_e"};
    diamond() {
        auto a = g.add(kernel_command{busy_kernel("node_a", 30), {}, range(1)});
        auto b = g.add(kernel_command{busy_kernel("node_b", 30), {}, range(1)}, {a});
        auto c = g.add(kernel_command{busy_kernel("node_c", 30), {}, range(1)}, {a});
        auto d = g.add(kernel_command{busy_kernel("node_d", 30), {}, range(1)}, {b, c});
        auto h = g.add(host_task_command{[] { spin_for(std::chrono::microseconds(30)); }}, {d});
        g.add(kernel_command{busy_kernel("node_e", 30), {}, range(1)}, {h});
    }
};

std::string temporary_path(const std::string& name) {
    return (std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()) + ".json"))
        .string();
}

json read_json(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in);
    return json::parse(in); // throws (fails the test) when it does not parse
}

// Runs `program` with `env` added; its exit status, its stderr in `errors` and its process id in `child`.
int run_child(const std::string& program, const std::vector<std::string>& env, std::string& errors,
              pid_t* child = nullptr) {
    const auto err_path = temporary_path("profile-child-stderr");
    std::vector<std::string> environment;
    for (char** e = environ; *e; ++e)
        environment.emplace_back(*e);
    environment.insert(environment.end(), env.begin(), env.end());
    std::vector<char*> envp;
    for (auto& e : environment)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::string program_copy = program;
    char* argv[] = {program_copy.data(), nullptr};
    pid_t pid = 0;
    REQUIRE(posix_spawn(&pid, program.c_str(), &actions, nullptr, argv, envp.data()) == 0);
    posix_spawn_file_actions_destroy(&actions);
    if (child) *child = pid;
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    std::ifstream in(err_path);
    std::stringstream text;
    text << in.rdbuf();
    errors = text.str();
    std::remove(err_path.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

constexpr int replays = 5;

} // namespace

TEST_CASE("native: every node of a replayed graph appears once per launch, named, in the Chrome trace") {
    diamond d;
    queue q;
    executable_graph exec(d.g, q.get_device());
    profiler::start();
    for (int i = 0; i < replays; ++i)
        q.launch(exec);
    q.wait_and_throw();
    const trace t = profiler::stop();
    const auto path = temporary_path("profile-diamond");
    write_chrome_trace(t, path);
    const json j = read_json(path);
    std::remove(path.c_str());
    REQUIRE(j.contains("traceEvents"));

    std::map<std::pair<std::uint64_t, std::int64_t>, int> seen; // (launch, node) -> slices
    std::set<std::uint64_t> launches;
    std::set<std::pair<int, int>> named_threads, used_threads;
    std::set<int> named_processes;
    int partitions = 0, flows_start = 0, flows_end = 0;
    for (const auto& e : j["traceEvents"]) {
        const std::string ph = e["ph"];
        if (ph == "M" && e["name"] == "thread_name") named_threads.emplace(e["pid"], e["tid"]);
        if (ph == "M" && e["name"] == "process_name") named_processes.insert(e["pid"].get<int>());
        if (ph == "s") ++flows_start;
        if (ph == "f") ++flows_end;
        if (ph != "X") continue;
        used_threads.emplace(e["pid"], e["tid"]);
        CHECK(e["dur"].get<double>() >= 0);
        if (e["cat"] == "partition") {
            ++partitions;
            continue;
        }
        REQUIRE(e["args"].contains("node"));
        const auto node = e["args"]["node"].get<std::int64_t>();
        const auto launch = e["args"]["launch"].get<std::uint64_t>();
        CHECK(e["args"]["graph"].get<std::uint64_t>() == d.g.id());
        REQUIRE(node < 6);
        CHECK(e["name"].get<std::string>() == d.names[static_cast<std::size_t>(node)]);
        ++seen[{launch, node}];
        launches.insert(launch);
    }
    CHECK(launches.size() == replays);
    CHECK(seen.size() == 6 * replays);
    for (const auto& [key, count] : seen)
        CHECK_MESSAGE(count == 1, "launch " << key.first << " node " << key.second);
    CHECK(partitions == 2 * replays);  // the two device partitions; the host task is a node of its own
    CHECK(flows_start == 6 * replays); // one arrow per edge per launch
    CHECK(flows_end == 6 * replays);
    for (const auto& th : used_threads)
        CHECK_MESSAGE(named_threads.count(th) == 1,
                      "pid " << th.first << " tid " << th.second << " has no name");
    for (const auto& th : used_threads)
        CHECK(named_processes.count(th.first) == 1);
    CHECK(j["otherData"]["graphs"][0]["backend"] == "native");
    // Each arrow's end lies inside a node slice of its own thread (where Perfetto binds it).
    for (const auto& e : j["traceEvents"]) {
        if (e["ph"] != "s" && e["ph"] != "f") continue;
        bool inside = false;
        for (const auto& x : j["traceEvents"])
            if (x["ph"] == "X" && x["cat"] != "partition" && x["pid"] == e["pid"] && x["tid"] == e["tid"] &&
                x["ts"].get<double>() <= e["ts"].get<double>() &&
                e["ts"].get<double>() <= x["ts"].get<double>() + x["dur"].get<double>())
                inside = true;
        CHECK_MESSAGE(inside, e.dump());
    }
}

TEST_CASE(
    "native: node slices on one thread never overlap, and successors start after their predecessors end") {
    diamond d;
    queue q;
    executable_graph exec(d.g, q.get_device());
    profiler::start();
    for (int i = 0; i < replays; ++i)
        q.launch(exec);
    q.wait();
    const trace t = profiler::stop();
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<const trace_slice*>> tracks;
    std::map<std::pair<std::uint64_t, std::int64_t>, const trace_slice*> by_node;
    for (const auto& s : t.slices) {
        if (s.category == "partition") continue;
        tracks[{s.process, s.thread}].push_back(&s);
        by_node[{s.launch, s.node}] = &s;
    }
    for (const auto& [track, slices] : tracks)
        for (std::size_t i = 1; i < slices.size(); ++i) // sorted by start
            CHECK_MESSAGE(slices[i]->start_ns >= slices[i - 1]->end_ns,
                          slices[i - 1]->name << " and " << slices[i]->name << " overlap on thread "
                                              << track.second);
    REQUIRE(by_node.size() == 6 * replays);
    const auto& s = d.g.boost_graph();
    for (std::uint64_t launch = 1; launch <= replays; ++launch)
        for (auto e : boost::make_iterator_range(boost::edges(s))) {
            const auto* from = by_node.at({launch, static_cast<std::int64_t>(boost::source(e, s))});
            const auto* to = by_node.at({launch, static_cast<std::int64_t>(boost::target(e, s))});
            CHECK_MESSAGE(to->start_ns >= from->end_ns,
                          from->name << " -> " << to->name << " in launch " << launch);
        }
    // Launches of one graph run one after another.
    for (std::uint64_t launch = 2; launch <= replays; ++launch)
        CHECK(by_node.at({launch, 0})->start_ns >= by_node.at({launch - 1, 5})->end_ns);
    // Each node's slice is at least as long as its 30 us of work.
    for (double ns : node_durations(t, d.g.id()))
        CHECK(ns >= 30'000);
}

TEST_CASE("native: eager commands and host tasks appear under their names") {
    queue q({.in_order = true});
    auto* data = malloc_shared<int>(1024, q);
    profiler::start();
    q.memset(data, 0, 1024 * sizeof(int));
    q.parallel_for(range(1024), busy_kernel("eager_kernel", 20));
    q.host_task([] { spin_for(std::chrono::microseconds(20)); });
    q.fill(data, 7, 1024);
    q.wait_and_throw();
    const trace t = profiler::stop();
    free(data, q);
    std::multiset<std::string> names;
    for (const auto& s : t.slices) {
        CHECK(s.launch == 0);
        CHECK(s.end_ns >= s.start_ns);
        names.insert(s.name);
        if (s.name == "host_task") CHECK(s.process == 1); // the host's track
    }
    CHECK(names == std::multiset<std::string>{"memset", "eager_kernel", "host_task", "fill"});
    const json j = to_chrome_trace(t);
    CHECK(json::parse(j.dump()) == j);
}

namespace {
// An event a test completes by hand, whose callbacks then run on a thread of their own after `delay`: what a
// backend's completion thread does (the GPU layer's watcher, OpenCL's callback thread), slowed down.
class late_callback_event final : public backend_event {
public:
    explicit late_callback_event(std::chrono::milliseconds delay) : delay_(delay) {}
    ~late_callback_event() override {
        if (runner_.joinable()) runner_.join();
    }
    event_status status() const noexcept override {
        return complete_.load() ? event_status::complete : event_status::running;
    }
    void wait() override {
        while (!complete_.load())
            std::this_thread::yield();
    }
    void on_complete(std::function<void()> callback) override {
        std::lock_guard lock(mutex_);
        callbacks_.push_back(std::move(callback));
    }
    bool has_profiling() const noexcept override { return true; }
    profiling_timestamps timestamps() const override { return {}; }
    // Waits for the callbacks' thread (which may hold the last reference to another event, never to this one).
    void join() {
        if (runner_.joinable()) runner_.join();
    }
    // Complete now; the callbacks run `delay` later on another thread.
    void complete() {
        complete_ = true;
        runner_ = std::thread([this] {
            std::this_thread::sleep_for(delay_);
            std::vector<std::function<void()>> callbacks;
            {
                std::lock_guard lock(mutex_);
                callbacks.swap(callbacks_);
            }
            for (auto& c : callbacks)
                c();
        });
    }

private:
    const std::chrono::milliseconds delay_;
    std::atomic<bool> complete_{false};
    std::mutex mutex_;
    std::vector<std::function<void()>> callbacks_;
    std::thread runner_;
};
} // namespace

TEST_CASE("profiler: stop() waits for the slices of completed work that a backend's thread records late") {
    profiler::start();
    auto* session = detail::tracing();
    REQUIRE(session);
    auto done = std::make_shared<late_callback_event>(std::chrono::milliseconds(100));
    auto never = std::make_shared<late_callback_event>(std::chrono::milliseconds(0));
    auto record_slice = [session](const char* name) {
        return [session, name] {
            detail::trace_record r;
            r.name = name;
            r.start_ns = r.end_ns = detail::trace_clock_ns();
            session->record(std::move(r), "test callbacks");
        };
    };
    detail::on_complete_traced(*session, done, record_slice("completed_work"));
    detail::on_complete_traced(*session, never, record_slice("unfinished_work"));
    done->complete(); // its callback runs 100 ms from now
    const auto started = std::chrono::steady_clock::now();
    const trace t = profiler::stop(); // waits for the completed work's callback, not for the unfinished work's
    CHECK(std::chrono::steady_clock::now() - started >= std::chrono::milliseconds(90));
    std::set<std::string> names;
    for (const auto& slice : t.slices)
        names.insert(slice.name);
    CHECK(names.count("completed_work") == 1);
    CHECK(names.count("unfinished_work") == 0);
    never->complete(); // the late slice goes to a stopped session: dropped, never an error
    never->join();
    done->join();
}

TEST_CASE("profiler: misuse and unwritable paths are clear errors") {
    CHECK_FALSE(profiler::active());
    CHECK_THROWS_WITH_AS(profiler::stop(), doctest::Contains("no trace is recording"), error);
    CHECK_THROWS_AS(profiler::snapshot(), error);
    profiler::start();
    CHECK(profiler::active());
    CHECK_THROWS_WITH_AS(profiler::start(), doctest::Contains("already recording"), error);
    const trace t = profiler::stop();
    try {
        write_chrome_trace(t, "/nonexistent-directory/trace.json");
        FAIL("an unwritable path was accepted");
    } catch (const error& e) {
        CHECK(e.code() == errc::invalid_argument);
        CHECK(std::string(e.what()).find("/nonexistent-directory/trace.json") != std::string::npos);
    }
    CHECK_THROWS_WITH_AS(node_durations(t, 12345), doctest::Contains("no launch of graph 12345"), error);
}

TEST_CASE("native: nothing is recorded while no trace records") {
    diamond d;
    queue q;
    executable_graph exec(d.g, q.get_device());
    q.launch(exec).wait();
    profiler::start();
    const trace t = profiler::stop();
    CHECK(t.slices.empty());
    CHECK(t.launches.empty());
}

TEST_CASE("native: snapshot keeps recording") {
    diamond d;
    queue q;
    executable_graph exec(d.g, q.get_device());
    profiler::start();
    q.launch(exec).wait();
    CHECK(profiler::snapshot().slices.size() == 6 + 2);
    q.launch(exec).wait();
    CHECK(profiler::stop().slices.size() == 2 * (6 + 2));
}

TEST_CASE(
    "ENCORE_PROFILE writes the trace of a whole program; an unwritable path is a message, not a failure") {
    const char* child = std::getenv("ENCORE_PROFILE_CHILD");
    REQUIRE(child);
    const auto path = temporary_path("profile-env");
    std::string errors;
    CHECK(run_child(child, {"ENCORE_PROFILE=" + path}, errors) == 0);
    const json j = read_json(path);
    std::remove(path.c_str());
    int kernels = 0;
    for (const auto& e : j["traceEvents"])
        if (e["ph"] == "X" && e["name"] == "child_kernel") ++kernels;
    CHECK(kernels == 3); // three launches of a one-node graph

    // "%p" becomes the child's process id.
    const auto pattern = temporary_path("profile-env-pid") + "-%p.json";
    pid_t pid = 0;
    CHECK(run_child(child, {"ENCORE_PROFILE=" + pattern}, errors, &pid) == 0);
    const auto with_pid = pattern.substr(0, pattern.size() - 8) + "-" + std::to_string(pid) + ".json";
    CHECK(read_json(with_pid)["traceEvents"].size() > 0);
    std::remove(with_pid.c_str());

    CHECK(run_child(child, {"ENCORE_PROFILE=/nonexistent-directory/trace.json"}, errors) == 0);
    CHECK(errors.find("ENCORE_PROFILE='/nonexistent-directory/trace.json' cannot be opened for writing") !=
          std::string::npos);
}

TEST_CASE("critical path: the longest chain by given node times") {
    // 0 -> 1 -> 3, 0 -> 2 -> 3, 3 -> 4, 2 -> 5; times make 0 -> 2 -> 3 -> 4 the longest (1+5+1+2 = 9).
    graph g;
    auto k = make_kernel("k", [](const work_item&) {});
    auto n0 = g.add(kernel_command{k, {}, range(1)});
    auto n1 = g.add(kernel_command{k, {}, range(1)}, {n0});
    auto n2 = g.add(kernel_command{k, {}, range(1)}, {n0});
    auto n3 = g.add(kernel_command{k, {}, range(1)}, {n1, n2});
    g.add(kernel_command{k, {}, range(1)}, {n3});
    g.add(kernel_command{k, {}, range(1)}, {n2});
    const std::vector<double> ns{1, 3, 5, 1, 2, 2.5};
    const auto path = critical_path(g, ns);
    CHECK(path.nodes == std::vector<std::uint32_t>{0, 2, 3, 4});
    CHECK(path.total_ns == doctest::Approx(9));
    // Node 5 made slow: 0 -> 2 -> 5 wins.
    const std::vector<double> slow5{1, 3, 5, 1, 2, 10};
    CHECK(critical_path(g, slow5).nodes == std::vector<std::uint32_t>{0, 2, 5});
    // Unmeasured nodes weigh nothing.
    const std::vector<double> unmeasured{-1, 3, -1, 1, 2, 0};
    CHECK(critical_path(g, unmeasured).nodes == std::vector<std::uint32_t>{0, 1, 3, 4});
    CHECK_THROWS_WITH_AS(critical_path(g, std::vector<double>{1, 2}), doctest::Contains("2 node times"),
                         error);

    std::ostringstream dot;
    write_timed_dot(g, dot, ns);
    const std::string text = dot.str();
    CHECK(text.find("fillcolor=\"#ff0000\"") != std::string::npos); // the slowest node, node 2: full red
    CHECK(text.find("fillcolor=\"#ffcccc\"") != std::string::npos); // 1/5 of it: pale (255 * 4/5 = 204)
    CHECK(text.find("5 ns") != std::string::npos);
    CHECK(text.find("critical path: 4 nodes, 9 ns") != std::string::npos);
    // Bold red edges exactly along the path: 0->2, 2->3, 3->4.
    std::size_t bold = 0;
    for (auto at = text.find("penwidth=3, style=bold"); at != std::string::npos;
         at = text.find("penwidth=3, style=bold", at + 1))
        ++bold;
    CHECK(bold == 3);
    CHECK(text.find("0->2 [color") != std::string::npos);
    CHECK(text.find("2->3 [color") != std::string::npos);
    CHECK(text.find("3->4 [color") != std::string::npos);
    CHECK(text.find("0->1 [color") == std::string::npos);
}

TEST_CASE("native: the timed picture of a traced graph marks its slow branch as the critical path") {
    graph g;
    auto a = g.add(kernel_command{busy_kernel("fast_root", 5), {}, range(1)});
    g.add(kernel_command{busy_kernel("slow_branch", 400), {}, range(1)}, {a});
    g.add(kernel_command{busy_kernel("fast_branch", 5), {}, range(1)}, {a});
    queue q;
    executable_graph exec(g, q.get_device());
    profiler::start();
    for (int i = 0; i < 3; ++i)
        q.launch(exec);
    q.wait();
    const trace t = profiler::stop();
    const auto ns = node_durations(t, g.id());
    REQUIRE(ns.size() == 3);
    CHECK(critical_path(g, ns).nodes == std::vector<std::uint32_t>{0, 1});
    const auto path = temporary_path("profile-timed") + ".dot";
    write_timed_dot(t, g.id(), path);
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    std::remove(path.c_str());
    CHECK(text.str().find("0->1 [color=\"#c00000\"") != std::string::npos);
    CHECK(text.str().find("1: kernel 'slow_branch'") != std::string::npos);
    CHECK(text.str().find("fillcolor=\"#ff0000\"") != std::string::npos);
}

TEST_CASE("native: a trace keeps nothing of the program's data alive") {
    auto data = std::make_shared<int>(0);
    trace t;
    {
        graph g;
        auto k = make_kernel("holds_data", [data](const work_item&) { ++*data; });
        auto a = g.add(kernel_command{k, {}, range(1)});
        g.add(host_task_command{[data] { ++*data; }}, {a});
        queue q;
        executable_graph exec(g, q.get_device());
        profiler::start();
        q.launch(exec).wait();
        t = profiler::stop();
    }
    CHECK(*data == 2);
    CHECK(data.use_count() == 1); // the graph's snapshot in `t` holds no kernel object or host task of the program
    REQUIRE(t.graphs.size() == 1);
    CHECK(t.graphs[0].flat->describe(0u).find("holds_data") != std::string::npos);
    CHECK(t.slices.size() == 2 + 1); // two nodes, one device partition
}

namespace {
// A backend's captured graph, as far as the trace sees one: it counts the live copies of itself.
struct counted_native_graph final : native_graph {
    static inline int alive = 0;
    counted_native_graph() { ++alive; }
    ~counted_native_graph() override { --alive; }
    std::string_view backend() const noexcept override { return "test"; }
    std::size_t size() const noexcept override { return 7; }
};
} // namespace

TEST_CASE("a trace's snapshot of a graph keeps no backend object: a natively captured graph becomes its name") {
    // A captured CUDA graph held by a trace was destroyed at the program's exit, after the CUDA driver: it must
    // not be held at all.
    std::shared_ptr<const graph> snapshot;
    {
        graph g;
        g.add(native_graph_command{std::make_shared<counted_native_graph>()});
        CHECK(counted_native_graph::alive == 1);
        snapshot = encore::detail::trace_snapshot(g);
    }
    CHECK(counted_native_graph::alive == 0);
    const auto& n = std::get<native_graph_command>(snapshot->command_at(snapshot->node_at(0)));
    CHECK(n.graph->backend() == "test");
    CHECK(n.graph->size() == 7);
}
