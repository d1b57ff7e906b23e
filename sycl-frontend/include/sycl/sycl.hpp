// <sycl/sycl.hpp>: Encore's SYCL 2020 front end, with the sycl_ext_oneapi_graph extension.
//
// See docs/sycl-frontend.md for what is implemented and docs/sycl-graph.md for the graph extension.
#pragma once

#include "accessor.hpp"
#include "atomic_ref.hpp"
#include "buffer.hpp"
#include "device.hpp"
#include "event.hpp"
#include "exception.hpp"
#include "ext/oneapi/experimental/async_alloc/async_alloc.hpp"
#include "ext/oneapi/experimental/enqueue_functions.hpp"
#include "ext/oneapi/experimental/free_function_kernels.hpp"
#include "ext/oneapi/experimental/graph.hpp"
#include "ext/oneapi/experimental/kernel_compiler.hpp"
#include "ext/oneapi/experimental/work_group_memory.hpp"
#include "functional.hpp"
#include "handler.hpp"
#include "info.hpp"
#include "item.hpp"
#include "kernel.hpp"
#include "kernel_bundle.hpp"
#include "properties/all_properties.hpp"
#include "property_list.hpp"
#include "queue.hpp"
#include "range.hpp"
#include "reduction.hpp"
#include "usm.hpp"
