// multi_gpu_stencil — one graph over two GPUs (docs/multi-device.md) against the same problem on one GPU, and a
// peer copy node against cuMemcpyPeerAsync, in one run.
//
//   stencil:   Jacobi sweeps (5-point average) of a rows x width float grid, `steps` sweeps per graph, the graph
//              replayed. One GPU: one kernel node per sweep over the whole grid. Two GPUs: each holds half the
//              rows plus one halo row on each side; per sweep a kernel node on each GPU, then two peer copies
//              of one row each (the rows next to the cut, into the other GPU's halo), each after both kernels.
//              Both results are compared element for element (the same arithmetic in the same order: equal).
//              Reported: ms per sweep (median of the replays) and one GPU's time over two GPUs' (target >= 1.8).
//   peer_copy: a graph with one memcpy node of `bytes` from GPU 0's memory to GPU 1's (made by GPU 1), replayed,
//              against cuMemcpyPeerAsync of the same bytes on a stream of GPU 1; GB/s of each, median of rounds
//              (target: the node >= 90 % of cuMemcpyPeerAsync).
//
//   multi_gpu_stencil [--json] [--small]   --small: a grid of 1024 x 512 (a quick check)
// Needs two CUDA GPUs: with fewer it says so and exits 77.
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "encore/backends/cuda/cuda_module.hpp"
#include "encore/runtime/runtime.hpp"
#include "timing.hpp"

namespace {

using bench::check;

// Rows 1 .. rows of `in` (row 0 and row rows + 1 are halos or the grid's fixed boundary) into `out`; the first
// and last column are fixed too. One work-item per element of those rows.
constexpr const char* stencil_source = R"(
extern "C" __global__ void jacobi(const float* in, float* out, unsigned width) {
    const unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    const unsigned long long row = i / width + 1, col = i % width;
    const unsigned long long at = row * width + col;
    if (col == 0 || col == width - 1) { out[at] = in[at]; return; }
    out[at] = 0.25f * (in[at - width] + in[at + width] + in[at - 1] + in[at + 1]);
}
)";

struct grid_size {
    unsigned width;
    std::size_t rows; // interior rows of the whole grid (even)
};

// The initial grid, boundary rows included: (rows + 2) x width.
std::vector<float> initial(const grid_size& s) {
    std::vector<float> v((s.rows + 2) * s.width);
    for (std::size_t r = 0; r < s.rows + 2; ++r)
        for (unsigned c = 0; c < s.width; ++c)
            v[r * s.width + c] = (r == 0 || c == 0) ? 1.0f : static_cast<float>((r * 7 + c * 13) % 17) / 17.0f;
    return v;
}

encore::kernel_command sweep(const std::shared_ptr<const encore::kernel>& k, const float* in, float* out,
                             const grid_size& s, std::size_t rows) {
    return encore::kernel_command{
        k,
        {encore::kernel_argument::from_pointer(const_cast<float*>(in)), encore::kernel_argument::from_pointer(out),
         encore::kernel_argument::from_scalar(s.width)},
        encore::range(rows * s.width)};
}

struct timed {
    double ms_per_sweep = 0;
    std::vector<float> result;
};

// One launch to warm up, then the median over `replays` launches of the time per sweep, in ms.
double ms_per_sweep(encore::queue& q, encore::executable_graph& exec, int steps, int replays) {
    q.launch(exec).wait();
    std::vector<double> ms;
    for (int r = 0; r < replays; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        q.launch(exec).wait();
        ms.push_back(bench::seconds_since(t0) * 1e3 / steps);
    }
    return bench::median(ms);
}

// One GPU: `steps` sweeps per graph between two copies of the grid.
timed one_gpu(const encore::device& gpu, const std::shared_ptr<const encore::kernel>& k, const grid_size& s,
              int steps, int replays) {
    const std::size_t elements = (s.rows + 2) * s.width;
    float* a = encore::malloc_device<float>(elements, gpu);
    float* b = encore::malloc_device<float>(elements, gpu);
    encore::queue q(gpu, {.in_order = true});
    const auto start = initial(s);
    q.memcpy(a, start.data(), elements * sizeof(float));
    q.memcpy(b, start.data(), elements * sizeof(float)).wait();
    encore::graph g;
    encore::node last;
    for (int step = 0; step < steps; ++step) {
        const bool even = step % 2 == 0;
        auto n = sweep(k, even ? a : b, even ? b : a, s, s.rows);
        last = step == 0 ? g.add(std::move(n)) : g.add(std::move(n), {last});
    }
    encore::executable_graph exec(g, gpu);
    timed out{ms_per_sweep(q, exec, steps, replays), std::vector<float>(elements)};
    // replays + 1 launches of an even number of sweeps: the result is in `a` (steps even) or `b`.
    q.memcpy(out.result.data(), steps % 2 == 0 ? a : b, elements * sizeof(float)).wait();
    encore::free(a, gpu);
    encore::free(b, gpu);
    return out;
}

