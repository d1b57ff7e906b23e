// How the native backend carries out one command on the calling thread: the body of every eager submission
// and of every node of a task list.
//
// Kernels run through run_kernel (in parallel when large). Memory commands work on host memory: every native
// allocation, of any kind, is host memory. Prefetch touches the cache lines of the range (up to 1 MiB: beyond
// that it would evict what it brought in); mem_advise passes POSIX madvise advice (MADV_NORMAL, MADV_RANDOM,
// MADV_SEQUENTIAL, MADV_WILLNEED; not MADV_DONTNEED, which would discard data) to the whole pages of the
// range, and ignores advice values it does not know, as other backends ignore advice their device lacks.
// Copies between memory objects need objects with host storage (encore::buffer). Barrier and empty commands
// do nothing. Host tasks run inline (the runtime normally keeps them off the backend); subgraphs never get
// here.
//
//     encore::native::execute(encore::memset_command{p, 0, n});
#pragma once

#include "encore/graph/command.hpp"

namespace encore::native {

void execute(const command& c);
// Throws encore::error(feature_not_supported): another backend's natively captured graph (graph/command.hpp).
[[noreturn]] void refuse_native_graph(const native_graph_command& n);

} // namespace encore::native
