// Reduction properties (DPC++'s <sycl/properties/reduction_properties.hpp>): initialize_to_identity, defined
// with reductions.
#pragma once

#include "sycl/reduction.hpp"
