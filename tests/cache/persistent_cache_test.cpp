// The persistent cache: atomic publication, damage detection, hostile directories, failing writes, eviction and
// many processes at once. Tests run as root in CI; the ones that need another user use uid 65534 (nobody).
#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <thread>
#include <variant>

#include "cache_test_support.hpp"
#include "encore/cache/entry_format.hpp"
#include "encore/cache/persistent_cache.hpp"

using namespace encore::cache;
using namespace cache_test;

namespace {

constexpr uid_t nobody = 65534;

persistent_options options_for(const fs::path& dir, trace_log* log = nullptr, std::uint64_t max = 1 << 30) {
    persistent_options o;
    o.directory = dir;
    o.max_bytes = max;
    if (log) o.trace = log->sink();
    return o;
}

std::string canonical(const std::string& source) { return serialize(key_of(source)); }

fs::path only_entry(const fs::path& dir) {
    auto entries = files_in(dir / "v1", ".entry");
    REQUIRE(entries.size() == 1);
    return entries.front();
}

bool running_as_root() { return ::geteuid() == 0; }

} // namespace

TEST_CASE("persistent cache: a stored program loads back; the directory is created 0700") {
    temporary_directory tmp;
    const fs::path dir = tmp.path() / "deep" / "encore";
    trace_log log;
    persistent_cache cache(options_for(dir, &log));
    REQUIRE(cache.enabled());
    struct stat st{};
    REQUIRE(::stat(dir.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0700);
    REQUIRE(::stat((dir / "v1").c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0700);

    CHECK_FALSE(cache.load(canonical("a")));
    CHECK(log.contains("miss test test-device program.txt"));
    CHECK(cache.store(canonical("a"), "a log", "binary of a"));
    CHECK(log.contains("wrote "));
    auto loaded = cache.load(canonical("a"));
    REQUIRE(loaded);
    CHECK(loaded->payload == "binary of a");
    CHECK(loaded->log == "a log");
    CHECK(log.contains("hit test test-device program.txt"));
    REQUIRE(::stat(only_entry(dir).c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);

    // Survives the process: a second cache object on the directory sees it.
    persistent_cache again(options_for(dir));
    REQUIRE(again.load(canonical("a")));
    // Storing the same key again replaces the entry, never adds one.
    CHECK(cache.store(canonical("a"), "", "binary of a, rebuilt"));
    CHECK(files_in(dir / "v1", ".entry").size() == 1);
    CHECK(cache.load(canonical("a"))->payload == "binary of a, rebuilt");
}

TEST_CASE("persistent cache: a different key under the same file name is never loaded (collision slots)") {
    temporary_directory tmp;
    persistent_cache cache(options_for(tmp.path()));
    const std::string a = canonical("a"), b = canonical("b");
    // Plant b's valid entry where a's first slot is, as a hash collision would.
    const fs::path slot0 = tmp.path() / "v1" / (key_hash(a) + "-0.entry");
    write_file(slot0, encode(b, "", "binary of b"));
    CHECK_FALSE(cache.load(a));
    CHECK(fs::exists(slot0)); // another program's valid entry stays
    REQUIRE(cache.store(a, "", "binary of a"));
    CHECK(fs::exists(tmp.path() / "v1" / (key_hash(a) + "-1.entry")));
    CHECK(cache.load(a)->payload == "binary of a");
    CHECK(read_file(slot0) == encode(b, "", "binary of b"));
}

TEST_CASE("persistent cache: truncated, bit-flipped and foreign entries are rejected, removed and rebuilt") {
    temporary_directory tmp;
    trace_log log;
    persistent_cache cache(options_for(tmp.path(), &log));
    const std::string key = canonical("k");
    REQUIRE(cache.store(key, "", std::string(1000, 'x')));
    const fs::path entry = only_entry(tmp.path());
    const std::string good = read_file(entry);

    SUBCASE("truncated") { write_file(entry, good.substr(0, good.size() / 2)); }
    SUBCASE("a flipped bit in the payload") {
        std::string bad = good;
        bad[bad.size() - 10] ^= 0x04;
        write_file(entry, bad);
    }
    SUBCASE("a flipped bit in the key") {
        std::string bad = good;
        bad[entry_header_bytes + 3] ^= 0x01;
        write_file(entry, bad);
    }
    SUBCASE("a foreign file") { write_file(entry, "GIF89a not an entry"); }
    SUBCASE("empty") { write_file(entry, ""); }

    CHECK_FALSE(cache.load(key));
    CHECK(log.contains("rejected "));
    CHECK_FALSE(fs::exists(entry));
    REQUIRE(cache.store(key, "", std::string(1000, 'x')));
    CHECK(cache.load(key)->payload == std::string(1000, 'x'));
}

TEST_CASE("persistent cache: a writer killed between writing and renaming leaves no entry that loads") {
    temporary_directory tmp;
    const std::string key = canonical("killed");
    const int status = in_child([&] {
        persistent_options o = options_for(tmp.path());
        o.before_rename = [] { ::kill(::getpid(), SIGKILL); };
        persistent_cache cache(o);
        cache.store(key, "", std::string(4096, 'k'));
        return 0; // not reached
    });
    CHECK(status == 128 + SIGKILL);
    CHECK(files_in(tmp.path() / "v1", ".entry").empty());
    const auto temporaries = files_in(tmp.path() / "v1");
    REQUIRE(std::count_if(temporaries.begin(), temporaries.end(),
                          [](const fs::path& p) { return p.filename().string().starts_with(".tmp-"); }) == 1);

    persistent_cache cache(options_for(tmp.path()));
    CHECK_FALSE(cache.load(key));
    CHECK(cache.list().empty());
    REQUIRE(cache.store(key, "", "whole"));
    CHECK(cache.load(key)->payload == "whole");
    // The leftover goes once it is an hour old (a younger one may belong to a writer still at work).
    CHECK(cache.verify().removed.empty());
    for (const auto& p : files_in(tmp.path() / "v1"))
        if (p.filename().string().starts_with(".tmp-")) {
            CHECK(fs::exists(p));
            const timespec old[2] = {{::time(nullptr) - 7200, 0}, {::time(nullptr) - 7200, 0}};
            REQUIRE(::utimensat(AT_FDCWD, p.c_str(), old, 0) == 0);
            cache.verify();
            CHECK_FALSE(fs::exists(p));
        }
}

TEST_CASE("persistent cache: writers killed at random moments never leave a damaged entry") {
    temporary_directory tmp;
    for (int round = 0; round < 12; ++round) {
        const pid_t pid = ::fork();
        if (pid == 0) {
            persistent_cache cache(options_for(tmp.path()));
            for (int i = 0;; ++i)
                cache.store(canonical("p" + std::to_string(i % 5)), "", std::string(200000 + i, char('a' + i % 5)));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5 + 7 * round));
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
    }
    persistent_cache cache(options_for(tmp.path()));
    const auto result = cache.verify();
    CHECK(result.removed.empty());
    for (int i = 0; i < 5; ++i)
        if (auto p = cache.load(canonical("p" + std::to_string(i)))) {
            CHECK(p->payload.size() >= 200000);
            CHECK(p->payload.find_first_not_of(char('a' + i)) == std::string::npos);
        }
}

TEST_CASE("persistent cache: 16 processes building one program at once leave one valid entry") {
    temporary_directory tmp;
    const std::string key = canonical("shared program");
    const std::string binary(300000, 'b');
    std::vector<pid_t> children;
    for (int i = 0; i < 16; ++i) {
        const pid_t pid = ::fork();
        if (pid == 0) {
            persistent_cache cache(options_for(tmp.path()));
            for (int attempt = 0; attempt < 20; ++attempt) {
                auto loaded = cache.load(key);
                if (loaded && loaded->payload != binary) ::_exit(1); // never a torn or wrong binary
                if (!loaded && !cache.store(key, "", binary)) ::_exit(2);
            }
            ::_exit(0);
        }
        children.push_back(pid);
    }
    for (const pid_t pid : children) {
        int status = 0;
        ::waitpid(pid, &status, 0);
        CHECK(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 0);
    }
    const auto entries = files_in(tmp.path() / "v1", ".entry");
    CHECK(entries.size() == 1);
    const auto all = files_in(tmp.path() / "v1");
    CHECK(std::none_of(all.begin(), all.end(),
                       [](const fs::path& p) { return p.filename().string().starts_with(".tmp-"); }));
    persistent_cache cache(options_for(tmp.path()));
    CHECK(cache.verify().good == 1);
    CHECK(cache.load(key)->payload == binary);
}

TEST_CASE("persistent cache: eviction removes least recently used entries down to 75% of the limit") {
    temporary_directory tmp;
    trace_log log;
    const std::uint64_t entry_bytes = encode(canonical("p0"), "", std::string(1000, 'x')).size();
    persistent_cache cache(options_for(tmp.path(), &log, 10 * entry_bytes));
    for (int i = 0; i < 10; ++i) {
        REQUIRE(cache.store(canonical("p" + std::to_string(i)), "", std::string(1000, 'x')));
        // Distinct last-use times, oldest first; then p0 is used again and becomes the most recent.
        const auto name = tmp.path() / "v1" / (key_hash(canonical("p" + std::to_string(i))) + "-0.entry");
        const timespec when[2] = {{1000000 + i, 0}, {1000000 + i, 0}};
        REQUIRE(::utimensat(AT_FDCWD, name.c_str(), when, 0) == 0);
    }
    CHECK(cache.total_bytes() == 10 * entry_bytes);
    CHECK_FALSE(log.contains("evicted"));
    REQUIRE(cache.load(canonical("p0")));                          // refreshes p0's last use
    REQUIRE(cache.store(canonical("p10"), "", std::string(1000, 'x'))); // 11 entries: over the limit
    CHECK(cache.total_bytes() <= 10 * entry_bytes / 4 * 3);
    CHECK(log.contains("evicted"));
    CHECK(cache.load(canonical("p0")));   // recently used: kept
    CHECK(cache.load(canonical("p10")));  // just written: kept
    CHECK_FALSE(cache.load(canonical("p1"))); // the oldest: gone
    CHECK_FALSE(cache.load(canonical("p2")));
}

TEST_CASE("persistent cache: eviction waits for another process's eviction lock, and gives up after a bound") {
    temporary_directory tmp, probe_dir;
    std::uint64_t entry_bytes = 0; // one entry of this test's size, header and key included
    {
        persistent_cache probe(options_for(probe_dir.path()));
        REQUIRE(probe.store(canonical("e0"), "", std::string(900, 'x')));
        entry_bytes = probe.total_bytes();
    }
    const std::uint64_t limit = 9 * entry_bytes + entry_bytes / 2; // nine entries fit, the tenth passes it
    trace_log log;
    auto options = options_for(tmp.path(), &log, limit);
    options.eviction_lock_wait = std::chrono::milliseconds(300);
    persistent_cache cache(options);
    REQUIRE(cache.enabled());
    for (int i = 0; i < 9; ++i)
        REQUIRE(cache.store(canonical("e" + std::to_string(i)), "", std::string(900, 'x')));
    REQUIRE_FALSE(log.contains("evicted"));
    // Another holder of the lock (a descriptor of its own: flock locks belong to open file descriptions).
    const int holder = ::open((tmp.path() / "v1" / ".evict.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    REQUIRE(holder >= 0);
    REQUIRE(::flock(holder, LOCK_EX) == 0);
    SUBCASE("held past the bound: the write stands, nothing is evicted, the trace says why") {
        const auto start = std::chrono::steady_clock::now();
        REQUIRE(cache.store(canonical("e9"), "", std::string(900, 'x'))); // over the limit
        CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(300));
        CHECK(log.contains("another process held it for 300 ms"));
        CHECK(cache.total_bytes() == 10 * entry_bytes);
        ::close(holder);
    }
    SUBCASE("released while it waits: it evicts then") {
        std::thread release([holder] {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            ::close(holder);
        });
        REQUIRE(cache.store(canonical("e9"), "", std::string(900, 'x')));
        release.join();
        CHECK(cache.total_bytes() <= limit / 4 * 3);
        CHECK(log.contains("evicted"));
    }
}

TEST_CASE("persistent cache: eviction while other processes read and write loses nothing already loaded") {
    temporary_directory tmp;
    const std::uint64_t limit = 6 * 100000;
    std::vector<pid_t> children;
    for (int c = 0; c < 6; ++c) {
        const pid_t pid = ::fork();
        if (pid == 0) {
            persistent_cache cache(options_for(tmp.path(), nullptr, limit));
            std::vector<std::string> held; // what this process loaded stays valid
            for (int i = 0; i < 60; ++i) {
                const int program = (i * 7 + c) % 20;
                const std::string payload(90000, char('A' + program));
                const std::string key = canonical("q" + std::to_string(program));
                if (auto loaded = cache.load(key)) {
                    if (loaded->payload != payload) ::_exit(1);
                    held.push_back(std::move(loaded->payload));
                } else {
                    cache.store(key, "", payload);
                }
            }
            for (std::size_t i = 0; i < held.size(); ++i)
                if (held[i].size() != 90000 || held[i].find_first_not_of(held[i][0]) != std::string::npos) ::_exit(3);
            ::_exit(0);
        }
        children.push_back(pid);
    }
    for (const pid_t pid : children) {
        int status = 0;
        ::waitpid(pid, &status, 0);
        CHECK(WEXITSTATUS(status) == 0);
    }
    persistent_cache cache(options_for(tmp.path(), nullptr, limit));
    CHECK(cache.verify().removed.empty());
    // A writer over the limit waits for the eviction lock and looks again under it, so the last write's check sees
    // every entry: the cache ends within its limit however the processes interleaved.
    CHECK(cache.total_bytes() <= limit);
}

TEST_CASE("persistent cache: a hostile directory turns it off with one trace line and touches nothing") {
    temporary_directory tmp;
    trace_log log;
    const fs::path dir = tmp.path() / "cache";

    SUBCASE("writable by group or others") {
        fs::create_directory(dir);
        ::chmod(dir.c_str(), 0777);
        persistent_cache cache(options_for(dir, &log));
        CHECK_FALSE(cache.enabled());
        CHECK(cache.disabled_reason().find("writable by group or others") != std::string::npos);
        CHECK_FALSE(cache.store(canonical("a"), "", "x"));
        CHECK_FALSE(fs::exists(dir / "v1"));
    }
    SUBCASE("a symbolic link") {
        const fs::path elsewhere = tmp.path() / "elsewhere";
        fs::create_directory(elsewhere);
        ::chmod(elsewhere.c_str(), 0700);
        fs::create_directory_symlink(elsewhere, dir);
        persistent_cache cache(options_for(dir, &log));
        CHECK_FALSE(cache.enabled());
        CHECK(cache.disabled_reason().find("symbolic link") != std::string::npos);
        CHECK(fs::is_empty(elsewhere));
    }
    SUBCASE("its v1 folder a symbolic link") {
        fs::create_directory(dir);
        ::chmod(dir.c_str(), 0700);
        const fs::path elsewhere = tmp.path() / "elsewhere";
        fs::create_directory(elsewhere);
        ::chmod(elsewhere.c_str(), 0700);
        fs::create_directory_symlink(elsewhere, dir / "v1");
        persistent_cache cache(options_for(dir, &log));
        CHECK_FALSE(cache.enabled());
        CHECK(fs::is_empty(elsewhere));
    }
    SUBCASE("owned by another user") {
        if (!running_as_root()) {
            MESSAGE("not run: chown needs root (CI runs the tests as root)");
            return;
        }
        fs::create_directory(dir);
        ::chmod(dir.c_str(), 0700);
        REQUIRE(::chown(dir.c_str(), nobody, nobody) == 0);
        persistent_cache cache(options_for(dir, &log));
        CHECK_FALSE(cache.enabled());
        CHECK(cache.disabled_reason().find("owned by uid 65534") != std::string::npos);
        CHECK_FALSE(fs::exists(dir / "v1"));
    }
    CHECK(log.count("persistent cache off") == 1);
}

TEST_CASE("persistent cache: a planted symbolic link entry turns it off; its target is never written or removed") {
    temporary_directory tmp;
    trace_log log;
    const fs::path dir = tmp.path() / "cache";
    const fs::path victim = tmp.path() / "victim";
    write_file(victim, "precious");
    persistent_cache cache(options_for(dir, &log));
    const std::string key = canonical("a");
    REQUIRE(cache.store(key, "", "x"));
    const fs::path entry = only_entry(dir);
    fs::remove(entry);
    fs::create_symlink(victim, entry);

    CHECK_FALSE(cache.load(key));
    CHECK_FALSE(cache.enabled());
    CHECK(cache.disabled_reason().find("symbolic link") != std::string::npos);
    CHECK(log.count("persistent cache off") == 1);
    CHECK_FALSE(cache.store(key, "", "y"));
    cache.clear();
    cache.verify();
    cache.evict_to(0);
    CHECK(read_file(victim) == "precious");
    CHECK(fs::is_symlink(entry));
    // A cache opened afterwards stores beside the link, never through it.
    persistent_cache fresh(options_for(dir, &log));
    CHECK_FALSE(fresh.load(key));
    CHECK(read_file(victim) == "precious");
}

TEST_CASE("persistent cache: a read-only directory or a full disk skips the write with a trace line") {
    temporary_directory tmp;
    const fs::path dir = tmp.path() / "cache";
    { persistent_cache create(options_for(dir)); }

    SUBCASE("read-only directory") {
        if (running_as_root()) {
            // Root writes anywhere: the child drops to nobody, who owns the cache but may not write in it.
            REQUIRE(::chown(dir.c_str(), nobody, nobody) == 0);
            REQUIRE(::chown((dir / "v1").c_str(), nobody, nobody) == 0);
        }
        REQUIRE(::chmod((dir / "v1").c_str(), 0500) == 0);
        const int status = in_child([&] {
            if (running_as_root() && (::setgid(nobody) != 0 || ::setuid(nobody) != 0)) return 10;
            trace_log log;
            persistent_cache cache(options_for(dir, &log));
            if (!cache.enabled()) return 11;
            if (cache.store(canonical("a"), "", "x")) return 12;
            if (!log.contains("write skipped")) return 13;
            if (!log.contains("Permission denied")) return 14;
            return cache.enabled() ? 0 : 15;
        });
        CHECK(status == 0);
    }
    SUBCASE("full disk (a file size limit makes write fail)") {
        const int status = in_child([&] {
            ::signal(SIGXFSZ, SIG_IGN);
            const rlimit limit{100, 100};
            if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) return 10;
            trace_log log;
            persistent_cache cache(options_for(dir, &log));
            if (cache.store(canonical("a"), "", std::string(10000, 'x'))) return 12;
            if (!log.contains("write skipped")) return 13;
            return 0;
        });
        CHECK(status == 0);
        CHECK(files_in(dir / "v1").empty()); // the partial temporary file was removed
    }
}

TEST_CASE("persistent cache: clear, evict_older_than, list") {
    temporary_directory tmp;
    persistent_cache cache(options_for(tmp.path()));
    REQUIRE(cache.store(canonical("a"), "", "aaaa"));
    REQUIRE(cache.store(canonical("b"), "", "bbbb"));
    const auto listed = cache.list();
    REQUIRE(listed.size() == 2);
    for (const auto& e : listed) {
        REQUIRE(e.key);
        CHECK(e.key->backend == "test");
        CHECK(e.bytes > 4);
        CHECK(e.last_use > 0);
    }
    const auto old_entry = tmp.path() / "v1" / (key_hash(canonical("a")) + "-0.entry");
    const timespec old[2] = {{::time(nullptr) - 10 * 86400, 0}, {::time(nullptr) - 10 * 86400, 0}};
    REQUIRE(::utimensat(AT_FDCWD, old_entry.c_str(), old, 0) == 0);
    CHECK(cache.evict_older_than(std::chrono::hours(24 * 7)).entries == 1);
    CHECK_FALSE(cache.load(canonical("a")));
    CHECK(cache.load(canonical("b")));
    write_file(tmp.path() / "v1" / "unrelated.txt", "kept");
    CHECK(cache.clear().entries == 1);
    CHECK(cache.list().empty());
    CHECK(fs::exists(tmp.path() / "v1" / "unrelated.txt"));
}

TEST_CASE("persistent cache: no directory means off, with the reason") {
    persistent_cache cache(persistent_options{});
    CHECK_FALSE(cache.enabled());
    CHECK(cache.disabled_reason().find("no cache directory") != std::string::npos);
    CHECK_FALSE(cache.load(canonical("a")));
    CHECK_FALSE(cache.store(canonical("a"), "", "x"));
    CHECK(cache.list().empty());
}