// Two GPUs, half the rows each, halos exchanged by peer copies after every sweep.
timed two_gpus(const encore::device& g0, const encore::device& g1, const std::shared_ptr<const encore::kernel>& k,
               const grid_size& s, int steps, int replays) {
    const std::size_t half = s.rows / 2, local = (half + 2) * s.width;
    const encore::device gpus[2] = {g0, g1};
    float* a[2];
    float* b[2];
    const auto start = initial(s);
    for (int d = 0; d < 2; ++d) {
        a[d] = encore::malloc_device<float>(local, gpus[d]);
        b[d] = encore::malloc_device<float>(local, gpus[d]);
        encore::queue q(gpus[d]);
        // GPU 0: global rows 0 .. half + 1; GPU 1: global rows half .. rows + 1.
        const float* from = start.data() + (d == 0 ? 0 : half) * s.width;
        q.memcpy(a[d], from, local * sizeof(float));
        q.memcpy(b[d], from, local * sizeof(float)).wait();
    }
    const std::size_t row_bytes = s.width * sizeof(float);
    encore::graph g;
    encore::node last[2];
    for (int step = 0; step < steps; ++step) {
        const bool even = step % 2 == 0;
        encore::node kernels[2];
        for (std::uint32_t d = 0; d < 2; ++d) {
            auto n = sweep(k, even ? a[d] : b[d], even ? b[d] : a[d], s, half);
            kernels[d] = step == 0 ? g.add(std::move(n)) : g.add(std::move(n), {last[d]});
            g.set_device_slot(kernels[d], d);
        }
        float* out0 = even ? b[0] : a[0];
        float* out1 = even ? b[1] : a[1];
        // GPU 0's last interior row into GPU 1's top halo; GPU 1's first interior row into GPU 0's bottom halo.
        auto to1 = g.add(encore::memcpy_command{out1, out0 + half * s.width, row_bytes}, {kernels[0], kernels[1]});
        g.set_device_slot(to1, 1);
        auto to0 = g.add(encore::memcpy_command{out0 + (half + 1) * s.width, out1 + s.width, row_bytes},
                         {kernels[0], kernels[1]});
        last[0] = to0;
        last[1] = to1;
    }
    encore::executable_graph exec(g, std::vector<encore::device>{g0, g1});
    encore::queue q(g0, {.in_order = true});
    timed out{ms_per_sweep(q, exec, steps, replays), std::vector<float>((s.rows + 2) * s.width)};
    for (int d = 0; d < 2; ++d) {
        encore::queue read(gpus[d]);
        std::vector<float> part(local);
        read.memcpy(part.data(), steps % 2 == 0 ? a[d] : b[d], local * sizeof(float)).wait();
        // GPU 0's rows 0 .. half, GPU 1's rows 1 .. half + 1 (global half + 1 .. rows + 1).
        if (d == 0)
            std::copy(part.begin(), part.begin() + static_cast<std::ptrdiff_t>((half + 1) * s.width),
                      out.result.begin());
        else
            std::copy(part.begin() + s.width, part.end(),
                      out.result.begin() + static_cast<std::ptrdiff_t>((half + 1) * s.width));
        encore::free(a[d], gpus[d]);
        encore::free(b[d], gpus[d]);
    }
    return out;
}

struct peer_result {
    double node_gbps = 0, raw_gbps = 0;
};

peer_result peer_copy(const encore::device& g0, const encore::device& g1, std::size_t bytes, int rounds) {
    char* src = static_cast<char*>(encore::malloc_device(bytes, g0));
    char* dst = static_cast<char*>(encore::malloc_device(bytes, g1));
    constexpr int copies = 10; // per round
    encore::graph g;
    encore::node last;
    for (int i = 0; i < copies; ++i) {
        last = i == 0 ? g.add(encore::memcpy_command{dst, src, bytes})
                      : g.add(encore::memcpy_command{dst, src, bytes}, {last});
        g.set_device_slot(last, 1);
    }
    encore::executable_graph exec(g, std::vector<encore::device>{g0, g1});
    encore::queue q(g1, {.in_order = true});
    q.launch(exec).wait();

    check(cuInit(0), "cuInit");
    CUdevice d0, d1;
    check(cuDeviceGet(&d0, static_cast<int>(g0.index())), "cuDeviceGet");
    check(cuDeviceGet(&d1, static_cast<int>(g1.index())), "cuDeviceGet");
    CUcontext c0, c1;
    check(cuDevicePrimaryCtxRetain(&c0, d0), "cuDevicePrimaryCtxRetain");
    check(cuDevicePrimaryCtxRetain(&c1, d1), "cuDevicePrimaryCtxRetain");
    check(cuCtxSetCurrent(c1), "cuCtxSetCurrent");
    CUstream stream;
    check(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    auto raw_round = [&] {
        for (int i = 0; i < copies; ++i)
            check(cuMemcpyPeerAsync(reinterpret_cast<CUdeviceptr>(dst), c1, reinterpret_cast<CUdeviceptr>(src), c0,
                                    bytes, stream),
                  "cuMemcpyPeerAsync");
        check(cuStreamSynchronize(stream), "cuStreamSynchronize");
    };
    raw_round();
    std::vector<double> node, raw;
    const double gigabytes = static_cast<double>(bytes) * copies / 1e9;
    for (int r = 0; r < rounds; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        q.launch(exec).wait();
        node.push_back(gigabytes / bench::seconds_since(t0));
        t0 = std::chrono::steady_clock::now();
        raw_round();
        raw.push_back(gigabytes / bench::seconds_since(t0));
    }
    check(cuStreamDestroy(stream), "cuStreamDestroy");
    check(cuDevicePrimaryCtxRelease(d0), "cuDevicePrimaryCtxRelease");
    check(cuDevicePrimaryCtxRelease(d1), "cuDevicePrimaryCtxRelease");
    encore::free(src, g0);
    encore::free(dst, g1);
    return {bench::median(node), bench::median(raw)};
}

} // namespace

