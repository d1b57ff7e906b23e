// encore::command: kinds, names and validation of every command type.
#include <doctest/doctest.h>

#include "encore/graph/error.hpp"
#include "encore/graph/graph.hpp"
#include "support/test_graphs.hpp"

using namespace encore;

namespace {
void* p = testing::fake_pointer(0x1000);

bool rejected(const command& c) {
    try {
        validate(c);
    } catch (const error& e) {
        return e.code() == errc::invalid_argument;
    }
    return false;
}
} // namespace

TEST_CASE("kind_of follows the variant order") {
    CHECK(kind_of(testing::make_kernel("k")) == command_kind::kernel);
    CHECK(kind_of(memcpy_command{}) == command_kind::memcpy);
    CHECK(kind_of(copy_command{}) == command_kind::copy);
    CHECK(kind_of(fill_command{}) == command_kind::fill);
    CHECK(kind_of(memset_command{}) == command_kind::memset);
    CHECK(kind_of(prefetch_command{}) == command_kind::prefetch);
    CHECK(kind_of(mem_advise_command{}) == command_kind::mem_advise);
    CHECK(kind_of(host_task_command{}) == command_kind::host_task);
    CHECK(kind_of(barrier_command{}) == command_kind::barrier);
    CHECK(kind_of(empty_command{}) == command_kind::empty);
    CHECK(kind_of(subgraph_command{}) == command_kind::subgraph);
    CHECK(std::variant_size_v<command> == command_kind_count);
    for (int k = 0; k < command_kind_count; ++k) CHECK(to_string(static_cast<command_kind>(k)) != "unknown");
}

TEST_CASE("validate accepts well-formed commands") {
    auto object = std::make_shared<memory_object>(64);
    CHECK_FALSE(rejected(testing::make_kernel("k")));
    CHECK_FALSE(rejected(memcpy_command{p, p, 16}));
    CHECK_FALSE(rejected(memcpy_command{nullptr, nullptr, 0}));
    CHECK_FALSE(rejected(copy_command{object, 0, object, 32, 32}));
    CHECK_FALSE(rejected(fill_command{p, {std::byte{1}, std::byte{2}}, 4}));
    CHECK_FALSE(rejected(memset_command{p, 0, 8}));
    CHECK_FALSE(rejected(prefetch_command{p, 8}));
    CHECK_FALSE(rejected(mem_advise_command{p, 8, 1}));
    CHECK_FALSE(rejected(testing::make_host_task()));
    CHECK_FALSE(rejected(subgraph_command{std::make_shared<graph>()}));
}

TEST_CASE("validate rejects malformed commands with a message naming the rule") {
    auto object = std::make_shared<memory_object>(64);
    CHECK(rejected(kernel_command{}));
    auto zero_range = testing::make_kernel("k", 0);
    CHECK(rejected(zero_range));
    auto bad_local = testing::make_kernel("k", 10);
    bad_local.range.local = {3, 1, 1};
    CHECK(rejected(bad_local));
    auto bad_dims = testing::make_kernel("k");
    bad_dims.range.dimensions = 4;
    CHECK(rejected(bad_dims));
    CHECK(rejected(memcpy_command{nullptr, p, 4}));
    CHECK(rejected(memcpy_command{p, nullptr, 4}));
    CHECK(rejected(copy_command{nullptr, 0, object, 0, 4}));
    CHECK(rejected(copy_command{object, 40, object, 0, 32}));
    CHECK(rejected(copy_command{object, 0, object, 64, 1}));
    CHECK(rejected(fill_command{p, {}, 4}));
    CHECK(rejected(fill_command{nullptr, {std::byte{1}}, 4}));
    CHECK(rejected(memset_command{nullptr, 0, 4}));
    CHECK(rejected(prefetch_command{nullptr, 4}));
    CHECK(rejected(mem_advise_command{nullptr, 4, 0}));
    CHECK(rejected(host_task_command{}));
    CHECK(rejected(subgraph_command{}));
    try {
        validate(copy_command{object, 40, object, 0, 32});
        FAIL("a copy past the end was accepted");
    } catch (const error& e) {
        CHECK(std::string(e.what()).find("past the end of a 64-byte memory object") != std::string::npos);
    }
}

TEST_CASE("graph::add validates the command and adds nothing when it is malformed") {
    graph g;
    CHECK_THROWS_AS(g.add(memset_command{nullptr, 0, 4}), error);
    CHECK(g.size() == 0);
}

TEST_CASE("kernel arguments round-trip their values") {
    int x = 0;
    auto ptr = kernel_argument::from_pointer(&x);
    CHECK(ptr.type == kernel_argument::kind::pointer);
    CHECK(ptr.pointer() == &x);
    auto scalar = kernel_argument::from_scalar(2.5f);
    CHECK(scalar.scalar<float>() == 2.5f);
    CHECK_THROWS_AS((void)scalar.pointer(), error);
    CHECK(kernel_argument::local(256).local_bytes == 256);
}
