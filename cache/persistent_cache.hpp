// encore::cache::persistent_cache — built programs kept on disk between runs, safe to share between processes
// and impossible to load damaged.
//
// Layout: <directory>/v1/<16 hex digits of key_hash>-<slot>.entry, one entry per file in entry_format.hpp's
// form. Slots 0..7 take programs whose keys hash alike; a load compares the stored key with the wanted one, so
// a collision costs a slot, never a wrong binary.
//
// What makes it safe (docs/cache.md says how each is tested):
// - Writes go to a temporary file in the same directory, are flushed (fdatasync) and renamed over the entry: a
//   reader sees a whole entry or none, and a writer killed at any point leaves only a temporary file, which no
//   load ever opens (eviction and verify remove it once it is an hour old). Every load checks the header and the
//   checksum, so a file damaged later (truncated, a flipped bit, another program's file) is removed and rebuilt.
// - Loads read the whole entry into memory: a binary once loaded is never lost to another process's eviction.
// - The directory is created 0700. A directory (or its v1/ folder) that is a symbolic link, owned by another
//   user or writable by group or others, or an entry that is a symbolic link, not a regular file or owned by
//   another user, turns the cache off for the rest of the process with one trace line. All file operations are
//   relative to the opened directory and never follow a link: nothing outside it is written or deleted.
// - A write that fails (full disk, read-only directory) is skipped with a trace line; the build result is used.
// - When the total passes max_bytes after a write, least recently used entries (oldest modification time; a hit
//   refreshes it) are removed until the total is under 75% of it, by one process at a time (a lock file).
// Every member is thread-safe; none throws for a file-system failure (the cache just does less).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "encore/cache/cache_settings.hpp"
#include "encore/cache/program_key.hpp"

namespace encore::cache {

struct stored_program {
    std::string log;
    std::string payload;
};

// One entry as a listing sees it.
struct entry_info {
    std::string file;                // its name inside <directory>/v1
    std::uint64_t bytes = 0;         // the file's size
    std::int64_t last_use = 0;       // seconds since the epoch (written or last hit)
    std::optional<program_key> key;  // nullopt when the header or key is damaged (problem says why)
    std::string problem;
};

struct cleanup_result {
    std::size_t entries = 0; // removed
    std::uint64_t bytes = 0; // freed
};

struct verify_result {
    std::size_t good = 0;
    std::vector<std::string> removed; // "<file>: <reason>"
};

struct persistent_options {
    std::filesystem::path directory;
    std::uint64_t max_bytes = settings::default_max_disk_bytes;
    trace_sink trace; // may be empty
    // A test seam: called after a new entry's bytes are written and flushed, before the rename that publishes
    // it (tests kill the process here).
    std::function<void()> before_rename;
    // How long eviction waits for another process's eviction lock before it gives up (traced).
    std::chrono::milliseconds eviction_lock_wait{10'000};
};

class persistent_cache {
public:
    static constexpr int slots = 8;

    // Opens the directory, creating it (0700) when missing. Never throws: a directory that cannot be used leaves
    // the cache disabled, and disabled_reason() says why.
    explicit persistent_cache(persistent_options options);
    ~persistent_cache();
    persistent_cache(const persistent_cache&) = delete;
    persistent_cache& operator=(const persistent_cache&) = delete;

    // The process's cache, configured from the environment (cache_settings.hpp); disabled when
    // ENCORE_CACHE_PERSISTENT=0.
    static persistent_cache& process();

    bool enabled() const noexcept { return enabled_.load(std::memory_order_acquire); }
    std::string disabled_reason() const;
    const std::filesystem::path& directory() const noexcept { return options_.directory; }
    std::uint64_t max_bytes() const noexcept { return options_.max_bytes; }

    // The program stored under `key` (a canonical form, program_key.hpp), or nullopt (miss, or an entry found
    // damaged and removed). A hit refreshes the entry's last use.
    std::optional<stored_program> load(std::string_view key);
    // Publishes an entry for `key`; false when it was skipped (disabled, or the write failed: traced). Evicts
    // when the total passes max_bytes.
    bool store(std::string_view key, std::string_view log, std::string_view payload);

    std::vector<entry_info> list() const;
    std::uint64_t total_bytes() const;
    // Least recently used entries go until the total is at most `target_bytes`. Waits while another process
    // evicts (up to eviction_lock_wait; then nothing is removed, and the trace says why).
    cleanup_result evict_to(std::uint64_t target_bytes);
    // Entries not used for `age` go.
    cleanup_result evict_older_than(std::chrono::seconds age);
    // Reads every entry; removes those that do not decode or sit under the wrong name.
    verify_result verify();
    // Removes every entry and temporary file.
    cleanup_result clear();

private:
    struct file_stat {
        std::string name;
        std::uint64_t bytes = 0;
        std::int64_t mtime_ns = 0;
    };
    void trace(const std::string& line) const;
    void disable(const std::string& reason);
    bool open_directory();
    std::vector<file_stat> scan(bool entries, bool temporaries) const;
    bool remove_if_same(const std::string& name, int fd_of_it);
    cleanup_result remove_oldest(std::vector<file_stat> files, std::uint64_t target_bytes);
    void remove_stale_temporaries() const;
    int take_eviction_lock() const; // a descriptor holding the exclusive lock, or -1 (traced)
    void evict_if_over_limit();

    persistent_options options_;
    int directory_fd_ = -1; // <directory>/v1
    std::atomic<bool> enabled_{false};
    mutable std::mutex reason_mutex_;
    std::string disabled_reason_;
};

} // namespace encore::cache
