// The Encore runtime in one include: devices, queues, events, memory, buffers, kernels from callables and
// executable graphs, over the graph core (graph/graph.hpp).
//
//     #include "encore/backends/runtime.hpp"
//     encore::queue q;
//     encore::graph g;  ...;  encore::executable_graph exec(g, q.get_device());  q.launch(exec).wait();
#pragma once

#include "encore/backends/backend_registry.hpp"
#include "encore/backends/buffer.hpp"
#include "encore/backends/device.hpp"
#include "encore/backends/event.hpp"
#include "encore/backends/executable_graph.hpp"
#include "encore/backends/kernel_function.hpp"
#include "encore/backends/memory.hpp"
#include "encore/backends/native_recording.hpp"
#include "encore/backends/program_device_code.hpp"
#include "encore/backends/queue.hpp"
#include "encore/graph/error.hpp"
#include "encore/graph/graph.hpp"
