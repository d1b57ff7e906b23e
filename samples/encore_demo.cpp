// encore_demo: the main demo. It builds a graph of two kernel groups with a host task between them, finalizes it
// for the native CPU backend, replays it, checks every result against plain C++, and compares the cost of a replay
// with submitting the same commands one by one. It writes the graph as DOT (and SVG when Graphviz is installed).
//
//   encore_demo [--out PREFIX] [--elements N] [--replays R]
//
// The graph, per step (a damped update of a vector, with a host-side check between the two halves):
//   init_x, init_y  ->  saxpy (y = a x + y)  ->  host task: mean of y  ->  scale_x, scale_y (by 1 / mean)  ->  copy
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "backends/runtime.hpp"
#include "graph/dot_export.hpp"

namespace {

struct options {
    std::string out = "encore-demo";
    std::size_t elements = 4096;
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
        else if (arg == "--replays") o.replays = std::stoi(value());
        else throw std::invalid_argument("unknown option " + arg);
    }
    if (o.elements == 0 || o.replays <= 0) throw std::invalid_argument("--elements and --replays must be positive");
    return o;
}

// The data one step works on, in shared memory.
struct state {
    std::size_t n;
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

encore::graph build_graph(const state& s, const step& k) {
    encore::graph g;
    auto r = encore::range(s.n);
    auto ix = g.add(encore::kernel_command{k.init_x, {}, r});
    auto iy = g.add(encore::kernel_command{k.init_y, {}, r});
    auto ax = g.add(encore::kernel_command{k.saxpy, {}, r}, {ix, iy});
    auto host = g.add(encore::host_task_command{k.host_mean}, {ax});
    auto sx = g.add(encore::kernel_command{k.scale_x, {}, r}, {host});
    auto sy = g.add(encore::kernel_command{k.scale_y, {}, r}, {host});
    g.add(encore::memcpy_command{s.result, s.y, s.n * sizeof(float)}, {sx, sy});
    return g;
}

encore::event submit_eagerly(encore::queue& q, const state& s, const step& k) {
    auto r = encore::range(s.n);
    auto ix = q.parallel_for(r, k.init_x);
    auto iy = q.parallel_for(r, k.init_y);
    auto ax = q.parallel_for(r, k.saxpy, {ix, iy});
    auto host = q.host_task(k.host_mean, {ax});
    auto sx = q.parallel_for(r, k.scale_x, {host});
    auto sy = q.parallel_for(r, k.scale_y, {host});
    return q.memcpy(s.result, s.y, s.n * sizeof(float), {sx, sy});
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
    state s{o.elements, encore::malloc_shared<float>(o.elements, q), encore::malloc_shared<float>(o.elements, q),
            encore::malloc_shared<float>(o.elements, q), encore::malloc_shared<float>(1, q)};
    const step k = make_step(s);
    const auto expected = reference(o.elements);

    std::printf("Encore demo on %s: %zu elements, %d replays\n\n", q.get_device().properties().name.c_str(), o.elements,
                o.replays);
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

    // Eager: every command submitted on its own, with its dependencies as events.
    int wrong = 0;
    t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < o.replays; ++i) {
        submit_eagerly(q, s, k).wait();
        wrong += !matches(s, expected);
    }
    double eager_us = microseconds_since(t0) / o.replays;

    // Replay: one launch of the executable graph per step.
    t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < o.replays; ++i) {
        q.launch(exec).wait();
        wrong += !matches(s, expected);
    }
    double replay_us = microseconds_since(t0) / o.replays;
    q.wait_and_throw();

    std::printf("\n%-28s %12s %14s\n", "", "us per step", "us per node");
    std::printf("%-28s %12.2f %14.2f\n", "eager submission", eager_us, eager_us / double(g.size()));
    std::printf("%-28s %12.2f %14.2f\n", "graph replay", replay_us, replay_us / double(g.size()));
    std::printf("replay / eager: %.2fx (%s)\n", replay_us / eager_us,
                replay_us < eager_us ? "replay is faster" : "replay is not faster");
    std::printf("results: %d of %d steps differ from the plain C++ reference\n", wrong, 2 * o.replays);

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
