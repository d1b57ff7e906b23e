// A Jacobi solver for a 1-D Poisson problem (-u'' = f, u = 0 at both ends): one iteration is recorded from a queue
// into a graph, then the graph is replayed until the residual is small. The recorded iteration: two sweeps (the
// second swaps the roles of the arrays, so the graph ends where it began) and a residual reduction.
#include <sycl/sycl.hpp>

#include <cmath>
#include <cstdio>

namespace sycl_ext = sycl::ext::oneapi::experimental;

namespace {
const char* const sample_name = "graph_iterative_solver";
}

int main() try {
    constexpr std::size_t n = 64;
    constexpr float h2 = 1.0f / float((n + 1) * (n + 1));
    sycl::queue q{sycl::property::queue::in_order{}};
    float* u = sycl::malloc_shared<float>(n, q);
    float* next = sycl::malloc_shared<float>(n, q);
    float* residual = sycl::malloc_shared<float>(1, q);
    q.fill(u, 0.0f, n);
    q.fill(next, 0.0f, n);
    q.wait(); // an out-of-order queue: wait for both fills, not only the last

    auto sweep = [&](const float* from, float* to) {
        q.parallel_for(n, [=](sycl::id<1> i) {
            float left = i > 0 ? from[i - 1] : 0.0f, right = i + 1 < n ? from[i + 1] : 0.0f;
            to[i] = 0.5f * (left + right + h2 * 1.0f); // f = 1
        });
    };

    sycl_ext::command_graph g{q};
    g.begin_recording(q);
    sweep(u, next);
    sweep(next, u);
    q.parallel_for(n, sycl::reduction(residual, sycl::maximum<float>(), {sycl::property::reduction::initialize_to_identity{}}),
                   [=](sycl::id<1> i, auto& r) { r.combine(std::fabs(u[i] - next[i])); });
    g.end_recording();
    auto iteration = g.finalize();

    int iterations = 0;
    const int check_every = 100;
    do {
        for (int i = 0; i < check_every; ++i) q.ext_oneapi_graph(iteration);
        q.wait();
        iterations += check_every;
    } while (*residual > 1e-7f && iterations < 100000);

    // The exact solution is u(x) = x (1 - x) / 2; compare at the midpoint.
    const float x = float(n / 2 + 1) / float(n + 1);
    const float exact = 0.5f * x * (1 - x);
    std::printf("%d graph replays (%zu nodes each: two sweeps and a residual): residual %.3g, u(%.3f) = %.6f, exact %.6f\n",
                iterations, g.get_nodes().size(), double(*residual), double(x), double(u[n / 2]),
                double(exact));
    const bool ok = std::fabs(u[n / 2] - exact) < 1e-4f;
    sycl::free(u, q);
    sycl::free(next, q);
    sycl::free(residual, q);
    return ok ? 0 : 1;
} catch (const std::exception& e) { // sycl::exception included: say what failed instead of terminating
    std::fprintf(stderr, "%s failed: %s\n", sample_name, e.what());
    return 2;
}
