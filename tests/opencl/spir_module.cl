// The OpenCL C of the SPIR case's bitcode (opencl_spirv_test.cpp): tests/opencl/meson.build compiles it with
// clang 15 for spir64 (SPIR 1.2, for devices with cl_khr_spir). Global memory, work-group local memory with a
// barrier, and an atomic: what device code from a C++ compiler needs of such a device.
kernel void scale_and_index(global int* data, int factor) {
    size_t i = get_global_id(0);
    data[i] = data[i] * factor + (int)i;
}

// Each work-group sums its items through local memory and adds the sum to *total.
kernel void group_sum(global const int* data, local int* tile, global int* total) {
    const size_t l = get_local_id(0);
    tile[l] = data[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t width = get_local_size(0) / 2; width > 0; width /= 2) {
        if (l < width) tile[l] += tile[l + width];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) atomic_add(total, tile[0]);
}
