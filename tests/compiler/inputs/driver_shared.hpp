// A functor kernel both sources of the driver test's program launch: with -fsycl-device-code-split=off each
// source's entry for it gets a name of its own, so the device link does not see it defined twice. Included with
// quotes from the sources' folder: the device compile, which runs elsewhere, must find it too.
#pragma once
#include <sycl/sycl.hpp>

struct scale_by {
    float* data;
    float factor;
    ENCORE_HOST_DEVICE void operator()(sycl::id<1> i) const { data[i] *= factor; }
};
