// encore::detail::block_pool and pool_allocator: freed blocks are handed out again, at most `kept` are held by
// the shared list and `per_thread` by each thread, a thread's blocks go back to the pool when it ends, objects made
// through std::allocate_shared are constructed and destroyed as usual, and threads may allocate and free at once
// (the OpenCL backend's events come from it).
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <set>
#include <thread>
#include <vector>

#include "encore/backends/detail/block_pool.hpp"

namespace {

using encore::detail::block_pool;
using encore::detail::pool_allocator;

// A size no other test object has, so that each test sees a pool of its own.
template <int Tag> struct sized {
    alignas(64) std::uint8_t bytes[64 * (Tag + 3)];
};

std::atomic<int> alive{0};
struct tracked {
    explicit tracked(int v) : value(v) { ++alive; }
    ~tracked() { --alive; }
    int value;
};

} // namespace

TEST_CASE("block_pool: one pool per size and alignment; a freed block is handed out again, aligned") {
    CHECK(&block_pool::of(sizeof(sized<0>), alignof(sized<0>)) == &block_pool::of(sizeof(sized<0>), 64));
    CHECK(&block_pool::of(sizeof(sized<0>), 64) != &block_pool::of(sizeof(sized<0>), 128));
    auto& pool = block_pool::of(sizeof(sized<0>), alignof(sized<0>));
    void* first = pool.allocate();
    CHECK(reinterpret_cast<std::uintptr_t>(first) % 64 == 0);
    pool.deallocate(first);
    CHECK(pool.free_blocks() == 1);
    void* again = pool.allocate();
    CHECK(again == first);
    CHECK(pool.free_blocks() == 0);
    void* other = pool.allocate(); // none free: a new block
    CHECK(other != again);
    pool.deallocate(again);
    pool.deallocate(other);
}

TEST_CASE("block_pool: at most `kept` free blocks are held, and `per_thread` by a thread; the rest are deleted") {
    auto& pool = block_pool::of(sizeof(sized<1>), alignof(sized<1>));
    std::vector<void*> blocks;
    for (std::size_t i = 0; i < block_pool::kept + block_pool::per_thread + 10; ++i)
        blocks.push_back(pool.allocate());
    CHECK(std::set<void*>(blocks.begin(), blocks.end()).size() == blocks.size());
    for (void* b : blocks)
        pool.deallocate(b);
    // The shared list is full; this thread holds between half of `per_thread` and all of it.
    CHECK(pool.free_blocks() >= block_pool::kept + block_pool::per_thread / 2);
    CHECK(pool.free_blocks() <= block_pool::kept + block_pool::per_thread);
}

TEST_CASE("block_pool: the blocks a thread holds go back to the pool when it ends") {
    auto& pool = block_pool::of(sizeof(sized<3>), alignof(sized<3>));
    std::set<void*> freed;
    std::size_t held_by_thread = 0;
    std::thread([&] {
        std::vector<void*> blocks;
        for (int i = 0; i < 10; ++i)
            blocks.push_back(pool.allocate());
        for (void* b : blocks)
            pool.deallocate(b);
        freed.insert(blocks.begin(), blocks.end());
        held_by_thread = pool.free_blocks();
    }).join();
    CHECK(held_by_thread == 10);
    CHECK(pool.free_blocks() == 10); // now in the shared list: this thread holds none of them yet
    std::set<void*> again;
    for (int i = 0; i < 10; ++i)
        again.insert(pool.allocate());
    CHECK(again == freed);
    for (void* b : again)
        pool.deallocate(b);
}

TEST_CASE("pool_allocator: std::allocate_shared constructs, destroys and reuses the block") {
    const tracked* address = nullptr;
    {
        auto p = std::allocate_shared<tracked>(pool_allocator<tracked>{}, 7);
        CHECK(p->value == 7);
        CHECK(alive == 1);
        address = p.get();
    }
    CHECK(alive == 0);
    auto q = std::allocate_shared<tracked>(pool_allocator<tracked>{}, 8);
    CHECK(q.get() == address); // the control block and object came back from the pool
    CHECK(q->value == 8);
    // Arrays are not pooled; they still allocate and free correctly.
    pool_allocator<tracked> allocator;
    tracked* many = allocator.allocate(3);
    allocator.deallocate(many, 3);
}

TEST_CASE("block_pool: threads allocating and freeing at once get distinct blocks") {
    auto& pool = block_pool::of(sizeof(sized<2>), alignof(sized<2>));
    constexpr int threads = 4, rounds = 2000;
    std::atomic<int> overlaps{0};
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t)
        workers.emplace_back([&, t] {
            std::vector<std::uint8_t*> mine;
            for (int i = 0; i < rounds; ++i) {
                auto* b = static_cast<std::uint8_t*>(pool.allocate());
                b[0] = static_cast<std::uint8_t>(t); // a block two threads held at once would be overwritten
                mine.push_back(b);
                if (i % 3 == 2) {
                    for (auto* held : mine)
                        if (held[0] != t) ++overlaps;
                    for (auto* held : mine)
                        pool.deallocate(held);
                    mine.clear();
                }
            }
            for (auto* held : mine)
                pool.deallocate(held);
        });
    for (auto& w : workers)
        w.join();
    CHECK(overlaps == 0);
    CHECK(pool.free_blocks() <= std::size_t{threads * 3});
}
