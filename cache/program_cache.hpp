// encore::cache::program_cache — built programs in memory: a thread-safe get-or-build in front of the
// persistent cache and the compiler.
//
// get_or_build(key, build, load) returns the program for `key`:
//   1. from memory, when this cache holds it (a hit costs a hash of the key, a lock and a comparison);
//   2. else from the persistent cache (persistent_cache.hpp), when it holds an entry for the key;
//   3. else from `build`, whose result is then written to the persistent cache.
// `load` turns the bytes of 2 or 3 into the object handed out (a module, a cl_program wrapper, ...), which
// stays in memory. Concurrent requests for one key run one build; the others wait for it. A build that throws
// reaches every waiter with the same exception and is not cached: the next request builds again.
//
// One cache per device context (a backend that owns contexts keeps one per context; programs built with no
// context use process()). Above max_bytes (the payload sizes of the programs held), least recently used
// programs are dropped; objects already handed out are shared_ptrs and stay valid.
//
//     auto module = encore::cache::program_cache::process().get_or_build<my_module>(key,
//         [&] { return encore::cache::built_program{compile(source), log}; },
//         [](const encore::cache::built_program& p) { return std::make_shared<const my_module>(p.payload); });
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <typeindex>
#include <unordered_map>

#include "encore/cache/persistent_cache.hpp"
#include "encore/cache/program_key.hpp"

namespace encore::cache {

// What a compiler produced: the binary and its log (warnings).
struct built_program {
    std::string payload;
    std::string log;
    bool from_disk = false; // set by the cache for `load`: the bytes came from the persistent cache
};

struct cache_statistics {
    std::uint64_t memory_hits = 0;
    std::uint64_t disk_hits = 0;
    std::uint64_t builds = 0;        // calls of a build function
    std::uint64_t failed_builds = 0;
    std::uint64_t evictions = 0;     // programs dropped from memory
    std::uint64_t programs = 0;      // held now
    std::uint64_t bytes = 0;         // held now
};

class program_cache {
public:
    // `disk` may be null (no persistent cache); it must outlive this cache.
    explicit program_cache(std::uint64_t max_bytes = settings::default_max_memory_bytes,
                           persistent_cache* disk = nullptr);
    program_cache(const program_cache&) = delete;
    program_cache& operator=(const program_cache&) = delete;

    // The cache for builds with no context, limited by ENCORE_CACHE_IN_MEM_MAX, over persistent_cache::process().
    static program_cache& process();

    template <typename T>
    std::shared_ptr<const T> get_or_build(const program_key& key, const std::function<built_program()>& build,
                                          const std::function<std::shared_ptr<const T>(const built_program&)>& load) {
        auto object = get_or_build_erased(
            key, typeid(T), build,
            [&load](const built_program& p) -> std::shared_ptr<const void> { return load(p); });
        return std::static_pointer_cast<const T>(object);
    }

    cache_statistics statistics() const;
    std::uint64_t max_bytes() const noexcept { return max_bytes_; }
    // Drops every program held (handed-out objects stay valid).
    void clear();

private:
    struct slot;
    using erased_load = std::function<std::shared_ptr<const void>(const built_program&)>;
    std::shared_ptr<const void> get_or_build_erased(const program_key& key, std::type_index type,
                                                    const std::function<built_program()>& build,
                                                    const erased_load& load);
    void evict_locked();

    const std::uint64_t max_bytes_;
    persistent_cache* disk_;
    mutable std::mutex mutex_;
    std::condition_variable built_;
    std::unordered_map<std::string, std::shared_ptr<slot>> slots_; // by canonical key
    std::list<std::string> recency_;                               // most recently used first; ready slots only
    cache_statistics statistics_;
};

} // namespace encore::cache
