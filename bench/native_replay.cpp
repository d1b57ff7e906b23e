// bench/native_replay — what a node costs on the native backend, four ways, on the same DAGs in the same
// run:
//   eager        every node submitted to an out-of-order encore::queue, with its predecessors' events;
//   in-order     (chain only) every node submitted to an in-order encore::queue, no events;
//   replay       one launch of the executable graph finalized from it (finalize not timed);
//   flow graph   the same DAG built by hand as a tbb::flow::graph of continue_nodes (building not timed);
//   loop         one thread running the nodes' kernels in topological order through the same kernel interface
//                (what a graph engine replaces: replay should never lose to it, and should win once nodes
//                carry work).
// Every node runs a small kernel (16 work-items, one add each, on the node's own slot), so the numbers are
// the engines' overhead per node. Nodes alternate between two kernels, as a program has more than one: with a
// single kernel type in the program GCC devirtualizes and inlines it into the flow graph's hand-written
// bodies (an advantage no engine that stores kernels behind an interface, Encore's or a SYCL runtime's, can
// have), and the comparison would measure that instead. After each shape, every slot is checked: each node
// ran once per run. Each figure is the median of several runs (the methods take turns, so load from elsewhere
// falls on all of them alike); a run ends when every node has completed. Shapes: a chain of 10,000 kernels, a
// fan-out/fan-in of 1,000, a 100x100 wavefront and a random DAG of 10,000 nodes (4 predecessors each, from
// the previous 1,000). Two more shapes carry work: the same 100x100 wavefront and 10,000-node random DAG with
// kernels of about 20 µs each (calibrated at start), where replay should run in parallel: their speed-up is
// loop / replay.
//
//     build-rt/bench/native_replay            # a table
//     build-rt/bench/native_replay --json     # {"results": [{"shape": ..., "nodes": ..., ...}, ...]}
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <oneapi/tbb/flow_graph.h>

#include "encore/runtime/runtime.hpp"
#include "encore/graph/shapes.hpp"
#include "timing.hpp"

namespace {

using bench::median;

using clock_type = std::chrono::steady_clock;
constexpr std::size_t items_per_node = 16;

struct result {
    std::string shape;
    std::uint32_t nodes = 0;
    double eager = 0, replay = 0, flow_graph = 0, loop = 0; // ns per node
    double eager_in_order = -1;                              // chain only
    bool heavy = false;
};

template <typename F> double time_ns(F&& f) {
    auto start = clock_type::now();
    f();
    return std::chrono::duration<double, std::nano>(clock_type::now() - start).count();
}

// What the flow graph's bodies do: the kernel's work-items in a loop, as the native backend runs a small
// range.
void run_items(const encore::kernel_command& k) {
    encore::work_item it;
    it.global_range = k.range.global;
    for (std::size_t i = 0; i < k.range.global[0]; ++i) {
        it.global_id[0] = i;
        k.kernel->run(it, k.arguments);
    }
}

class bench_shape {
public:
    bench_shape(std::string name, encore::graph g, bool heavy = false)
        : name_(std::move(name)), g_(std::move(g)), heavy_(heavy) {
        const auto& s = g_.boost_graph();
        predecessors_.resize(g_.size());
        for (std::uint32_t v = 0; v < g_.size(); ++v)
            for (auto p : boost::make_iterator_range(boost::inv_adjacent_vertices(v, s)))
                predecessors_[v].push_back(static_cast<std::uint32_t>(p));
    }

    // The three methods take turns, one run each per round, so that load from elsewhere on the machine falls
    // on all of them alike; eager runs every fourth round (it is slow, and its median settles quickly).
    // Returns the figures and how many times each node ran.
    result measure(const encore::device& d, int repetitions, int& runs) {
        result r{name_, static_cast<std::uint32_t>(g_.size())};
        r.heavy = heavy_;
        const double n = static_cast<double>(g_.size());
        encore::queue q(d);
        encore::executable_graph exec(g_, d);
        flow_graph flow(g_, predecessors_);
        q.launch(exec).wait(); // warm-up of both
        flow.run();

        std::vector<const encore::kernel_command*> in_order; // shapes number nodes in a topological order
        for (std::uint32_t v = 0; v < g_.size(); ++v)
            in_order.push_back(&std::get<encore::kernel_command>(g_.command_at(g_.node_at(v))));
        std::vector<double> eager, replay, flow_times, loop;
        for (int round = 0; round < repetitions; ++round) {
            if (round % 4 == 0) eager.push_back(run_eager(q));
            replay.push_back(time_ns([&] { q.launch(exec).wait(); }));
            flow_times.push_back(time_ns([&] { flow.run(); }));
            loop.push_back(time_ns([&] {
                for (const auto* k : in_order)
                    run_items(*k);
            }));
        }
        if (name_ == "chain") {
            encore::queue in_order(d, {.in_order = true});
            std::vector<double> times;
            for (int round = 0; round < std::max(1, repetitions / 4); ++round)
                times.push_back(run_eager_in_order(in_order));
            r.eager_in_order = median(times) / n;
            runs += static_cast<int>(times.size());
        }
        r.eager = median(eager) / n;
        r.replay = median(replay) / n;
        r.flow_graph = median(flow_times) / n;
        r.loop = median(loop) / n;
        runs += static_cast<int>(eager.size() + replay.size() + flow_times.size() + loop.size()) + 2;
        return r;
    }

