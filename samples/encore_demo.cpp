// encore_demo: the main demo, written with SYCL and the sycl_ext_oneapi_graph extension. It records one step
// of work (two kernel groups with a host task between them) from a queue into a graph, finalizes it for the
// native CPU backend, replays it, checks the results against plain C++, and compares the cost of replaying
// with submitting the same command groups one by one. It writes the graph as DOT (and SVG when Graphviz is
// installed), then profiles a few replays (sycl::ext::encore::start_profiling) and writes their timeline as a
// Chrome trace (PREFIX-trace.json: open it in ui.perfetto.dev) and the graph coloured by measured time with
// its critical path (PREFIX-timed.dot and .svg).
//
//   encore_demo [--out PREFIX] [--blocks B] [--elements N] [--replays R]
//
// One step normalises a vector split into B blocks of N elements; per block:
//   init_x, init_y  ->  saxpy (y = a x + y)  ->  [host task: mean of all y]  ->  scale_x, scale_y (by 1 / mean)
// and a final copy of y. Steps are submitted back to back (each after the previous one) and waited for once, as a
// program would run them; a first round waits for and checks every step.
#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace sycl_ext = sycl::ext::oneapi::experimental;

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

// One step, submitted to `q` after `previous`. The same code runs eagerly and, on a recording queue, records the
// graph: what it returns is then a graph-limited event.
sycl::event submit_step(sycl::queue& q, const state& s, const sycl::event& previous) {
    const float a = 0.5f;
    const std::size_t n = s.elements;
    std::vector<sycl::event> saxpys, scales;
    for (std::size_t b = 0; b < s.blocks; ++b) {
        const std::size_t start = b * n;
        float *x = s.x + start, *y = s.y + start;
        auto ix = q.parallel_for<class init_x>(n, previous, [=](sycl::id<1> i) { x[i] = float((start + i) % 17); });
        auto iy = q.parallel_for<class init_y>(n, previous, [=](sycl::id<1> i) { y[i] = 1.0f; });
        saxpys.push_back(q.parallel_for<class saxpy>(n, std::vector<sycl::event>{ix, iy}, [=](sycl::id<1> i) { y[i] = a * x[i] + y[i]; }));
    }
    auto host = q.submit([&](sycl::handler& h) {
        h.depends_on(saxpys);
        h.host_task([s] {
            double sum = 0;
            for (std::size_t i = 0; i < s.n; ++i) sum += s.y[i];
            *s.mean = float(sum / double(s.n));
        });
    });
    for (std::size_t b = 0; b < s.blocks; ++b) {
        float *x = s.x + b * n, *y = s.y + b * n, *mean = s.mean;
        scales.push_back(q.parallel_for<class scale_x>(n, host, [=](sycl::id<1> i) { x[i] /= *mean; }));
        scales.push_back(q.parallel_for<class scale_y>(n, host, [=](sycl::id<1> i) { y[i] /= *mean; }));
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
    sycl::queue q;
    const std::size_t n = o.blocks * o.elements;
    state s{o.blocks, o.elements, n, sycl::malloc_shared<float>(n, q), sycl::malloc_shared<float>(n, q),
            sycl::malloc_shared<float>(n, q), sycl::malloc_shared<float>(1, q)};
    const auto expected = reference(n);

    std::printf("Encore demo on %s: %zu blocks of %zu elements, %d steps\n\n",
                q.get_device().get_info<sycl::info::device::name>().c_str(), o.blocks, o.elements, o.replays);

    // Record one step, then finalize.
    sycl_ext::command_graph g{q};
    auto t0 = std::chrono::steady_clock::now();
    g.begin_recording(q);
    submit_step(q, s, sycl::event{});
    g.end_recording();
    double record_us = microseconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    auto exec = g.finalize();
    double finalize_us = microseconds_since(t0);
    std::size_t edges = 0;
    for (const auto& node : g.get_nodes()) edges += node.get_successors().size();
    std::printf("graph: %zu nodes (%zu roots), %zu edges; recorded in %.1f us, finalized in %.1f us\n",
                g.get_nodes().size(), g.get_root_nodes().size(), edges, record_us, finalize_us);

    // Checked round: every step waited for and compared with the plain C++ result.
    const int checked = std::min(o.replays, 50);
    int wrong = 0;
    sycl::event last;
    for (int i = 0; i < checked; ++i) {
        std::memset(s.result, 0, s.n * sizeof(float));
        last = submit_step(q, s, last);
        last.wait();
        wrong += !matches(s, expected);
        std::memset(s.result, 0, s.n * sizeof(float));
        q.ext_oneapi_graph(exec).wait();
        wrong += !matches(s, expected);
    }

    // Timed round: steps back to back, one wait at the end. Eager: every command group submitted on its own.
    auto t0_eager = std::chrono::steady_clock::now();
    for (int i = 0; i < o.replays; ++i) last = submit_step(q, s, last);
    last.wait();
    double eager_us = microseconds_since(t0_eager) / o.replays;
    wrong += !matches(s, expected);

    // Replay: one submission of the executable graph per step (submissions of one graph run one after another).
    std::memset(s.result, 0, s.n * sizeof(float));
    auto t0_replay = std::chrono::steady_clock::now();
    for (int i = 0; i < o.replays; ++i) last = q.ext_oneapi_graph(exec);
    last.wait();
    double replay_us = microseconds_since(t0_replay) / o.replays;
    wrong += !matches(s, expected);
    q.wait_and_throw();

    const double nodes = double(g.get_nodes().size());
    std::printf("\n%-28s %12s %14s\n", "", "us per step", "us per node");
    std::printf("%-28s %12.2f %14.2f\n", "eager submission", eager_us, eager_us / nodes);
    std::printf("%-28s %12.2f %14.2f\n", "graph replay", replay_us, replay_us / nodes);
    std::printf("replay / eager: %.2fx (%s)\n", replay_us / eager_us,
                replay_us < eager_us ? "replay is faster" : "replay is not faster");
    std::printf("results: %d of %d checks differ from the plain C++ reference\n", wrong, 2 * checked + 2);

    const std::string dot = o.out + ".dot", svg = o.out + ".svg";
    g.print_graph(dot, true);
    std::printf("\ngraph written to %s", dot.c_str());
    if (sycl::ext::encore::graphviz_available()) {
        sycl::ext::encore::render_svg(dot, svg);
        std::printf(" and %s\n", svg.c_str());
    } else {
        std::printf(" (install graphviz to render it as SVG)\n");
    }

    // A few replays profiled: their timeline, and the graph coloured by each node's mean time.
    namespace sycl_encore = sycl::ext::encore;
    if (!sycl_encore::profiling_active()) { // ENCORE_PROFILE records the whole run instead
        sycl_encore::start_profiling();
        for (int i = 0; i < 20; ++i)
            last = q.ext_oneapi_graph(exec);
        q.wait_and_throw();
        const sycl_encore::profile profile = sycl_encore::stop_profiling();
        const std::string trace = o.out + "-trace.json", timed_dot = o.out + "-timed.dot",
                          timed_svg = o.out + "-timed.svg";
        profile.write(trace);
        profile.print_timed_graph(g, timed_dot);
        std::printf("20 replays profiled: timeline in %s (open it in ui.perfetto.dev), node times in %s",
                    trace.c_str(), timed_dot.c_str());
        if (sycl_encore::graphviz_available()) {
            sycl_encore::render_svg(timed_dot, timed_svg);
            std::printf(" and %s\n", timed_svg.c_str());
        } else {
            std::printf("\n");
        }
        wrong += !matches(s, expected);
    }

    for (float* p : {s.x, s.y, s.result, s.mean}) sycl::free(p, q);
    return wrong == 0 ? 0 : 1;
} catch (const std::exception& e) {
    std::fprintf(stderr, "encore_demo: %s\n", e.what());
    return 2;
}
