// Every property Encore accepts (DPC++'s <sycl/properties/all_properties.hpp>).
#pragma once

#include "sycl/ext/oneapi/experimental/graph.hpp"
#include "sycl/properties/accessor_properties.hpp"
#include "sycl/properties/buffer_properties.hpp"
#include "sycl/properties/context_properties.hpp"
#include "sycl/properties/queue_properties.hpp"
#include "sycl/properties/reduction_properties.hpp"
