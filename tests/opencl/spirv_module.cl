// The OpenCL C of the SPIR-V cases' module (opencl_error_test.cpp): tests/opencl/meson.build compiles it to SPIR-V
// with clang 15 and llvm-spirv 15.
kernel void scale_and_index(global int* data, int factor) {
    size_t i = get_global_id(0);
    data[i] = data[i] * factor + (int)i;
}
