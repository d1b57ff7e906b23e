// encore_demo: the main demo. It builds a graph of two kernel groups with a host task between them, finalizes it
// for the native CPU backend, replays it, checks results against plain C++, and compares the cost of replaying
// with submitting the same commands one by one. It writes the graph as DOT (and SVG when Graphviz is installed).
//
//   encore_demo [--out PREFIX] [--blocks B] [--elements N] [--replays R]
//
// One step normalises a vector split into B blocks of N elements; per block:
//   init_x, init_y  ->  saxpy (y = a x + y)  ->  [host task: mean of all y]  ->  scale_x, scale_y (by 1 / mean)
// and a final copy of y. Steps are submitted back to back (each after the previous one) and waited for once, as a
// program would run them; a first round waits for and checks every step.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <string>
#include <vector>

#include "backends/runtime.hpp"
#include "graph/dot_export.hpp"

namespace {

struct options {
    std::string out = "encore-demo";
    std::size_t blocks = 8;
    std::size_t elements = 256;
    int replays = 2000;
};

options parse(int argc, char** argv) {
    options o;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
            return argv[++i];
        };
        if (arg == "--out") o.out = value();
        else if (arg == "--elements") o.elements = std::stoul(value());
        else if (arg == "--blocks") o.blocks = std::stoul(value());
        else if (arg == "--replays") o.replays = std::stoi(value());
        else throw std::invalid_argument("unknown option " + arg);
    }
    if (o.elements == 0 || o.blocks == 0 || o.replays <= 0)
        throw std::invalid_argument("--blocks, --elements and --replays must be positive");
    return o;
}

// The data one step works on, in shared memory: blocks * elements values.
struct state {
    std::size_t blocks, elements, n;
    float* x;
    float* y;
    float* result;
    float* mean; // written by the host task, read by the second kernel group
};

// The commands of one step, shared by the graph and the eager submissions.
struct step {
    std::shared_ptr<const encore::kernel> init_x, init_y, saxpy, scale_x, scale_y;
    std::function<void()> host_mean;
};

step make_step(const state& s) {
    const float a = 0.5f;
    return {
        encore::make_kernel("init_x", [s](const encore::work_item& it) { s.x[it.global_id[0]] = float(it.global_id[0] % 17); }),
        encore::make_kernel("init_y", [s](const encore::work_item& it) { s.y[it.global_id[0]] = 1.0f; }),
        encore::make_kernel("saxpy", [s, a](const encore::work_item& it) {
            auto i = it.global_id[0];
            s.y[i] = a * s.x[i] + s.y[i];
        }),
        encore::make_kernel("scale_x", [s](const encore::work_item& it) { s.x[it.global_id[0]] /= *s.mean; }),
        encore::make_kernel("scale_y", [s](const encore::work_item& it) { s.y[it.global_id[0]] /= *s.mean; }),
        [s] {
            double sum = 0;
            for (std::size_t i = 0; i < s.n; ++i) sum += s.y[i];
            *s.mean = float(sum / double(s.n));
        },
    };
}

// Block b covers [b * elements, (b + 1) * elements): a kernel over it is the whole-vector kernel with an offset.
encore::nd_range block_range(const state& s, std::size_t b) {
    auto r = encore::range(s.elements);
    r.offset[0] = b * s.elements;
    return r;
}

encore::graph build_graph(const state& s, const step& k) {
    encore::graph g;
    std::vector<encore::node> saxpys, scales;
    for (std::size_t b = 0; b < s.blocks; ++b) {
        auto ix = g.add(encore::kernel_command{k.init_x, {}, block_range(s, b)});
        auto iy = g.add(encore::kernel_command{k.init_y, {}, block_range(s, b)});
        saxpys.push_back(g.add(encore::kernel_command{k.saxpy, {}, block_range(s, b)}, {ix, iy}));
    }
    auto host = g.add(encore::host_task_command{k.host_mean}, saxpys);
    for (std::size_t b = 0; b < s.blocks; ++b) {
        scales.push_back(g.add(encore::kernel_command{k.scale_x, {}, block_range(s, b)}, {host}));
        scales.push_back(g.add(encore::kernel_command{k.scale_y, {}, block_range(s, b)}, {host}));
    }
    g.add(encore::memcpy_command{s.result, s.y, s.n * sizeof(float)}, scales);
    return g;
}

// The same commands submitted one by one, the step starting after `previous`.
encore::event submit_eagerly(encore::queue& q, const state& s, const step& k, const encore::event& previous) {
    std::vector<encore::event> saxpys, scales;
    for (std::size_t b = 0; b < s.blocks; ++b) {
        auto ix = q.parallel_for(block_range(s, b), k.init_x, previous);
        auto iy = q.parallel_for(block_range(s, b), k.init_y, previous);
        saxpys.push_back(q.parallel_for(block_range(s, b), k.saxpy, {ix, iy}));
    }
    auto host = q.host_task(k.host_mean, saxpys);
    for (std::size_t b = 0; b < s.blocks; ++b) {
        scales.push_back(q.parallel_for(block_range(s, b), k.scale_x, host));
        scales.push_back(q.parallel_for(block_range(s, b), k.scale_y, host));
    }
    return q.memcpy(s.result, s.y, s.n * sizeof(float), scales);
}