    std::uint32_t size() const noexcept { return static_cast<std::uint32_t>(g_.size()); }
    bool heavy() const noexcept { return heavy_; }
    const std::string& name() const noexcept { return name_; }

private:
    // The same DAG built by hand as a tbb::flow::graph of continue_nodes, each running the node's kernel.
    class flow_graph {
    public:
        flow_graph(const encore::graph& g, const std::vector<std::vector<std::uint32_t>>& predecessors) {
            nodes_.reserve(g.size());
            for (std::uint32_t v = 0; v < g.size(); ++v) {
                const auto* k = &std::get<encore::kernel_command>(g.command_at(g.node_at(v)));
                nodes_.push_back(std::make_unique<tbb::flow::continue_node<tbb::flow::continue_msg>>(
                    graph_, [k](const tbb::flow::continue_msg&) { run_items(*k); }));
                for (auto p : predecessors[v])
                    tbb::flow::make_edge(*nodes_[p], *nodes_[v]);
                if (predecessors[v].empty()) roots_.push_back(nodes_[v].get());
            }
        }
        void run() {
            for (auto* root : roots_)
                root->try_put(tbb::flow::continue_msg());
            graph_.wait_for_all();
        }

    private:
        tbb::flow::graph graph_;
        std::vector<std::unique_ptr<tbb::flow::continue_node<tbb::flow::continue_msg>>> nodes_;
        std::vector<tbb::flow::continue_node<tbb::flow::continue_msg>*> roots_;
    };

    // Every node submitted to an out-of-order queue with its predecessors' events; shapes number nodes in a
    // topological order. Commands are copied before the clock starts.
    double run_eager(encore::queue& q) {
        std::vector<encore::command> commands;
        commands.reserve(g_.size());
        for (std::uint32_t v = 0; v < g_.size(); ++v)
            commands.push_back(g_.command_at(g_.node_at(v)));
        std::vector<encore::event> events(g_.size());
        std::vector<encore::event> deps;
        return time_ns([&] {
            for (std::uint32_t v = 0; v < g_.size(); ++v) {
                deps.clear();
                for (auto p : predecessors_[v])
                    deps.push_back(events[p]);
                events[v] = q.submit(std::move(commands[v]), deps);
            }
            q.wait();
        });
    }

    // Every node submitted to an in-order queue, in topological order, without events.
    double run_eager_in_order(encore::queue& q) {
        std::vector<encore::command> commands;
        commands.reserve(g_.size());
        for (std::uint32_t v = 0; v < g_.size(); ++v)
            commands.push_back(g_.command_at(g_.node_at(v)));
        return time_ns([&] {
            for (auto& c : commands)
                q.submit(std::move(c));
            q.wait();
        });
    }

    std::string name_;
    encore::graph g_;
    bool heavy_ = false;
    std::vector<std::vector<std::uint32_t>> predecessors_;
};

// Spins `iterations` dependent multiply-adds; the empty asm keeps the compiler from dropping the loop.
void spin(std::uint64_t iterations) {
    std::uint64_t x = 1;
    for (std::uint64_t i = 0; i < iterations; ++i) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        asm volatile("" : "+r"(x));
    }
}

// Iterations of spin() per work-item so that a 16-item kernel takes about `node_us` microseconds here.
std::uint64_t calibrate_spin(double node_us) {
    std::uint64_t iterations = 1 << 16;
    const double ns = time_ns([&] { spin(iterations); });
    return static_cast<std::uint64_t>(static_cast<double>(iterations) * node_us * 1000.0 / ns / items_per_node) + 1;
}

} // namespace

