// opencl_replay — Encore's OpenCL backend against hand-written OpenCL, per node, on chains of 10, 100 and
// 1,000 small kernels and a fan-out/fan-in of 1,000 (root, 1,000 independent kernels, join):
//
//   (a) raw_command_buffer: the DAG recorded by hand into a cl_khr_command_buffer (sync points for the edges,
//                           the same queue kind Encore uses), finalized once, enqueued back to back, each
//                           launch waiting for the previous one's event (as replays of one graph do); null
//                           where the device has no command buffers (or only signatures this program was not
//                           built for)
//   (b) replay:             the DAG as an encore::graph, finalized for the OpenCL device, q.launch back to back
//                           (a command buffer, or a launch plan where the device has none)
//   (c) raw_eager:          clEnqueueNDRangeKernel per node on an out-of-order queue, each with its
//                           predecessors' events as its wait list
//   (d) eager:              q.submit per node on an out-of-order Encore queue, with its predecessors' events
//                           (both eager paths let go of a round's events after waiting for its last node)
//
// Every method runs the same kernel (`kernel void small(global int* p) { p[get_global_id(0)] += 1; }`, 64
// items) built by encore::opencl::build_program. Each round runs all methods in turn, (a) before (b) and (c)
// before (d) in even rounds, after them in odd ones; the median of the rounds is reported (default 6 rounds).
// ENCORE_OPENCL_COMMAND_BUFFERS=0 measures the launch-plan path on a device that has command buffers. The
// hand-written paths use the kind of memory Encore's device allocations are on that device
// (cl_intel_unified_shared_memory device memory where Encore uses it, else SVM); --raw-memory svm|usm picks one
// (a driver may run kernels on one kind faster than on the other). Usage: opencl_replay [--json] [--rounds N]
// [--raw-memory svm|usm]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "dag_shape.hpp"
#include "encore/backends/opencl/detail/api.hpp"
#include "encore/backends/opencl/detail/device_info.hpp"
#include "encore/backends/opencl/opencl_program.hpp"
#include "encore/runtime/runtime.hpp"
#include "timing.hpp"

namespace {

using bench::median;

namespace cl = encore::opencl::detail;

const char* kernel_source = "kernel void small(global int* p) { p[get_global_id(0)] += 1; }";
constexpr std::size_t items = 64;

using bench::chain;
using bench::fan_out_in;
using bench::now_ns;
using bench::shape;

// Hand-written OpenCL on a context of its own, as a program that used OpenCL directly would.
struct raw_opencl {
    const cl::api& f = cl::api::get();
    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
    cl::context_handle context;
    cl::queue_handle queue; // out-of-order where the device has it
    cl::program_handle program;
    cl::kernel_handle kernel;
    void* data = nullptr;
    bool usm = false; // data is cl_intel_unified_shared_memory device memory, else SVM
    clDeviceMemAllocINTEL_fn device_alloc = nullptr; // cl_intel_unified_shared_memory, where used
    clMemBlockingFreeINTEL_fn blocking_free = nullptr;
    clSetKernelArgMemPointerINTEL_fn set_pointer = nullptr;
    cl::device_capabilities caps;
    // cl_khr_command_buffer with the provisional (0.9.0 - 0.9.4) signatures this header declares.
    clCreateCommandBufferKHR_fn create = nullptr;
    clFinalizeCommandBufferKHR_fn finalize = nullptr;
    clReleaseCommandBufferKHR_fn release = nullptr;
    clEnqueueCommandBufferKHR_fn enqueue = nullptr;
    clCommandNDRangeKernelKHR_fn ndrange = nullptr;

