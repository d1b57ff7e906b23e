// <sycl/sycl.hpp>: Encore's SYCL 2020 front end.
//
// So far: exceptions and errc, the index-space types (range, id, item, nd_range, nd_item, group, h_item,
// group_barrier), and platforms, devices, contexts, selectors, info queries and aspects. Queues, the handler, USM,
// buffers and accessors follow (see docs/sycl-frontend.md).
#pragma once

#include "device.hpp"
#include "exception.hpp"
#include "info.hpp"
#include "item.hpp"
#include "range.hpp"
