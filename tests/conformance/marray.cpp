// SYCL 2020 section 4.14.3 (marray): construction from scalars and marrays, element access and iteration,
// element-wise operators with marrays and scalars, relations answering marray<bool> (with any, all and select), and
// the built-in functions on marrays, in kernels and on the host, compared with plain C++ loops. One body built three
// ways (tests/conformance/meson.build, tests/compiler/meson.build).
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <type_traits>

#include <sycl/sycl.hpp>

TEST_CASE("marray: construction, access, operators and relations on the host") {
    using m5 = sycl::marray<float, 5>;
    static_assert(sizeof(m5) == 5 * sizeof(float));
    static_assert(sizeof(sycl::mfloat3) == 12);
    const m5 a{1.0f, 2.0f, 3.0f, 4.0f, 5.0f};
    const m5 b{sycl::marray<float, 2>{10.0f, 20.0f}, 30.0f, sycl::marray<float, 2>{40.0f, 50.0f}};
    const m5 c(0.5f);
    CHECK(m5::size() == 5);
    float total = 0;
    for (float x : a) total += x;
    CHECK(total == 15.0f);
    const auto sum = a + b * 2.0f - c;
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(sum)>, m5>);
    for (std::size_t i = 0; i < 5; ++i) {
        CAPTURE(i);
        CHECK(sum[i] == a[i] + b[i] * 2.0f - 0.5f);
    }
    const auto bigger = b > 25.0f;
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(bigger)>, sycl::marray<bool, 5>>);
    CHECK(!bigger[0]);
    CHECK(bigger[2]);
    CHECK(sycl::any(bigger));
    CHECK(!sycl::all(bigger));
    CHECK(sycl::all(a < b));
    const m5 picked = sycl::select(a, b, bigger);
    CHECK(picked[1] == 2.0f);
    CHECK(picked[3] == 40.0f);
    sycl::marray<int, 3> k{7, -8, 9};
    k += 1;
    k %= 4;
    CHECK(k[0] == 0);
    CHECK(k[1] == -3);
    CHECK(k[2] == 2);
    CHECK((!sycl::marray<int, 2>{0, 3})[0]);
    const sycl::marray<float, 1> one(2.5f);
    CHECK(static_cast<float>(one) == 2.5f);
}

TEST_CASE("marray: built-ins and operators in a kernel match the host") {
    sycl::queue q;
    MESSAGE("device: " << q.get_device().get_info<sycl::info::device::name>());
    constexpr std::size_t n = 1024;
    using m5 = sycl::marray<float, 5>;
    auto* in = sycl::malloc_shared<m5>(n, q);
    auto* out = sycl::malloc_shared<m5>(n * 2, q);
    auto* flags = sycl::malloc_shared<int>(n, q);
    auto* ints = sycl::malloc_shared<sycl::muint3>(n, q); // abs of int is unsigned
    REQUIRE(in != nullptr);
    REQUIRE(out != nullptr);
    REQUIRE(flags != nullptr);
    REQUIRE(ints != nullptr);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < 5; ++k)
            in[i][k] = static_cast<float>((i * 5 + k) % 37) * 0.75f - 9.0f;
    q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> idx) {
         const std::size_t i = idx[0];
         const m5 x = in[i];
         out[i * 2] = sycl::sqrt(sycl::fabs(x)) * 2.0f + x;
         out[i * 2 + 1] = sycl::clamp(x, -2.0f, 3.0f);
         flags[i] = sycl::any(x > 15.0f) ? 1 : 0;
         ints[i] = sycl::abs(sycl::marray<int, 3>{static_cast<int>(i), -static_cast<int>(i), 5} - 7);
     }).wait();
    for (std::size_t i = 0; i < n; ++i) {
        CAPTURE(i);
        bool any_big = false;
        for (std::size_t k = 0; k < 5; ++k) {
            const float x = in[i][k];
            CHECK(out[i * 2][k] == doctest::Approx(std::sqrt(std::fabs(x)) * 2.0f + x).epsilon(1e-6));
            CHECK(out[i * 2 + 1][k] == std::fmin(std::fmax(x, -2.0f), 3.0f));
            any_big = any_big || x > 15.0f;
        }
        CHECK(flags[i] == (any_big ? 1 : 0));
        CHECK(ints[i][0] == static_cast<unsigned>(std::abs(static_cast<int>(i) - 7)));
        CHECK(ints[i][1] == static_cast<unsigned>(i) + 7);
        CHECK(ints[i][2] == 2u);
    }
    sycl::free(in, q);
    sycl::free(out, q);
    sycl::free(flags, q);
    sycl::free(ints, q);
}
