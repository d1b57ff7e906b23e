// sycl_ext_oneapi_dot_accumulate (dot_acc on packed 8-bit integers and on vec<int8_t / uint8_t, 4>), called from a
// SYCL_EXTERNAL helper as programs using it write them; compared with the four products added in plain C++. One
// body built three ways (tests/conformance/meson.build, tests/compiler/meson.build).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>

#include <sycl/ext/oneapi/dot_product.hpp>
#include <sycl/sycl.hpp>

namespace {

constexpr int count = 6;
constexpr std::uint32_t words[count] = {0x00000000u, 0x01020304u, 0xfffefdfcu, 0x7f80ff01u, 0x80808080u, 0x12345678u};

// The four products of a and b's bytes (each taken signed or unsigned) plus c, in plain C++.
std::int32_t reference(std::uint32_t a, bool a_signed, std::uint32_t b, bool b_signed, std::int32_t c) {
    std::int32_t sum = c;
    for (int k = 0; k < 4; ++k) {
        const auto ab = static_cast<std::uint8_t>(a >> (8 * k)), bb = static_cast<std::uint8_t>(b >> (8 * k));
        const std::int32_t x = a_signed ? static_cast<std::int8_t>(ab) : ab;
        const std::int32_t y = b_signed ? static_cast<std::int8_t>(bb) : bb;
        sum += x * y;
    }
    return sum;
}

} // namespace

// A device function defined in this translation unit, marked as programs mark them.
SYCL_EXTERNAL std::int32_t all_forms(std::uint32_t a, std::uint32_t b, std::int32_t c, int form) {
    namespace x = sycl::ext::oneapi;
    switch (form) {
    case 0: return x::dot_acc(static_cast<std::int32_t>(a), static_cast<std::int32_t>(b), c);
    case 1: return x::dot_acc(a, b, c);
    case 2: return x::dot_acc(static_cast<std::int32_t>(a), b, c);
    case 3: return x::dot_acc(a, static_cast<std::int32_t>(b), c);
    default: {
        sycl::vec<std::int8_t, 4> va;
        sycl::vec<std::uint8_t, 4> vb;
        for (int k = 0; k < 4; ++k) {
            va[k] = static_cast<std::int8_t>(a >> (8 * k));
            vb[k] = static_cast<std::uint8_t>(b >> (8 * k));
        }
        return x::dot_acc(va, vb, c);
    }
    }
}

TEST_CASE("dot_acc: every signedness of packed words and of 4-element vecs, plus the accumulator") {
    sycl::queue q;
    MESSAGE("device: " << q.get_device().get_info<sycl::info::device::name>());
    auto* in = sycl::malloc_shared<std::uint32_t>(count, q);
    auto* out = sycl::malloc_shared<std::int32_t>(5 * count * count, q);
    REQUIRE(in != nullptr);
    REQUIRE(out != nullptr);
    std::memcpy(in, words, sizeof words);
    q.parallel_for(sycl::range<2>{count, count}, [=](sycl::id<2> id) {
         const std::size_t i = id[0], j = id[1];
         for (int form = 0; form < 5; ++form)
             out[(form * count + i) * count + j] = all_forms(in[i], in[j], static_cast<std::int32_t>(i * 1000) - 7, form);
     }).wait();
    const bool signs[5][2] = {{true, true}, {false, false}, {true, false}, {false, true}, {true, false}};
    for (int form = 0; form < 5; ++form)
        for (int i = 0; i < count; ++i)
            for (int j = 0; j < count; ++j) {
                CAPTURE(form);
                CAPTURE(words[i]);
                CAPTURE(words[j]);
                CHECK(out[(form * count + i) * count + j] ==
                      reference(words[i], signs[form][0], words[j], signs[form][1], i * 1000 - 7));
            }
    sycl::free(in, q);
    sycl::free(out, q);
}
