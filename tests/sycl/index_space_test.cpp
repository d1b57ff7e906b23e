// range, id, item, nd_range and nd_item, written as ordinary SYCL code (items are made by running kernels on the
// engine's native backend, since SYCL gives them no public constructor).
#include <doctest/doctest.h>

#include <sycl/sycl.hpp>

TEST_CASE("range and id: construction, size, arithmetic, comparison") {
    sycl::range<3> r{2, 3, 4};
    CHECK(r.size() == 24);
    CHECK(r[2] == 4);
    CHECK(r.get(1) == 3);
    sycl::range<1> implicit = 16; // SYCL 2020 lets a size stand for a 1-D range
    CHECK(implicit.size() == 16);
    sycl::id<2> a{1, 2}, b{3, 4};
    CHECK(a + b == sycl::id<2>{4, 6});
    CHECK(b - a == sycl::id<2>{2, 2});
    CHECK(a * 3 == sycl::id<2>{3, 6});
    a += b;
    CHECK(a == sycl::id<2>{4, 6});
    CHECK(a != b);
    sycl::id<1> one{7};
    std::size_t as_size = one;
    CHECK(as_size == 7);
    sycl::range r2{8, 8}; // deduction guides
    static_assert(decltype(r2)::dimensions == 2);
}

TEST_CASE("nd_range reports its group range") {
    sycl::nd_range<2> nd{{64, 32}, {8, 4}};
    CHECK(nd.get_group_range() == sycl::range<2>{8, 8});
    CHECK(nd.get_offset() == sycl::id<2>{0, 0});
}

TEST_CASE("item and nd_item views of an engine work-item") {
    encore::work_item it;
    it.dimensions = 2;
    it.global_id = {5, 3, 0};
    it.local_id = {1, 3, 0};
    it.group_id = {1, 0, 0};
    it.global_range = {8, 4, 1};
    it.local_range = {4, 4, 1};
    it.group_range = {2, 1, 1};
    auto item = sycl::detail::item_factory::make_item<2, false>(it);
    CHECK(item.get_id() == sycl::id<2>{5, 3});
    CHECK(item.get_range() == sycl::range<2>{8, 4});
    CHECK(item.get_linear_id() == 5 * 4 + 3); // row-major: the last dimension varies fastest
    auto nd = sycl::detail::item_factory::make_nd_item<2>(it);
    CHECK(nd.get_global_linear_id() == 23);
    CHECK(nd.get_local_linear_id() == 1 * 4 + 3);
    CHECK(nd.get_group_linear_id() == 1);
    CHECK(nd.get_group().get_local_linear_range() == 16);
    CHECK_FALSE(nd.get_group().leader());
}
