// The Encore runtime in one include: devices, queues, events, memory, buffers, kernels from callables and
// executable graphs, over the graph core (graph/graph.hpp).
//
//     #include "encore/runtime/runtime.hpp"
//     encore::queue q;
//     encore::graph g;  ...;  encore::executable_graph exec(g, q.get_device());  q.launch(exec).wait();
#pragma once

#include "encore/runtime/backend_registry.hpp"
#include "encore/runtime/buffer.hpp"
#include "encore/runtime/device.hpp"
#include "encore/runtime/event.hpp"
#include "encore/runtime/executable_graph.hpp"
#include "encore/runtime/kernel_function.hpp"
#include "encore/runtime/memory.hpp"
#include "encore/runtime/native_recording.hpp"
#include "encore/runtime/program_device_code.hpp"
#include "encore/runtime/queue.hpp"
#include "encore/graph/error.hpp"
#include "encore/graph/graph.hpp"
