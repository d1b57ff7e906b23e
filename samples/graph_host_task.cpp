// An explicit graph with a host task between two kernel groups: the first group squares blocks of a vector, the
// host task finds the largest value, the second group normalises every block by it. The graph is printed as DOT
// and rendered to SVG when Graphviz is installed.
//
//   graph_host_task [PREFIX]     writes PREFIX.dot and PREFIX.svg (default: graph-host-task)
#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace sycl_ext = sycl::ext::oneapi::experimental;

namespace {
const char* const sample_name = "graph_host_task";
}

int main(int argc, char** argv) try {
    const std::string prefix = argc > 1 ? argv[1] : "graph-host-task";
    constexpr std::size_t blocks = 4, per_block = 1000, n = blocks * per_block;
    sycl::queue q;
    float* v = sycl::malloc_shared<float>(n, q);
    float* largest = sycl::malloc_shared<float>(1, q);

    sycl_ext::command_graph g{q};
    std::vector<sycl_ext::node> first;
    for (std::size_t b = 0; b < blocks; ++b) {
        float* block = v + b * per_block;
        const float base = float(b * per_block);
        first.push_back(g.add([&](sycl::handler& h) {
            h.parallel_for<class square>(per_block, [=](sycl::id<1> i) {
                float x = base + float(i);
                block[i] = x * x;
            });
        }));
    }
    auto host = g.add([&](sycl::handler& h) { h.host_task([=] { *largest = *std::max_element(v, v + n); }); },
                      {sycl_ext::property::node::depends_on_all_leaves{}});
    for (std::size_t b = 0; b < blocks; ++b) {
        float* block = v + b * per_block;
        g.add([&](sycl::handler& h) {
            h.parallel_for<class normalise>(per_block, [=](sycl::id<1> i) { block[i] /= *largest; });
        }, {sycl_ext::property::node::depends_on(host)});
    }

    auto exec = g.finalize();
    q.ext_oneapi_graph(exec).wait();
    std::printf("%zu nodes; largest square %.0f; v[n-1] = %.3f, v[n/2] = %.3f\n", g.get_nodes().size(),
                double(*largest), double(v[n - 1]), double(v[n / 2]));

    g.print_graph(prefix + ".dot");
    std::printf("graph written to %s.dot", prefix.c_str());
    if (sycl::ext::encore::graphviz_available()) {
        sycl::ext::encore::render_svg(prefix + ".dot", prefix + ".svg");
        std::printf(" and %s.svg", prefix.c_str());
    }
    std::printf("\n");
    const bool ok = v[n - 1] == 1.0f && v[0] == 0.0f;
    sycl::free(v, q);
    sycl::free(largest, q);
    return ok ? 0 : 1;
} catch (const std::exception& e) { // sycl::exception included: say what failed instead of terminating
    std::fprintf(stderr, "%s failed: %s\n", sample_name, e.what());
    return 2;
}
