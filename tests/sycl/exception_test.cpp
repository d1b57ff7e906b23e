// sycl::exception and sycl::errc, written as ordinary SYCL code.
#include <doctest/doctest.h>

#include <sycl/sycl.hpp>

TEST_CASE("errc values convert to error codes of the sycl category") {
    std::error_code code = sycl::errc::invalid;
    CHECK(code.category() == sycl::sycl_category());
    CHECK(code == sycl::make_error_code(sycl::errc::invalid));
    CHECK(std::string(sycl::sycl_category().name()) == "sycl");
    CHECK(code.message() == "invalid use");
}

TEST_CASE("an exception carries its code and message") {
    try {
        throw sycl::exception(sycl::errc::feature_not_supported, "no images here");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::feature_not_supported);
        CHECK(std::string(e.what()) == "no images here");
        CHECK(&e.category() == &sycl::sycl_category());
    }
    sycl::exception without_message(sycl::make_error_code(sycl::errc::runtime));
    CHECK(std::string(without_message.what()) == "runtime error");
}

TEST_CASE("exception_list holds exception pointers") {
    sycl::exception_list list({std::make_exception_ptr(sycl::exception(sycl::errc::kernel, "k"))});
    CHECK(list.size() == 1);
    CHECK_THROWS_AS(std::rethrow_exception(*list.begin()), sycl::exception);
}