int main(int argc, char** argv) {
    bool json = false, small = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--json") == 0)
            json = true;
        else if (std::strcmp(argv[i], "--small") == 0)
            small = true;
        else {
            std::fprintf(stderr, "usage: multi_gpu_stencil [--json] [--small]\n");
            return 2;
        }
    }
    std::vector<encore::device> gpus;
    for (const auto& d : encore::device::all())
        if (d.backend_name() == "cuda") gpus.push_back(d);
    if (gpus.size() < 2) {
        std::fprintf(stderr, "multi_gpu_stencil: needs two CUDA GPUs, this machine has %zu\n", gpus.size());
        return 77;
    }
    const auto module = encore::cuda::module::load(encore::cuda::build_program(stencil_source));
    const auto k = encore::cuda::get_kernel(module, "jacobi");

    const grid_size s = small ? grid_size{1024, 512} : grid_size{16384, 16384};
    const int steps = small ? 8 : 20, replays = small ? 3 : 7;
    const timed one = one_gpu(gpus[0], k, s, steps, replays);
    const timed two = two_gpus(gpus[0], gpus[1], k, s, steps, replays);
    std::size_t differ = 0;
    for (std::size_t i = 0; i < one.result.size(); ++i) differ += one.result[i] != two.result[i];
    const std::size_t peer_bytes = small ? (std::size_t{16} << 20) : (std::size_t{256} << 20);
    const peer_result peer = peer_copy(gpus[0], gpus[1], peer_bytes, small ? 3 : 7);

    const double speedup = one.ms_per_sweep / two.ms_per_sweep;
    const double peer_ratio = peer.node_gbps / peer.raw_gbps;
    if (json) {
        std::printf("{\"grid\": [%zu, %u], \"sweeps_per_graph\": %d, \"results_equal\": %s, "
                    "\"one_gpu_ms_per_sweep\": %.4f, \"two_gpus_ms_per_sweep\": %.4f, \"speedup\": %.3f, "
                    "\"peer_copy_bytes\": %zu, \"peer_node_gbps\": %.2f, \"raw_peer_gbps\": %.2f, "
                    "\"peer_ratio\": %.3f}\n",
                    s.rows + 2, s.width, steps, differ == 0 ? "true" : "false", one.ms_per_sweep,
                    two.ms_per_sweep, speedup, peer_bytes, peer.node_gbps, peer.raw_gbps, peer_ratio);
    } else {
        std::printf("Jacobi sweeps on a %zu x %u float grid, %d sweeps per graph, median of %d replays\n",
                    s.rows + 2, s.width, steps, replays);
        std::printf("  %-34s %10.4f ms per sweep\n", "one GPU (one kernel per sweep)", one.ms_per_sweep);
        std::printf("  %-34s %10.4f ms per sweep\n", "two GPUs (one graph, halo copies)", two.ms_per_sweep);
        std::printf("  %-34s %10.3f   (target >= 1.8)\n", "speedup, one / two", speedup);
        std::printf("  %-34s %10s\n", "results equal", differ == 0 ? "yes" : "NO");
        std::printf("Peer copy of %zu MiB, GPU 0 -> GPU 1, 10 per round\n", peer_bytes >> 20);
        std::printf("  %-34s %10.2f GB/s\n", "memcpy node in a graph", peer.node_gbps);
        std::printf("  %-34s %10.2f GB/s\n", "cuMemcpyPeerAsync", peer.raw_gbps);
        std::printf("  %-34s %10.3f   (target >= 0.9)\n", "ratio", peer_ratio);
    }
    return differ == 0 ? 0 : 1;
}
