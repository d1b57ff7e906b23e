// The other file of spec_key_test.cpp: a specialization_id with the same qualified name, in its own anonymous
// namespace.
#include <sycl/sycl.hpp>

namespace {
constexpr sycl::specialization_id<int> shared_name{2};
}

void set_other_shared_name(sycl::handler& h) {
    h.set_specialization_constant<shared_name>(7);
    h.single_task([] {});
}
