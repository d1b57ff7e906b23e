// The GPU backends' built-in kernels, valid CUDA C++ and HIP C++ alike. The CUDA plugin embeds them compiled to
// PTX at build time (backends/cuda/meson.build: it needs neither nvcc nor NVRTC at run time); the HIP plugin
// embeds this source and compiles it with hiprtc for the device's architecture the first time a fill needs it.

struct encore_fill_pattern {
    unsigned char bytes[256];
};

// Writes copies of a pattern of `pattern_bytes` bytes over `total_bytes` bytes from `destination`: fills with
// patterns the memset nodes cannot express (wider than 4 bytes, or unaligned), and memsets of pinned host
// memory. A grid-stride loop, one byte per thread and step.
extern "C" __global__ void encore_fill(unsigned char* destination, unsigned long long total_bytes,
                                       unsigned int pattern_bytes, encore_fill_pattern pattern) {
    const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
    for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
         i < total_bytes; i += stride)
        destination[i] = pattern.bytes[i % pattern_bytes];
}