int main(int argc, char** argv) {
    bool json = false;
    int repetitions = 41;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--json")
            json = true;
        else if (a == "--repetitions" && i + 1 < argc)
            repetitions = std::max(1, std::atoi(argv[++i]));
        else {
            std::fprintf(stderr, "usage: %s [--json] [--repetitions N]\n", argv[0]);
            return 2;
        }
    }

    encore::device d = encore::device::default_device();
    for (const auto& candidate : encore::device::all())
        if (candidate.backend_name() == "native") d = candidate;

    // One slot of 16 ints per node; every node adds 1 to each of its ints.
    constexpr std::uint32_t max_nodes = 10'000;
    auto* data = encore::malloc_shared<int>(max_nodes * items_per_node, d);
    std::memset(data, 0, max_nodes * items_per_node * sizeof(int));
    auto add_one = encore::make_kernel(
        "add_one", [](const encore::work_item& it, std::span<const encore::kernel_argument> args) {
            static_cast<int*>(args[0].pointer())[it.global_id[0]] += 1;
        });
    auto add_two = encore::make_kernel(
        "add_two", [](const encore::work_item& it, std::span<const encore::kernel_argument> args) {
            static_cast<int*>(args[0].pointer())[it.global_id[0]] += 2;
        });
    auto increment = [](std::uint32_t index) { return index % 2 ? 2 : 1; };
    encore::shapes::options options;
    options.make_command = [&](std::uint32_t index) -> encore::command {
        return encore::kernel_command{increment(index) == 2 ? add_two : add_one,
                                      {encore::kernel_argument::from_pointer(data + index * items_per_node)},
                                      encore::range(items_per_node)};
    };

    std::vector<bench_shape> shapes;
    shapes.emplace_back("chain", encore::shapes::chain(10'000, options));
    shapes.emplace_back("fan_out_in", encore::shapes::fan_out_in(1'000, options));
    shapes.emplace_back("wavefront", encore::shapes::wavefront(100, 100, options));
    shapes.emplace_back("random_dag", encore::shapes::random_dag(10'000, options));

    // Nodes of about 20 µs: the same slots and increments, after a calibrated spin.
    static std::uint64_t spin_iterations = calibrate_spin(20.0);
    auto heavy_one = encore::make_kernel(
        "heavy_add_one", [](const encore::work_item& it, std::span<const encore::kernel_argument> args) {
            spin(spin_iterations);
            static_cast<int*>(args[0].pointer())[it.global_id[0]] += 1;
        });
    auto heavy_two = encore::make_kernel(
        "heavy_add_two", [](const encore::work_item& it, std::span<const encore::kernel_argument> args) {
            spin(spin_iterations);
            static_cast<int*>(args[0].pointer())[it.global_id[0]] += 2;
        });
    encore::shapes::options heavy_options;
    heavy_options.make_command = [&](std::uint32_t index) -> encore::command {
        return encore::kernel_command{increment(index) == 2 ? heavy_two : heavy_one,
                                      {encore::kernel_argument::from_pointer(data + index * items_per_node)},
                                      encore::range(items_per_node)};
    };
    // As large as the tiny shapes: a smaller wavefront has too little parallelism for 16 cores (30x30: 59
    // levels, at most 30 nodes wide; no scheduler gets past about 10x there).
    shapes.emplace_back("wavefront_20us", encore::shapes::wavefront(100, 100, heavy_options), true);
    shapes.emplace_back("random_dag_20us", encore::shapes::random_dag(10'000, heavy_options), true);

    std::vector<result> results;
    for (auto& s : shapes) {
        const std::size_t ints = std::size_t(s.size()) * items_per_node;
        std::vector<int> before(data, data + ints);
        int runs = 0; // measure() adds every run of every method
        results.push_back(s.measure(d, s.heavy() ? std::max(1, repetitions / 4) : repetitions, runs));
        for (std::size_t i = 0; i < ints; ++i)
            if (data[i] != before[i] + runs * increment(static_cast<std::uint32_t>(i / items_per_node))) {
                std::fprintf(stderr, "native_replay: %s: node %zu ran %d times, not %d\n", s.name().c_str(),
                             i / items_per_node, (data[i] - before[i]) / increment(i / items_per_node), runs);
                return 1;
            }
    }
    encore::free(data, d);

    if (json) {
        std::printf("{\"results\": [");
        for (std::size_t i = 0; i < results.size(); ++i) {
            const auto& r = results[i];
            std::printf(
                "%s{\"shape\": \"%s\", \"nodes\": %u, \"eager_ns_per_node\": %.1f, \"replay_ns_per_node\": "
                "%.1f, \"flow_graph_ns_per_node\": %.1f, \"loop_ns_per_node\": %.1f",
                i ? ", " : "", r.shape.c_str(), r.nodes, r.eager, r.replay, r.flow_graph, r.loop);
            if (r.eager_in_order >= 0) std::printf(", \"eager_in_order_ns_per_node\": %.1f", r.eager_in_order);
            std::printf("}");
        }
        std::printf("]}\n");
        return 0;
    }
    std::printf("native backend on %s (%u hardware threads), median of %d runs (%d for 20 us nodes), ns per node\n\n",
                d.properties().name.c_str(), d.properties().compute_units, repetitions, std::max(1, repetitions / 4));
    std::printf("%-16s %7s %10s %10s %12s %10s %12s %12s %11s\n", "shape", "nodes", "eager", "replay", "flow_graph",
                "loop", "replay/loop", "replay/flow", "speed-up");
    for (const auto& r : results)
        std::printf("%-16s %7u %10.1f %10.1f %12.1f %10.1f %12.3f %12.3f %10.2fx\n", r.shape.c_str(), r.nodes,
                    r.eager, r.replay, r.flow_graph, r.loop, r.replay / r.loop, r.replay / r.flow_graph,
                    r.loop / r.replay);
    for (const auto& r : results)
        if (r.eager_in_order >= 0)
            std::printf("\neager submission to an in-order queue (%s, no events): %.1f ns per command\n",
                        r.shape.c_str(), r.eager_in_order);
    return 0;
}
