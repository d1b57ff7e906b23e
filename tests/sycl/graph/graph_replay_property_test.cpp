// Property: replaying a graph gives bit-identical results to running the same submissions eagerly, over random
// DAGs of kernels, copies, fills and host tasks, built explicitly and recorded. On the default device: the native
// CPU as a SYCL lambda, or with ENCORE_BACKENDS=opencl|level_zero the same kernel in that backend's form
// (support/test_kernels.hpp) as a kernel object with set_args (a SYCL lambda is compiled for the host only).
#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <random>

#include "graph_builder.hpp"
#include "support/sycl_test_memory.hpp"
#include "support/test_kernels.hpp"

namespace {

constexpr std::size_t arrays = 6, length = 97;

// One random operation on the arrays; `reads`/`writes` say which arrays it touches.
struct operation {
    enum kind_t { kernel, copy, fill, host } kind;
    int dst, src;
    unsigned salt;
};

std::vector<operation> random_program(std::mt19937& rng, int count) {
    std::vector<operation> ops;
    std::uniform_int_distribution<int> pick_array(0, arrays - 1), pick_kind(0, 3);
    for (int i = 0; i < count; ++i) {
        int dst = pick_array(rng), src = pick_array(rng);
        if (src == dst) src = (dst + 1) % arrays;
        ops.push_back({static_cast<operation::kind_t>(pick_kind(rng)), dst, src, static_cast<unsigned>(rng())});
    }
    return ops;
}

// Dependencies: every earlier operation that touches an array this one touches (so the result is defined), plus
// a few random extra edges.
std::vector<std::vector<int>> dependencies(const std::vector<operation>& ops, std::mt19937& rng) {
    std::vector<std::vector<int>> deps(ops.size());
    std::bernoulli_distribution extra(0.05);
    for (std::size_t i = 0; i < ops.size(); ++i)
        for (std::size_t j = 0; j < i; ++j) {
            const auto &a = ops[i], &b = ops[j];
            bool conflict = a.dst == b.dst || a.dst == b.src || a.src == b.dst;
            if (conflict || extra(rng)) deps[i].push_back(static_cast<int>(j));
        }
    return deps;
}

// The kernel operation as a kernel object, for devices that do not run host-compiled SYCL lambdas; empty on
// the native backend, which runs the lambda.
std::optional<sycl::kernel> mix_kernel(const sycl::queue& q) {
    const encore::device d = q.get_device().engine(); // a copy: get_device() returns a temporary
    if (encore::testing::runs_host_kernels(d)) return std::nullopt;
    return sycl::ext::encore::make_kernel(encore::testing::kernels_for(d).mix);
}

// A host operation's task reaches the arrays where they are shared USM; on a device with device USM only (the host
// cannot touch that) it is a host task that touches nothing, a node with the same edges, and run_on_host skips it.
void command_group(sycl::handler& h, const operation& op, std::uint32_t* const* data,
                   const std::optional<sycl::kernel>& mix, bool host_reaches_data) {
    std::uint32_t* dst = data[op.dst];
    const std::uint32_t* src = data[op.src];
    const unsigned salt = op.salt;
    switch (op.kind) {
    case operation::kernel:
        if (mix) {
            h.set_args(dst, src, salt);
            h.parallel_for(sycl::range<1>{length}, *mix);
        } else {
            h.parallel_for(length, [=](sycl::id<1> i) { dst[i] = dst[i] * 2654435761u + src[i] + salt; });
        }
        break;
    case operation::copy: h.memcpy(dst, src, length * sizeof(std::uint32_t)); break;
    case operation::fill: h.fill(dst, salt, length); break;
    case operation::host:
        if (host_reaches_data)
            h.host_task([=] {
                for (std::size_t i = 0; i < length; ++i) dst[i] ^= src[(i + salt) % length];
            });
        else
            h.host_task([] {});
        break;
    }
}

// The same operations on the host, in program order: every pair of operations that touch a common array is
// ordered by a dependency in that order, so this is the one result any correct run gives.
void run_on_host(const std::vector<operation>& ops, std::vector<std::vector<std::uint32_t>>& data,
                 bool host_reaches_data) {
    for (const auto& op : ops) {
        if (op.kind == operation::host && !host_reaches_data) continue;
        auto& dst = data[op.dst];
        const auto& src = data[op.src];
        for (std::size_t i = 0; i < length; ++i)
            switch (op.kind) {
            case operation::kernel: dst[i] = dst[i] * 2654435761u + src[i] + op.salt; break;
            case operation::copy: dst[i] = src[i]; break;
            case operation::fill: dst[i] = op.salt; break;
            case operation::host: dst[i] ^= src[(i + op.salt) % length]; break;
            }
    }
}

struct arrays_t {
    std::unique_ptr<encore::testing::test_memory<std::uint32_t>> memory[arrays];
    std::uint32_t* data[arrays];
    explicit arrays_t(sycl::queue& q) {
        for (std::size_t a = 0; a < arrays; ++a) {
            memory[a] = std::make_unique<encore::testing::test_memory<std::uint32_t>>(q, length);
            data[a] = memory[a]->get();
            std::vector<std::uint32_t> start(length);
            for (std::size_t i = 0; i < length; ++i) start[i] = static_cast<std::uint32_t>(a * 1000 + i);
            memory[a]->write(start);
        }
    }
    bool host_reaches_data() const { return memory[0]->shared(); }
    std::vector<std::vector<std::uint32_t>> values() const {
        std::vector<std::vector<std::uint32_t>> out;
        for (const auto& m : memory) out.push_back(m->read());
        return out;
    }
};

} // namespace

TEST_CASE("random graphs replay bit-identically to eager submission") {
    for (auto style : {build_style::explicit_api, build_style::record})
        for (unsigned seed = 1; seed <= 12; ++seed) {
            CAPTURE(to_string(style));
            CAPTURE(seed);
            std::mt19937 rng(seed);
            auto ops = random_program(rng, 10 + static_cast<int>(seed) * 4);
            auto deps = dependencies(ops, rng);
            sycl::queue q;
            CAPTURE(q.get_device().get_info<sycl::info::device::name>());
            static const auto mix = mix_kernel(q);

            arrays_t eager(q), replayed(q);
            const bool host_tasks_touch = eager.host_reaches_data();
            CAPTURE(host_tasks_touch);
            auto reference = eager.values();
            run_on_host(ops, reference, host_tasks_touch);
            run_on_host(ops, reference, host_tasks_touch); // twice, as below
            for (int round = 0; round < 2; ++round) { // twice: a replay must start from the state the last left
                std::vector<sycl::event> events;
                for (std::size_t i = 0; i < ops.size(); ++i) {
                    std::vector<sycl::event> after;
                    for (int d : deps[i]) after.push_back(events[d]);
                    events.push_back(q.submit([&](sycl::handler& h) {
                        h.depends_on(after);
                        command_group(h, ops[i], eager.data, mix, host_tasks_touch);
                    }));
                }
                q.wait();
            }
            const auto eager_values = eager.values();
            CHECK(eager_values == reference);

            graph_builder b(style, q);
            std::vector<step> steps;
            for (std::size_t i = 0; i < ops.size(); ++i) {
                std::vector<step> after;
                for (int d : deps[i]) after.push_back(steps[d]);
                steps.push_back(b.add(
                    [&](sycl::handler& h) { command_group(h, ops[i], replayed.data, mix, host_tasks_touch); }, after));
            }
            auto exec = b.done().finalize();
            q.ext_oneapi_graph(exec);
            q.ext_oneapi_graph(exec);
            q.wait();
            CHECK(replayed.values() == eager_values);
        }
}
