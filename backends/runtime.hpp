// The Encore runtime in one include: devices, queues, events, memory, buffers, kernels from callables and
// executable graphs, over the graph core (graph/graph.hpp).
//
//     #include "backends/runtime.hpp"
//     encore::queue q;
//     encore::graph g;  ...;  encore::executable_graph exec(g, q.get_device());  q.launch(exec).wait();
#pragma once

#include "backends/backend_registry.hpp"
#include "backends/buffer.hpp"
#include "backends/device.hpp"
#include "backends/event.hpp"
#include "backends/executable_graph.hpp"
#include "backends/kernel_function.hpp"
#include "backends/memory.hpp"
#include "backends/queue.hpp"
#include "graph/error.hpp"
#include "graph/graph.hpp"
