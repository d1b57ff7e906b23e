// Checks a kernel object as the host compiler (g++) laid it out against the integration header that
// encore-outliner (clang) wrote for it: the kernel is registered under typeid(K).name(), its size and
// alignment agree, and each decomposed parameter's bytes at its offset are the value captured there.
//
//     auto k = [=](sycl::id<1> i) { p[i] = v; };
//     check_kernel(k, {expect("p", p), expect("v", v)});
//     q.parallel_for(r, k);
#pragma once

#include <doctest/doctest.h>

#include <cstring>
#include <functional>
#include <initializer_list>
#include <set>
#include <string>
#include <type_traits>
#include <typeinfo>

#include <sycl/sycl.hpp>

#include "encore/compiler/kernel_descriptor.hpp"

namespace layout_check {

template <typename T> struct accessor_traits : std::false_type {};
template <typename T, int D, sycl::access_mode M, sycl::target Tg, sycl::access::placeholder P>
struct accessor_traits<sycl::accessor<T, D, M, Tg, P>> : std::true_type {
    static constexpr int dimensions = D;
    static constexpr std::size_t element_size = sizeof(T);
    static constexpr int mode = static_cast<int>(M);
    static constexpr int target = static_cast<int>(Tg);
};
template <typename T> struct local_traits : std::false_type {};
template <typename T, int D> struct local_traits<sycl::local_accessor<T, D>> : std::true_type {
    static constexpr int dimensions = D;
    static constexpr std::size_t element_size = sizeof(T);
};

// What one parameter must hold: its name in the descriptor and a test of the bytes at its offset.
struct expectation {
    std::string name;
    std::size_t size;
    std::function<void(const encore::compiler::kernel_param&, const unsigned char*)> check;
};

template <typename T> expectation expect(std::string name, const T& value) {
    return {std::move(name), sizeof(T),
            [value](const encore::compiler::kernel_param& p, const unsigned char* at) {
                using encore::compiler::param_kind;
                T copy;
                std::memcpy(static_cast<void*>(&copy), at, sizeof(T));
                if constexpr (accessor_traits<T>::value) {
                    CHECK(p.kind == param_kind::accessor);
                    CHECK(p.dimensions == accessor_traits<T>::dimensions);
                    CHECK(p.element_size == accessor_traits<T>::element_size);
                    CHECK(p.access_mode == accessor_traits<T>::mode);
                    CHECK(p.target == accessor_traits<T>::target);
                    CHECK(copy == value); // accessors have padding: compare the views, not the bytes
                } else if constexpr (local_traits<T>::value) {
                    CHECK(p.kind == param_kind::local_accessor);
                    CHECK(p.dimensions == local_traits<T>::dimensions);
                    CHECK(p.element_size == local_traits<T>::element_size);
                    CHECK(copy == value);
                } else {
                    CHECK(p.kind == (std::is_pointer_v<T> ? param_kind::pointer : param_kind::std_layout));
                    CHECK(std::memcmp(at, static_cast<const void*>(&value), sizeof(T)) == 0);
                }
            }};
}
// A captured C array: compared element bytes (no padding in the arrays the input captures).
template <typename T, std::size_t N> expectation expect_array(std::string name, const T (&value)[N]) {
    std::vector<unsigned char> bytes(sizeof value);
    std::memcpy(bytes.data(), value, sizeof value);
    return {std::move(name), sizeof value,
            [bytes](const encore::compiler::kernel_param& p, const unsigned char* at) {
                CHECK(p.kind == encore::compiler::param_kind::std_layout);
                CHECK(std::memcmp(at, bytes.data(), bytes.size()) == 0);
            }};
}

// The type names of the kernels checked so far (the test compares them with the registry).
inline std::set<std::string>& checked() {
    static std::set<std::string> names;
    return names;
}

template <typename K> void check_kernel(const K& k, std::initializer_list<expectation> expected) {
    const char* type_name = typeid(K).name();
    INFO("kernel type " << type_name << " (" << sycl::detail::demangle(type_name) << ")");
    const encore::compiler::kernel_descriptor* d = encore::compiler::find_kernel(type_name);
    REQUIRE(d != nullptr);
    checked().insert(type_name);
    CHECK(d->size == sizeof(K));
    CHECK(d->align == alignof(K));
    REQUIRE(d->param_count == expected.size());
    const auto* bytes = reinterpret_cast<const unsigned char*>(&k);
    // By name: the order of a closure's fields is the compiler's choice (clang's is in the descriptor).
    for (const expectation& e : expected) {
        const encore::compiler::kernel_param* p = nullptr;
        for (const auto& candidate : d->parameters())
            if (candidate.name == e.name) p = &candidate;
        INFO("parameter '" << e.name << "'");
        REQUIRE(p != nullptr);
        INFO("at offset " << p->offset);
        CHECK(p->size == e.size);
        REQUIRE(p->offset + p->size <= sizeof(K));
        e.check(*p, bytes + p->offset);
    }
}

} // namespace layout_check