    // memory: "svm", "usm", or empty for the kind Encore's device allocations are.
    raw_opencl(const encore::device& d, const encore::opencl::program_binary& binary, const std::string& memory) {
        std::string why;
        auto all = cl::enumerate_devices(why);
        platform = all.at(d.index()).platform;
        device = all.at(d.index()).device;
        caps = cl::query_capabilities(device);
        const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM,
                                                    reinterpret_cast<cl_context_properties>(platform), 0};
        cl_int r = CL_SUCCESS;
        context = cl::context_handle(f.clCreateContext(properties, 1, &device, nullptr, nullptr, &r));
        cl::check(r, "clCreateContext");
        const cl_queue_properties qp[] = {
            CL_QUEUE_PROPERTIES,
            caps.out_of_order ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : cl_queue_properties{0}, 0};
        queue = cl::queue_handle(f.clCreateCommandQueueWithProperties(context.get(), device, qp, &r));
        cl::check(r, "clCreateCommandQueueWithProperties");
        const unsigned char* bytes = binary.bytes.data();
        const std::size_t size = binary.bytes.size();
        program = cl::program_handle(
            f.clCreateProgramWithBinary(context.get(), 1, &device, &size, &bytes, nullptr, &r));
        cl::check(r, "clCreateProgramWithBinary");
        cl::check(f.clBuildProgram(program.get(), 1, &device, "", nullptr, nullptr), "clBuildProgram");
        kernel = cl::kernel_handle(f.clCreateKernel(program.get(), "small", &r));
        cl::check(r, "clCreateKernel");
        usm = memory == "usm" || (memory.empty() && caps.usm == cl::usm_mode::intel);
        if (usm) {
            auto get = [&](const char* name) {
                return f.clGetExtensionFunctionAddressForPlatform(platform, name);
            };
            device_alloc = reinterpret_cast<clDeviceMemAllocINTEL_fn>(get("clDeviceMemAllocINTEL"));
            blocking_free = reinterpret_cast<clMemBlockingFreeINTEL_fn>(get("clMemBlockingFreeINTEL"));
            set_pointer = reinterpret_cast<clSetKernelArgMemPointerINTEL_fn>(get("clSetKernelArgMemPointerINTEL"));
            if (!device_alloc || !blocking_free || !set_pointer)
                throw encore::error(encore::errc::feature_not_supported,
                                    "opencl_replay: --raw-memory usm needs cl_intel_unified_shared_memory");
            data = device_alloc(context.get(), device, nullptr, items * sizeof(int), 0, &r);
            cl::check(r, "clDeviceMemAllocINTEL");
            cl::check(set_pointer(kernel.get(), 0, data), "clSetKernelArgMemPointerINTEL");
        } else {
            data = f.clSVMAlloc(context.get(), CL_MEM_READ_WRITE, items * sizeof(int), 0);
            if (!data)
                throw encore::error(encore::errc::feature_not_supported, "opencl_replay: clSVMAlloc failed");
            cl::check(f.clSetKernelArgSVMPointer(kernel.get(), 0, data), "clSetKernelArgSVMPointer");
        }
        if (caps.command_buffer && caps.command_buffer < CL_MAKE_VERSION(0, 9, 5)) {
            auto get = [&](const char* name) {
                return f.clGetExtensionFunctionAddressForPlatform(platform, name);
            };
            create = reinterpret_cast<clCreateCommandBufferKHR_fn>(get("clCreateCommandBufferKHR"));
            finalize = reinterpret_cast<clFinalizeCommandBufferKHR_fn>(get("clFinalizeCommandBufferKHR"));
            release = reinterpret_cast<clReleaseCommandBufferKHR_fn>(get("clReleaseCommandBufferKHR"));
            enqueue = reinterpret_cast<clEnqueueCommandBufferKHR_fn>(get("clEnqueueCommandBufferKHR"));
            ndrange = reinterpret_cast<clCommandNDRangeKernelKHR_fn>(get("clCommandNDRangeKernelKHR"));
        }
    }
    ~raw_opencl() {
        f.clFinish(queue.get());
        if (usm)
            blocking_free(context.get(), data);
        else
            f.clSVMFree(context.get(), data);
    }
    bool has_command_buffers() const { return create && finalize && release && enqueue && ndrange; }

