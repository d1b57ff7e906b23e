// Encore's engine in one include: the graph core (commands, the DAG, its algorithms and exports), the
// partitioner, and the runtime (devices, queues, events, memory, buffers, kernels, executable graphs, the
// profiler).
//
// Installed as <encore/encore.hpp>; the modules' own headers are <encore/graph/...>, <encore/partitioner/...>
// <encore/runtime/...> and <encore/backends/...> (the backend interface). The SYCL front end is <sycl/sycl.hpp>.
//
//     #include <encore/encore.hpp>
//     encore::queue q;
//     auto twice = encore::make_kernel("twice", [x](const encore::work_item& it) { x[it.global_id[0]] *= 2; });
#pragma once

#include "encore/runtime/runtime.hpp"
#include "encore/runtime/profiler.hpp"
#include "encore/graph/critical_path.hpp"
#include "encore/graph/dot_export.hpp"
#include "encore/graph/json_export.hpp"
#include "encore/graph/topological_order.hpp"
#include "encore/partitioner/partition.hpp"
