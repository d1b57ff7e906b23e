// Whole-graph update: a graph that scales one buffer into another is finalized once; a second graph of the same
// shape reads another input buffer, and update() moves the executable graph over to it without finalizing again.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <vector>

namespace sycl_ext = sycl::ext::oneapi::experimental;

namespace {
// The same two nodes for any input: copy the input into `work`, then double it in place.
sycl_ext::command_graph<sycl_ext::graph_state::modifiable> build(sycl::queue& q, sycl::buffer<int>& input,
                                                                  sycl::buffer<int>& work) {
    sycl_ext::command_graph g{q.get_context(), q.get_device(), {sycl_ext::property::graph::assume_buffer_outlives_graph{}}};
    g.add([&](sycl::handler& h) {
        sycl::accessor in{input, h, sycl::read_only};
        sycl::accessor out{work, h, sycl::write_only, sycl::no_init};
        h.copy(in, out);
    });
    g.add([&](sycl::handler& h) {
        sycl::accessor out{work, h, sycl::read_write};
        h.parallel_for(work.size(), [=](sycl::id<1> i) { out[i] *= 2; });
    });
    return g;
}
} // namespace

namespace {
const char* const sample_name = "graph_whole_update";
}

int main() try {
    sycl::queue q;
    std::vector<int> ones(8, 1), tens(8, 10);
    sycl::buffer<int> a{ones}, b{tens}, work{sycl::range<1>{8}};

    auto from_a = build(q, a, work);
    auto exec = from_a.finalize({sycl_ext::property::graph::updatable{}});
    q.ext_oneapi_graph(exec);
    int first = sycl::host_accessor{work, sycl::read_only}[0];

    auto from_b = build(q, b, work);
    exec.update(from_b); // same topology: the commands of from_b replace those of from_a
    q.ext_oneapi_graph(exec);
    int second = sycl::host_accessor{work, sycl::read_only}[0];

    std::printf("before the update: %d; after it: %d\n", first, second);
    return first == 2 && second == 20 ? 0 : 1;
} catch (const std::exception& e) { // sycl::exception included: say what failed instead of terminating
    std::fprintf(stderr, "%s failed: %s\n", sample_name, e.what());
    return 2;
}