    // (a): one command buffer of the DAG, enqueued `reps` times back to back.
    double command_buffer(const shape& s, int reps) {
        cl_int r = CL_SUCCESS;
        cl_command_queue q = queue.get();
        const bool simultaneous =
            caps.command_buffer_capabilities & CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR;
        const cl_command_buffer_properties_khr props[] = {CL_COMMAND_BUFFER_FLAGS_KHR,
                                                          CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR, 0};
        cl_command_buffer_khr cb = create(1, &q, simultaneous ? props : nullptr, &r);
        cl::check(r, "clCreateCommandBufferKHR");
        std::vector<cl_sync_point_khr> sync(s.predecessors.size());
        std::vector<cl_sync_point_khr> waits;
        for (std::size_t i = 0; i < s.predecessors.size(); ++i) {
            waits.clear();
            for (int p : s.predecessors[i])
                waits.push_back(sync[static_cast<std::size_t>(p)]);
            cl::check(ndrange(cb, nullptr, nullptr, kernel.get(), 1, nullptr, &items, nullptr,
                              static_cast<cl_uint>(waits.size()), waits.empty() ? nullptr : waits.data(),
                              &sync[i], nullptr),
                      "clCommandNDRangeKernelKHR");
        }
        cl::check(finalize(cb), "clFinalizeCommandBufferKHR");
        // Each launch after the one before, as replays of one graph are (Encore's runtime does the same).
        cl_event previous = nullptr;
        const double start = now_ns();
        for (int i = 0; i < reps; ++i) {
            if (!simultaneous && previous) f.clWaitForEvents(1, &previous);
            cl_event launched = nullptr;
            cl::check(enqueue(0, nullptr, cb, previous ? 1 : 0, previous ? &previous : nullptr, &launched),
                      "clEnqueueCommandBufferKHR");
            if (previous) f.clReleaseEvent(previous);
            previous = launched;
        }
        f.clWaitForEvents(1, &previous);
        f.clReleaseEvent(previous);
        f.clFinish(q);
        const double elapsed = now_ns() - start;
        release(cb);
        return elapsed;
    }

    // (c): one enqueue per node with its predecessors' events.
    double eager(const shape& s, int reps) {
        std::vector<cl_event> events(s.predecessors.size());
        std::vector<cl_event> waits;
        const double start = now_ns();
        for (int rep = 0; rep < reps; ++rep) {
            for (std::size_t i = 0; i < s.predecessors.size(); ++i) {
                waits.clear();
                for (int p : s.predecessors[i])
                    waits.push_back(events[static_cast<std::size_t>(p)]);
                cl::check(f.clEnqueueNDRangeKernel(queue.get(), kernel.get(), 1, nullptr, &items, nullptr,
                                                   static_cast<cl_uint>(waits.size()),
                                                   waits.empty() ? nullptr : waits.data(), &events[i]),
                          "clEnqueueNDRangeKernel");
            }
            f.clFlush(queue.get());
            f.clWaitForEvents(1, &events.back());
            for (cl_event e : events)
                f.clReleaseEvent(e);
        }
        f.clFinish(queue.get());
        return now_ns() - start;
    }
};

struct result {
    std::string device, shape;
    const char* raw_memory = "svm"; // what the hand-written paths ran on
    int nodes = 0;
    double raw_command_buffer = -1, replay = 0, raw_eager = 0, eager = 0;
};

