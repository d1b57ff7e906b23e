// Specialization constants are known to kernels by a key hashed from their specialization_id's qualified name
// (sycl/specialization_id.hpp). Two specialization_ids of one qualified name, each in the anonymous namespace of
// its own file (this one and spec_key_other.cpp), have one key: setting the second is refused with errc::invalid
// naming it, not read by a kernel as the first one's value.
#include <doctest/doctest.h>

#include <sycl/sycl.hpp>

namespace {
constexpr sycl::specialization_id<int> shared_name{1};
}

void set_other_shared_name(sycl::handler& h); // spec_key_other.cpp: sets its own `shared_name`

TEST_CASE("specialization constants: two specialization_ids of one qualified name are refused, not confused") {
    sycl::queue q;
    q.submit([&](sycl::handler& h) {
         h.set_specialization_constant<shared_name>(5);
         h.single_task([] {});
     }).wait();
    try {
        q.submit([&](sycl::handler& h) { set_other_shared_name(h); });
        FAIL("the second specialization_id of the same name was accepted");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::invalid);
        CHECK(std::string(e.what()).find("shared_name") != std::string::npos);
    }
    // Setting the first one again is fine.
    q.submit([&](sycl::handler& h) {
         h.set_specialization_constant<shared_name>(6);
         h.single_task([] {});
     }).wait();
}
