#pragma once

#include <sycl/sycl.hpp>

void scale_on(sycl::queue& q, int* data, int n); // libscale.so
void offset_on(sycl::queue& q, int* data, int n); // liboffset.a
