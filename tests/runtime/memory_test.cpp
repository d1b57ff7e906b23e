// Unified shared memory and buffers: allocation of each kind, alignment, freeing rules, and every memory
// command on every kind of memory.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <sys/mman.h>

#include "runtime_support.hpp"

using namespace encore;
using namespace encore::testing;

namespace {
constexpr memory_kind every_kind[] = {memory_kind::device, memory_kind::host, memory_kind::shared};

// Whether `d` says it allocates `kind` (device memory: always).
bool allocates(const device& d, memory_kind kind) {
    return kind == memory_kind::device || (kind == memory_kind::host ? d.properties().host_memory
                                                                       : d.properties().shared_memory);
}
// Host-touchable memory where the device has it, else device memory.
memory_kind plain_kind(const device& d) {
    return d.properties().shared_memory ? memory_kind::shared : memory_kind::device;
}
} // namespace

TEST_CASE("allocations of every kind are aligned, usable and freed; a kind the device lacks is refused") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        for (auto kind : every_kind) {
            INFO(to_string(kind));
            if (!allocates(d, kind)) {
                MESSAGE(name_of(d) << " has no " << to_string(kind) << " memory");
                try {
                    encore::malloc(64, d, kind);
                    FAIL("an allocation the device says it lacks succeeded");
                } catch (const encore::error& e) {
                    CHECK(e.code() == errc::feature_not_supported);
                }
                continue;
            }
            auto* p = static_cast<int*>(encore::malloc(1000 * sizeof(int), d, kind));
            REQUIRE(p != nullptr);
            CHECK(reinterpret_cast<std::uintptr_t>(p) % d.properties().allocation_alignment == 0);
            std::vector<int> written(1000), read(1000);
            for (int i = 0; i < 1000; ++i)
                written[static_cast<std::size_t>(i)] = i;
            // Through the device (copies), so that device memory the host cannot reach is checked too.
            q.memcpy(p, written.data(), 1000 * sizeof(int)).wait();
            q.memcpy(read.data(), p, 1000 * sizeof(int)).wait();
            CHECK(read == written);
            if (kind != memory_kind::device) CHECK(p[999] == 999); // and in place, where the host may touch it
            encore::free(p, d);
        }
        auto* big = encore::malloc(100, d, plain_kind(d), 4096);
        CHECK(reinterpret_cast<std::uintptr_t>(big) % 4096 == 0);
        encore::free(big, d);

        if (d.properties().shared_memory) {
            double* typed = malloc_shared<double>(10, q);
            typed[9] = 1.5;
            encore::free(typed, q);
        }
        if (d.properties().host_memory) encore::free(malloc_host(64, q), q);
        void* device_memory = malloc_device(64, q);
        encore::free(device_memory, q);
    }
}

TEST_CASE("allocation and free rules") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        const memory_kind kind = plain_kind(d);
        CHECK(encore::malloc(0, d, kind) == nullptr);
        encore::free(nullptr, d); // allowed, does nothing
        int on_stack = 0;
        CHECK_THROWS_AS(encore::free(&on_stack, d), encore::error);
        void* p = encore::malloc(16, d, kind);
        encore::free(p, d);
        try {
            encore::free(p, d);
            FAIL("double free accepted");
        } catch (const encore::error& e) {
            CHECK(e.code() == errc::invalid_argument);
        }
        CHECK_THROWS_AS(encore::malloc(16, d, kind, 48), encore::error); // not a power of two
    }
}

TEST_CASE("memory commands work on every kind of memory") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d, {.in_order = true});
        for (auto kind : every_kind) {
            INFO(to_string(kind));
            if (!allocates(d, kind)) continue; // refused, as the first test checks
            usm_array<std::uint8_t> a(4096, d, kind), b(4096, d, kind);
            q.memset(a.data(), 0xab, 4096);
            q.memcpy(b.data(), a.data(), 4096);
            q.prefetch(b.data(), 4096);
            q.mem_advise(b.data(), 4096, MADV_SEQUENTIAL);
            q.mem_advise(b.data(), 4096, 12345); // unknown advice: ignored
            q.wait_and_throw();
            CHECK(b[0] == 0xab);
            CHECK(b[4095] == 0xab);

            std::uint16_t pattern = 0x1234;
            q.fill(reinterpret_cast<std::uint16_t*>(a.data()), pattern, 1000).wait();
            const auto bytes = a.values();
            std::uint16_t first, last;
            std::memcpy(&first, bytes.data(), 2);
            std::memcpy(&last, bytes.data() + 1998, 2);
            CHECK(first == 0x1234);
            CHECK(last == 0x1234);
            CHECK(a[2000] == 0xab);
        }
    }
}

TEST_CASE("fill repeats patterns of any size") {
    struct three {
        std::uint8_t x, y, z;
    };
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        usm_array<three> t(1001, d);
        q.fill(t.data(), three{1, 2, 3}, 1000).wait();
        CHECK(t[0].value().x == 1);
        CHECK(t[999].value().z == 3);
        CHECK(t[1000].value().x == 0);
        usm_array<std::uint64_t> w(77, d);
        q.fill(w.data(), std::uint64_t{0x0102030405060708}, 77).wait();
        CHECK(w[76] == 0x0102030405060708);
        q.fill(w.data(), std::uint64_t{9}, 0).wait(); // nothing to do
        CHECK(w[0] == 0x0102030405060708);
    }
}

TEST_CASE("a buffer is zero-filled, aligned host storage, and copies move between buffers") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        auto a = std::make_shared<buffer>(100), b = std::make_shared<buffer>(100);
        CHECK(a->size() == 100);
        CHECK(reinterpret_cast<std::uintptr_t>(a->data()) % 64 == 0);
        CHECK(a->data()[99] == std::byte{0});
        for (int i = 0; i < 100; ++i)
            a->data()[i] = std::byte(i);
        queue q(d);
        q.submit(copy_command{a, 10, b, 0, 90}).wait();
        CHECK(b->data()[0] == std::byte{10});
        CHECK(b->data()[89] == std::byte{99});
        CHECK(b->data()[90] == std::byte{0});
        CHECK_THROWS_AS(q.submit(copy_command{a, 50, b, 0, 60}), encore::error); // past a's end
    }
}

TEST_CASE("a copy between memory objects without host storage is reported as unsupported") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        auto plain = std::make_shared<memory_object>(16);
        auto storage = std::make_shared<buffer>(16);
        queue q(d);
        q.submit(copy_command{plain, 0, storage, 0, 16});
        try {
            q.wait_and_throw();
            FAIL("the copy was not reported");
        } catch (const encore::error& e) {
            CHECK(e.code() == errc::feature_not_supported);
        }
    }
}
