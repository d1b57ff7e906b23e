// The code examples of the sycl_ext_oneapi_graph usage guide (dot product, diamond dependency, dynamic parameter
// update, whole-graph update), translated into tests that check what the examples compute.
#include <doctest/doctest.h>

#include <sycl/sycl.hpp>

#include <vector>

#include "encore/runtime/kernel_function.hpp"

namespace sycl_ext = sycl::ext::oneapi::experimental;

TEST_CASE("usage guide: dot product with the explicit API") {
    const std::size_t n = 10;
    const float alpha = 1.0f, beta = 2.0f, gamma = 3.0f;
    sycl::queue q;
    sycl_ext::command_graph g(q.get_context(), q.get_device());
    float* dotp = sycl::malloc_shared<float>(1, q);
    float* x = sycl::malloc_device<float>(n, q);
    float* y = sycl::malloc_device<float>(n, q);
    float* z = sycl::malloc_device<float>(n, q);
    *dotp = 0.0f;

    auto node_i = g.add([&](sycl::handler& h) {
        h.parallel_for(n, [=](sycl::id<1> it) {
            const std::size_t i = it[0];
            x[i] = 1.0f;
            y[i] = 2.0f;
            z[i] = 3.0f;
        });
    });
    auto node_a = g.add([&](sycl::handler& h) {
        h.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> it) { x[it[0]] = alpha * x[it[0]] + beta * y[it[0]]; });
    }, {sycl_ext::property::node::depends_on(node_i)});
    auto node_b = g.add([&](sycl::handler& h) {
        h.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> it) { z[it[0]] = gamma * z[it[0]] + beta * y[it[0]]; });
    }, {sycl_ext::property::node::depends_on(node_i)});
    auto node_c = g.add([&](sycl::handler& h) {
        h.single_task([=]() {
            for (std::size_t i = 0; i < n; i++) *dotp += x[i] * z[i];
        });
    }, {sycl_ext::property::node::depends_on(node_a, node_b)});
    CHECK(node_c.get_predecessors().size() == 2);

    auto exec = g.finalize();
    q.ext_oneapi_graph(exec).wait();
    CHECK(*dotp == doctest::Approx(n * (1.0f + 2.0f * 2.0f) * (3.0f * 3.0f + 2.0f * 2.0f)));
    sycl::free(x, q);
    sycl::free(y, q);
    sycl::free(z, q);
    sycl::free(dotp, q);
}

TEST_CASE("usage guide: diamond dependency recorded with buffers") {
    const std::size_t elements = 128;
    std::vector<int> dataA(elements, 10), dataB(elements, 100), dataC(elements, 1000);
    sycl::queue q{sycl::default_selector_v};
    sycl::buffer<int> bufferA{dataA.data(), sycl::range<1>{elements}};
    bufferA.set_write_back(false);
    sycl::buffer<int> bufferB{dataB.data(), sycl::range<1>{elements}};
    bufferB.set_write_back(false);
    sycl::buffer<int> bufferC{dataC.data(), sycl::range<1>{elements}};
    bufferC.set_write_back(false);
    {
        sycl_ext::command_graph graph(q.get_context(), q.get_device(),
                                      {sycl_ext::property::graph::assume_buffer_outlives_graph{}});
        graph.begin_recording(q);
        q.submit([&](sycl::handler& cgh) {
            auto pData = bufferA.get_access<sycl::access::mode::read_write>(cgh);
            cgh.parallel_for<class increment_kernel>(sycl::range<1>(elements), [=](sycl::item<1> id) { pData[id]++; });
        });
        q.submit([&](sycl::handler& cgh) {
            auto pData1 = bufferA.get_access<sycl::access::mode::read>(cgh);
            auto pData2 = bufferB.get_access<sycl::access::mode::read_write>(cgh);
            cgh.parallel_for<class add_kernel>(sycl::range<1>(elements),
                                               [=](sycl::item<1> id) { pData2[id] += pData1[id]; });
        });
        q.submit([&](sycl::handler& cgh) {
            auto pData1 = bufferA.get_access<sycl::access::mode::read>(cgh);
            auto pData2 = bufferC.get_access<sycl::access::mode::read_write>(cgh);
            cgh.parallel_for<class subtract_kernel>(sycl::range<1>(elements),
                                                    [=](sycl::item<1> id) { pData2[id] -= pData1[id]; });
        });
        q.submit([&](sycl::handler& cgh) {
            auto pData1 = bufferB.get_access<sycl::access::mode::read_write>(cgh);
            auto pData2 = bufferC.get_access<sycl::access::mode::read_write>(cgh);
            cgh.parallel_for<class decrement_kernel>(sycl::range<1>(elements), [=](sycl::item<1> id) {
                pData1[id]--;
                pData2[id]--;
            });
        });
        graph.end_recording();

        auto nodes = graph.get_nodes();
        REQUIRE(nodes.size() == 4);
        CHECK(graph.get_root_nodes() == std::vector{nodes[0]});
        CHECK(nodes[3].get_predecessors() == std::vector{nodes[1], nodes[2]});

        auto exec_graph = graph.finalize();
        q.submit([&](sycl::handler& cgh) { cgh.ext_oneapi_graph(exec_graph); }).wait();
    }
    sycl::host_accessor hostAccA(bufferA);
    sycl::host_accessor hostAccB(bufferB);
    sycl::host_accessor hostAccC(bufferC);
    CHECK(hostAccA[5] == 11);
    CHECK(hostAccB[5] == 110);  // 100 + 11 - 1
    CHECK(hostAccC[5] == 988);  // 1000 - 11 - 1
    CHECK(dataA[5] == 10);      // write-back was switched off
}