int run(int argc, char** argv) {
    bool json = false;
    int rounds = 6;
    std::string raw_memory; // empty: the kind Encore's device allocations are
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--json") == 0)
            json = true;
        else if (std::strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = std::max(1, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--raw-memory") == 0 && i + 1 < argc &&
                 (std::strcmp(argv[i + 1], "svm") == 0 || std::strcmp(argv[i + 1], "usm") == 0))
            raw_memory = argv[++i];
        else {
            std::fprintf(stderr, "usage: %s [--json] [--rounds N] [--raw-memory svm|usm]\n", argv[0]);
            return 2;
        }
    }
    std::vector<encore::device> devices;
    for (const auto& d : encore::device::all())
        if (d.backend_name() == "opencl") devices.push_back(d);
    if (devices.empty()) {
        std::fprintf(stderr, "opencl_replay: no OpenCL device (ENCORE_TRACE=1 says why)\n");
        return 77;
    }
    std::vector<result> results;
    for (const auto& d : devices) {
        const auto binary =
            encore::opencl::build_program(d, encore::opencl::program_source::opencl_c(kernel_source));
        const auto program = encore::opencl::program::load(binary);
        const auto small = encore::opencl::get_kernel(program, "small");
        raw_opencl raw(d, binary, raw_memory);
        encore::queue q(d);
        int* data = static_cast<int*>(encore::malloc(items * sizeof(int), d, encore::memory_kind::device));
        const encore::kernel_command command{
            small, {encore::kernel_argument::from_pointer(data)}, encore::range(items)};
        for (const shape& s : {chain(10), chain(100), chain(1000), fan_out_in(1000)}) {
            const int nodes = static_cast<int>(s.predecessors.size());
            const int reps = std::max(3, 3000 / nodes);
            encore::graph g;
            std::vector<encore::node> made;
            for (const auto& preds : s.predecessors) {
                std::vector<encore::node> after;
                for (int p : preds)
                    after.push_back(made[static_cast<std::size_t>(p)]);
                made.push_back(g.add(command, after));
            }
            encore::executable_graph exec(g, d);
            q.launch(exec).wait(); // warm up every path once
            std::vector<double> a, b, c, e;
            auto encore_eager = [&] {
                std::vector<encore::event> events(s.predecessors.size());
                std::vector<encore::event> after;
                const double start = now_ns();
                for (int rep = 0; rep < reps; ++rep) {
                    for (std::size_t i = 0; i < s.predecessors.size(); ++i) {
                        after.clear();
                        for (int p : s.predecessors[i])
                            after.push_back(events[static_cast<std::size_t>(p)]);
                        events[i] = q.submit(command, encore::event_list(after));
                    }
                    events.back().wait();
                    std::fill(events.begin(), events.end(), encore::event{}); // dropped where (c) releases its own
                }
                q.wait();
                return now_ns() - start;
            };
            raw.eager(s, 1);
            encore_eager();
            auto replay = [&] {
                const double start = now_ns();
                for (int rep = 0; rep < reps; ++rep)
                    q.launch(exec);
                q.wait();
                return now_ns() - start;
            };
            for (int round = 0; round < rounds; ++round) {
                // Each pair in both orders, alternating (A B, B A, ...): a drift within a round (PoCL's command
                // buffer launches on the H100 host get slower as a run goes on) favours neither side.
                const bool encore_first = round % 2 == 1;
                if (encore_first) b.push_back(replay());
                if (raw.has_command_buffers()) a.push_back(raw.command_buffer(s, reps));
                if (!encore_first) b.push_back(replay());
                if (encore_first) e.push_back(encore_eager());
                c.push_back(raw.eager(s, reps));
                if (!encore_first) e.push_back(encore_eager());
            }
            const double per = static_cast<double>(reps) * nodes;
            result r{d.properties().name, s.name, raw.usm ? "usm" : "svm", nodes};
            if (!a.empty()) r.raw_command_buffer = median(a) / per;
            r.replay = median(b) / per;
            r.raw_eager = median(c) / per;
            r.eager = median(e) / per;
            results.push_back(r);
        }
        encore::free(data, d);
    }
    if (json) {
        std::printf("{\"results\": [");
        for (std::size_t i = 0; i < results.size(); ++i) {
            const auto& r = results[i];
            char raw_cb[32] = "null";
            if (r.raw_command_buffer >= 0) std::snprintf(raw_cb, sizeof raw_cb, "%.1f", r.raw_command_buffer);
            std::printf("%s{\"device\": \"%s\", \"shape\": \"%s\", \"nodes\": %d, "
                        "\"raw_command_buffer_ns_per_node\": "
                        "%s, \"replay_ns_per_node\": %.1f, \"raw_eager_ns_per_node\": %.1f, "
                        "\"eager_ns_per_node\": %.1f}",
                        i ? ", " : "", r.device.c_str(), r.shape.c_str(), r.nodes, raw_cb, r.replay,
                        r.raw_eager, r.eager);
        }
        std::printf("]}\n");
        return 0;
    }
    std::printf("%-28s %-11s %6s %12s %10s %10s %10s %8s %8s\n", "device", "shape", "nodes", "raw_cb ns",
                "replay ns", "raw_eager", "eager ns", "(b)/(a)", "(d)/(c)");
    for (const auto& r : results) {
        char ab[16] = "-";
        char cb[16] = "-";
        if (r.raw_command_buffer > 0) {
            std::snprintf(ab, sizeof ab, "%.2f", r.replay / r.raw_command_buffer);
            std::snprintf(cb, sizeof cb, "%.0f", r.raw_command_buffer);
        }
        std::printf("%-28.28s %-11s %6d %12s %10.0f %10.0f %10.0f %8s %8.2f\n", r.device.c_str(),
                    r.shape.c_str(), r.nodes, cb, r.replay, r.raw_eager, r.eager, ab, r.eager / r.raw_eager);
    }
    std::printf("(b)/(c) (replay against raw eager): ");
    for (const auto& r : results)
        std::printf("%s %d: %.2f  ", r.shape.c_str(), r.nodes, r.replay / r.raw_eager);
    std::printf("\nhand-written paths' memory (Encore: its device allocations): ");
    for (std::size_t i = 0; i < results.size(); i += 4)
        std::printf("%s: %s  ", results[i].device.c_str(), results[i].raw_memory);
    std::printf("\n");
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "opencl_replay: %s\n", e.what());
        return 1;
    }
}
