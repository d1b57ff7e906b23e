// The in-memory cache: one build per key however many threads ask, failures to every waiter and never cached,
// LRU eviction that leaves handed-out programs valid, and the path through the persistent cache.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <latch>
#include <thread>

#include "cache_test_support.hpp"
#include "encore/cache/program_cache.hpp"
#include "encore/graph/error.hpp"

using namespace encore::cache;
using namespace cache_test;

namespace {

struct program {
    std::string bytes;
};

std::function<std::shared_ptr<const program>(const built_program&)> loader() {
    return [](const built_program& b) { return std::make_shared<const program>(program{b.payload}); };
}

std::function<built_program()> builder(std::atomic<int>& calls, std::string payload,
                                       std::chrono::milliseconds delay = {}) {
    return [&calls, payload, delay] {
        ++calls;
        std::this_thread::sleep_for(delay);
        return built_program{payload, "built"};
    };
}

} // namespace

TEST_CASE("program cache: a hit returns the same object; concurrent requests build once") {
    program_cache cache(1 << 20);
    std::atomic<int> calls{0};
    const auto key = key_of("concurrent");
    std::latch start(8);
    std::vector<std::shared_ptr<const program>> got(8);
    std::vector<std::thread> threads;
    for (int i = 0; i < 8; ++i)
        threads.emplace_back([&, i] {
            start.arrive_and_wait();
            got[static_cast<std::size_t>(i)] =
                cache.get_or_build<program>(key, builder(calls, "bytes", std::chrono::milliseconds(200)), loader());
        });
    for (auto& t : threads)
        t.join();
    CHECK(calls == 1);
    for (const auto& g : got)
        CHECK(g == got.front());
    CHECK(got.front()->bytes == "bytes");
    const auto s = cache.statistics();
    CHECK(s.builds == 1);
    CHECK(s.memory_hits == 7);
    CHECK(s.programs == 1);
    CHECK(cache.get_or_build<program>(key, builder(calls, "other"), loader()) == got.front());
    CHECK(calls == 1);
    // Another device is another program.
    cache.get_or_build<program>(key_of("concurrent", "other-device"), builder(calls, "bytes"), loader());
    CHECK(calls == 2);
}

TEST_CASE("program cache: a failed build reaches every waiter with its log and is not cached") {
    program_cache cache(1 << 20);
    std::atomic<int> calls{0};
    const auto key = key_of("broken");
    auto failing = [&calls] {
        ++calls;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        throw encore::error(encore::errc::build_failure, "program.txt:1:2: error: expected ';'");
        return built_program{};
    };
    std::latch start(6);
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 6; ++i)
        threads.emplace_back([&] {
            start.arrive_and_wait();
            try {
                cache.get_or_build<program>(key, failing, loader());
            } catch (const encore::error& e) {
                if (e.code() == encore::errc::build_failure &&
                    std::string(e.what()).find("expected ';'") != std::string::npos)
                    ++failures;
            }
        });
    for (auto& t : threads)
        t.join();
    CHECK(failures == 6);
    CHECK(calls == 1);
    CHECK(cache.statistics().failed_builds == 1);
    CHECK(cache.statistics().programs == 0);
    // The next request builds again, and may succeed.
    CHECK(cache.get_or_build<program>(key, builder(calls, "fixed"), loader())->bytes == "fixed");
    CHECK(calls == 2);
}

TEST_CASE("program cache: least recently used programs go above the limit; handed-out ones stay valid") {
    program_cache cache(250);
    std::atomic<int> calls{0};
    auto a = cache.get_or_build<program>(key_of("a"), builder(calls, std::string(95, 'a')), loader());
    auto b = cache.get_or_build<program>(key_of("b"), builder(calls, std::string(95, 'b')), loader());
    cache.get_or_build<program>(key_of("a"), builder(calls, "?"), loader()); // a is now the most recent
    auto c = cache.get_or_build<program>(key_of("c"), builder(calls, std::string(95, 'c')), loader());
    CHECK(calls == 3);
    const auto s = cache.statistics();
    CHECK(s.evictions == 1);
    CHECK(s.programs == 2);
    CHECK(s.bytes <= 250);
    CHECK(b->bytes == std::string(95, 'b')); // evicted, still valid
    cache.get_or_build<program>(key_of("a"), builder(calls, "?"), loader());
    CHECK(calls == 3); // a stayed
    cache.get_or_build<program>(key_of("b"), builder(calls, std::string(95, 'b')), loader());
    CHECK(calls == 4); // b was the one dropped
    cache.clear();
    CHECK(cache.statistics().programs == 0);
    CHECK(a->bytes.size() == 95);
}

TEST_CASE("program cache: over a persistent cache, a new process finds the program on disk") {
    temporary_directory tmp;
    trace_log log;
    persistent_options o;
    o.directory = tmp.path();
    o.trace = log.sink();
    persistent_cache disk(o);
    std::atomic<int> calls{0};
    const auto key = key_of("on disk");
    {
        program_cache first(1 << 20, &disk);
        CHECK(first.get_or_build<program>(key, builder(calls, "compiled"), loader())->bytes == "compiled");
        CHECK(first.statistics().builds == 1);
    }
    program_cache second(1 << 20, &disk); // as a later run of the program would
    bool from_disk = false;
    auto p = second.get_or_build<program>(key, builder(calls, "compiled again"),
                                          [&](const built_program& b) {
                                              from_disk = b.from_disk;
                                              CHECK(b.log == "built");
                                              return std::make_shared<const program>(program{b.payload});
                                          });
    CHECK(p->bytes == "compiled");
    CHECK(from_disk);
    CHECK(calls == 1);
    CHECK(second.statistics().disk_hits == 1);
    CHECK(second.statistics().builds == 0);

    SUBCASE("a damaged entry is rebuilt and the program still runs") {
        for (const auto& f : files_in(tmp.path() / "v1", ".entry")) {
            std::string bytes = read_file(f);
            bytes[bytes.size() - 1] ^= 0x20;
            write_file(f, bytes);
        }
        program_cache third(1 << 20, &disk);
        CHECK(third.get_or_build<program>(key, builder(calls, "compiled"), loader())->bytes == "compiled");
        CHECK(calls == 2);
        CHECK(log.contains("rejected"));
        program_cache fourth(1 << 20, &disk);
        fourth.get_or_build<program>(key, builder(calls, "compiled"), loader());
        CHECK(fourth.statistics().disk_hits == 1);
    }
    SUBCASE("a binary the loader refuses is built again") {
        program_cache third(1 << 20, &disk);
        int loads = 0;
        auto q = third.get_or_build<program>(key, builder(calls, "fresh"), [&](const built_program& b) {
            if (++loads == 1) throw encore::error(encore::errc::backend_failure, "driver refuses the binary");
            return std::make_shared<const program>(program{b.payload});
        });
        CHECK(q->bytes == "fresh");
        CHECK(calls == 2);
    }
}

TEST_CASE("program cache: asking for a program as another type is refused") {
    program_cache cache(1 << 20);
    std::atomic<int> calls{0};
    cache.get_or_build<program>(key_of("typed"), builder(calls, "x"), loader());
    auto as_string = [](const built_program& b) { return std::make_shared<const std::string>(b.payload); };
    try {
        cache.get_or_build<std::string>(key_of("typed"), builder(calls, "x"), as_string);
        FAIL("no exception");
    } catch (const encore::error& e) {
        CHECK(e.code() == encore::errc::invalid_argument);
    }
}