// What one step must produce, computed in plain C++.
std::vector<float> reference(std::size_t n) {
    std::vector<float> x(n), y(n, 1.0f);
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = float(i % 17);
        y[i] = 0.5f * x[i] + y[i];
        sum += y[i];
    }
    float mean = float(sum / double(n));
    for (auto& v : y) v /= mean;
    return y;
}

bool matches(const state& s, const std::vector<float>& expected) {
    return std::memcmp(s.result, expected.data(), s.n * sizeof(float)) == 0;
}

double microseconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main(int argc, char** argv) try {
    const options o = parse(argc, argv);
    encore::queue q;
    const std::size_t n = o.blocks * o.elements;
    state s{o.blocks, o.elements, n, encore::malloc_shared<float>(n, q), encore::malloc_shared<float>(n, q),
            encore::malloc_shared<float>(n, q), encore::malloc_shared<float>(1, q)};
    const step k = make_step(s);
    const auto expected = reference(n);

    std::printf("Encore demo on %s: %zu blocks of %zu elements, %d steps\n\n",
                q.get_device().properties().name.c_str(), o.blocks, o.elements, o.replays);
    encore::graph g = build_graph(s, k);
    auto t0 = std::chrono::steady_clock::now();
    encore::executable_graph exec(g, q.get_device());
    double finalize_us = microseconds_since(t0);
    const auto& parts = exec.partitions();
    std::printf("graph: %zu nodes, %zu edges, finalized in %.1f us into %zu partitions:\n", g.size(), g.edge_count(),
                finalize_us, parts.partitions.size());
    for (std::size_t p = 0; p < parts.partitions.size(); ++p) {
        const auto& part = parts.partitions[p];
        std::printf("  partition %zu: %zu node%s%s%s\n", p, part.nodes.size(), part.nodes.size() == 1 ? "" : "s",
                    part.host_task ? " (host task)" : "", part.in_order ? " (in order)" : "");
    }

    // Checked round: every step waited for and compared with the plain C++ result.
    const int checked = std::min(o.replays, 50);
    int wrong = 0;
    encore::event last;
    for (int i = 0; i < checked; ++i) {
        std::memset(s.result, 0, s.n * sizeof(float));
        last = submit_eagerly(q, s, k, last);
        last.wait();
        wrong += !matches(s, expected);
        std::memset(s.result, 0, s.n * sizeof(float));
        q.launch(exec).wait();
        wrong += !matches(s, expected);
    }

    // Timed round: steps back to back, one wait at the end. Eager: every command submitted on its own.
    auto t0_eager = std::chrono::steady_clock::now();
    for (int i = 0; i < o.replays; ++i) last = submit_eagerly(q, s, k, last);
    last.wait();
    double eager_us = microseconds_since(t0_eager) / o.replays;
    wrong += !matches(s, expected);

    // Replay: one launch of the executable graph per step (launches of one graph run one after another).
    std::memset(s.result, 0, s.n * sizeof(float));
    auto t0_replay = std::chrono::steady_clock::now();
    for (int i = 0; i < o.replays; ++i) last = q.launch(exec);
    last.wait();
    double replay_us = microseconds_since(t0_replay) / o.replays;
    wrong += !matches(s, expected);
    q.wait_and_throw();

    std::printf("\n%-28s %12s %14s\n", "", "us per step", "us per node");
    std::printf("%-28s %12.2f %14.2f\n", "eager submission", eager_us, eager_us / double(g.size()));
    std::printf("%-28s %12.2f %14.2f\n", "graph replay", replay_us, replay_us / double(g.size()));
    std::printf("replay / eager: %.2fx (%s)\n", replay_us / eager_us,
                replay_us < eager_us ? "replay is faster" : "replay is not faster");
    std::printf("results: %d of %d checks differ from the plain C++ reference\n", wrong, 2 * checked + 2);

    const std::string dot = o.out + ".dot", svg = o.out + ".svg";
    encore::write_dot_file(g, dot, {.verbose = true});
    std::printf("\ngraph written to %s", dot.c_str());
    if (encore::graphviz_available()) {
        encore::render_svg(dot, svg);
        std::printf(" and %s\n", svg.c_str());
    } else {
        std::printf(" (install graphviz to render it as SVG)\n");
    }

    for (float* p : {s.x, s.y, s.result, s.mean}) encore::free(p, q.get_device());
    return wrong == 0 ? 0 : 1;
} catch (const std::exception& e) {
    std::fprintf(stderr, "encore_demo: %s\n", e.what());
    return 2;
}