TEST_CASE("usage guide: dynamic parameter update through set_args") {
    sycl::queue myQueue;
    auto myContext = myQueue.get_context();
    auto myDevice = myQueue.get_device();
    const std::size_t n = 1024;
    int* ptrX = sycl::malloc_shared<int>(n, myQueue);
    int* ptrY = sycl::malloc_device<int>(n, myQueue);
    int* ptrZ = sycl::malloc_shared<int>(n, myQueue);
    for (std::size_t i = 0; i < n; ++i) ptrX[i] = ptrZ[i] = 1;

    // The guide loads a built-in kernel from a kernel bundle; Encore's kernel object here: x[i] = x[i] * s; y[i] = x[i].
    sycl::kernel builtinKernel = sycl::ext::encore::make_kernel(encore::make_kernel(
        "scale_and_copy", [](const encore::work_item& it, std::span<const encore::kernel_argument> args) {
            auto i = it.global_id[0];
            auto* x = static_cast<int*>(args[0].pointer());
            x[i] *= args[2].scalar<int>();
            static_cast<int*>(args[1].pointer())[i] = x[i];
        }));

    sycl_ext::command_graph myGraph(myContext, myDevice);
    int myScalar = 42;
    sycl_ext::dynamic_parameter dynParamInput(myGraph, ptrX);
    sycl_ext::dynamic_parameter dynParamScalar(myGraph, myScalar);
    sycl_ext::node kernelNode = myGraph.add([&](sycl::handler& cgh) {
        cgh.set_args(dynParamInput, ptrY, dynParamScalar);
        cgh.parallel_for(sycl::range{n}, builtinKernel);
    });
    auto execGraph = myGraph.finalize({sycl_ext::property::graph::updatable{}});
    myQueue.ext_oneapi_graph(execGraph);

    dynParamInput.update(ptrZ);
    int newScalar = 12;
    dynParamScalar.update(newScalar);
    execGraph.update(kernelNode); // waits for the launch in flight before changing the node
    myQueue.ext_oneapi_graph(execGraph);
    myQueue.wait();
    CHECK(ptrX[7] == 42);
    CHECK(ptrZ[7] == 12);
    sycl::free(ptrX, myQueue);
    sycl::free(ptrY, myQueue);
    sycl::free(ptrZ, myQueue);
}

namespace {
// The guide's run_kernels: three dependent kernels on one input.
void run_kernels(int* inputPtr, int* outputPtr, std::size_t n, sycl::queue syclQueue) {
    sycl::event eventA = syclQueue.submit([&](sycl::handler& CGH) {
        CGH.parallel_for(n, [=](sycl::id<1> i) { outputPtr[i] = inputPtr[i]; });
    });
    sycl::event eventB = syclQueue.submit([&](sycl::handler& CGH) {
        CGH.depends_on(eventA);
        CGH.parallel_for(n, [=](sycl::id<1> i) { outputPtr[i] *= 2; });
    });
    syclQueue.submit([&](sycl::handler& CGH) {
        CGH.depends_on(eventB);
        CGH.parallel_for(n, [=](sycl::id<1> i) { outputPtr[i] += 1; });
    });
}
} // namespace

TEST_CASE("usage guide: whole-graph update of recorded graphs") {
    sycl::queue myQueue;
    const std::size_t n = 1024;
    int* ptrA = sycl::malloc_shared<int>(n, myQueue);
    int* ptrB = sycl::malloc_shared<int>(n, myQueue);
    int* out = sycl::malloc_shared<int>(n, myQueue);
    for (std::size_t i = 0; i < n; ++i) {
        ptrA[i] = 1;
        ptrB[i] = 7;
    }
    sycl_ext::command_graph mainGraph(myQueue.get_context(), myQueue.get_device());
    mainGraph.begin_recording(myQueue);
    run_kernels(ptrA, out, n, myQueue);
    mainGraph.end_recording();
    sycl_ext::command_graph updateGraph(myQueue.get_context(), myQueue.get_device());
    updateGraph.begin_recording(myQueue);
    run_kernels(ptrB, out, n, myQueue);
    updateGraph.end_recording();

    auto execMain = mainGraph.finalize({sycl_ext::property::graph::updatable{}});
    myQueue.ext_oneapi_graph(execMain).wait();
    CHECK(out[0] == 3);
    execMain.update(updateGraph);
    myQueue.ext_oneapi_graph(execMain).wait();
    CHECK(out[0] == 15);
    sycl::free(ptrA, myQueue);
    sycl::free(ptrB, myQueue);
    sycl::free(out, myQueue);
}
