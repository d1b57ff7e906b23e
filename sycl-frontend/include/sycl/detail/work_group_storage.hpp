// Work-group local memory that a kernel names by an object of static storage instead of a local accessor:
// work_group_static variables and group_local_memory's call sites (sycl/ext/oneapi/work_group_static.hpp,
// group_local_memory.hpp).
//
// On a CUDA device each is a __shared__ variable (encore-outliner declares work_group_static variables
// __shared__; group_local_memory keeps one per call site). On the native backend a worker thread runs one work-group
// at a time, its items as fibers of the thread, so the thread keeps one block per object: the work-group running
// there reads and writes it. Like local memory on a GPU, the block's contents are indeterminate when a work-group
// starts (a previous group's values stay).
#pragma once

#include <cstddef>

namespace sycl {
inline namespace _V1 {
namespace detail {

// This thread's block for the object at `key` (`bytes` bytes aligned to `alignment`), made on first use.
void* work_group_storage(const void* key, std::size_t bytes, std::size_t alignment);

} // namespace detail
} // namespace _V1
} // namespace sycl
