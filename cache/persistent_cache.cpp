#include "persistent_cache.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>
#include <thread>
#include <variant>

#include "entry_format.hpp"

namespace encore::cache {

namespace {

constexpr const char* version_folder = "v1";
constexpr std::string_view entry_suffix = ".entry";
constexpr std::string_view temporary_prefix = ".tmp-";
constexpr const char* lock_name = ".evict.lock";
constexpr std::int64_t stale_temporary_ns = std::int64_t{3600} * 1'000'000'000;

std::string errno_text(int e) { return std::strerror(e); }

// Closes a file descriptor on every path.
struct fd_guard {
    int fd = -1;
    explicit fd_guard(int f) : fd(f) {}
    ~fd_guard() {
        if (fd >= 0) ::close(fd);
    }
    fd_guard(const fd_guard&) = delete;
    fd_guard& operator=(const fd_guard&) = delete;
};

std::int64_t mtime_ns(const struct stat& st) {
    return std::int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec;
}

// Why a directory must not be used, or "".
std::string unsafe_directory(const struct stat& st, const std::string& what) {
    if (!S_ISDIR(st.st_mode)) return what + " is not a directory";
    if (st.st_uid != ::geteuid())
        return what + " is owned by uid " + std::to_string(st.st_uid) + ", not by this user (uid " +
               std::to_string(::geteuid()) + ")";
    if (st.st_mode & (S_IWGRP | S_IWOTH)) return what + " is writable by group or others";
    return {};
}

bool read_all(int fd, std::string& out, std::uint64_t size) {
    out.resize(size);
    std::uint64_t done = 0;
    while (done < size) {
        const ssize_t n = ::read(fd, out.data() + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        done += static_cast<std::uint64_t>(n);
    }
    out.resize(done);
    return done == size;
}

bool write_all(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n == 0) errno = ENOSPC;
            return false;
        }
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

bool is_entry_name(std::string_view name) {
    return name.size() > entry_suffix.size() && name.ends_with(entry_suffix) && name.front() != '.';
}

std::string entry_name(std::string_view hash, int slot) {
    return std::string(hash) + "-" + std::to_string(slot) + std::string(entry_suffix);
}

// "cuda sm_90 saxpy.cu" for trace lines.
std::string describe(std::string_view key) {
    auto k = parse(key);
    if (!k) return "(unreadable key)";
    std::string d = k->backend + " " + k->device + " " + k->name;
    return d;
}

} // namespace

persistent_cache::persistent_cache(persistent_options options) : options_(std::move(options)) {
    if (open_directory()) enabled_.store(true, std::memory_order_release);
}

persistent_cache::~persistent_cache() {
    if (directory_fd_ >= 0) ::close(directory_fd_);
}

persistent_cache& persistent_cache::process() {
    static persistent_cache instance([] {
        const trace_sink warn = stderr_trace();
        const settings s = settings::from_environment(warn);
        persistent_options o;
        o.directory = s.persistent ? s.directory : std::filesystem::path{};
        o.max_bytes = s.max_disk_bytes;
        if (s.trace) o.trace = warn;
        return o;
    }());
    return instance;
}

void persistent_cache::trace(const std::string& line) const {
    if (options_.trace) options_.trace(line);
}

std::string persistent_cache::disabled_reason() const {
    std::lock_guard lock(reason_mutex_);
    return disabled_reason_;
}

void persistent_cache::disable(const std::string& reason) {
    {
        std::lock_guard lock(reason_mutex_);
        if (!disabled_reason_.empty()) return;
        disabled_reason_ = reason;
    }
    enabled_.store(false, std::memory_order_release);
    trace("persistent cache off for this process: " + reason);
}

bool persistent_cache::open_directory() {
    const auto& dir = options_.directory;
    if (dir.empty()) {
        std::lock_guard lock(reason_mutex_);
        disabled_reason_ = "no cache directory (ENCORE_CACHE_PERSISTENT=0, or neither XDG_CACHE_HOME nor HOME is set)";
        return false;
    }
    auto fail = [&](const std::string& reason) {
        std::lock_guard lock(reason_mutex_);
        disabled_reason_ = reason;
        trace("persistent cache off for this process: " + reason);
        return false;
    };
    // The parents are ordinary folders (~/.cache); the cache directory itself is private.
    std::error_code ec;
    if (dir.has_parent_path()) std::filesystem::create_directories(dir.parent_path(), ec);
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
        return fail("cannot create " + dir.string() + ": " + errno_text(errno));
    fd_guard root(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (root.fd < 0)
        return fail(dir.string() + (errno == ELOOP || errno == ENOTDIR ? " is a symbolic link or not a directory"
                                                                       : ": " + errno_text(errno)));
    struct stat st{};
    if (::fstat(root.fd, &st) != 0) return fail(dir.string() + ": " + errno_text(errno));
    if (auto why = unsafe_directory(st, dir.string()); !why.empty()) return fail(why);

    if (::mkdirat(root.fd, version_folder, 0700) != 0 && errno != EEXIST)
        return fail("cannot create " + (dir / version_folder).string() + ": " + errno_text(errno));
    const int fd = ::openat(root.fd, version_folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return fail((dir / version_folder).string() +
                    (errno == ELOOP || errno == ENOTDIR ? " is a symbolic link or not a directory"
                                                        : ": " + errno_text(errno)));
    if (::fstat(fd, &st) != 0 || !unsafe_directory(st, (dir / version_folder).string()).empty()) {
        const std::string why = unsafe_directory(st, (dir / version_folder).string());
        ::close(fd);
        return fail(why.empty() ? "cannot inspect " + (dir / version_folder).string() : why);
    }
    directory_fd_ = fd;
    return true;
}

std::optional<stored_program> persistent_cache::load(std::string_view key) {
    if (!enabled()) return std::nullopt;
    const std::string hash = key_hash(key);
    for (int slot = 0; slot < slots; ++slot) {
        const std::string name = entry_name(hash, slot);
        fd_guard file(::openat(directory_fd_, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
        if (file.fd < 0) {
            if (errno == ENOENT) {
                trace("miss " + describe(key) + ": no entry " + name);
            } else if (errno == ELOOP) {
                disable("entry " + name + " is a symbolic link");
            } else {
                trace("miss " + describe(key) + ": cannot open " + name + ": " + errno_text(errno));
            }
            return std::nullopt;
        }
        struct stat st{};
        if (::fstat(file.fd, &st) != 0) return std::nullopt;
        if (!S_ISREG(st.st_mode)) {
            disable("entry " + name + " is not a regular file");
            return std::nullopt;
        }
        if (st.st_uid != ::geteuid()) {
            disable("entry " + name + " is owned by uid " + std::to_string(st.st_uid));
            return std::nullopt;
        }
        std::string bytes;
        if (!read_all(file.fd, bytes, static_cast<std::uint64_t>(st.st_size))) {
            trace("rejected " + name + ": it changed size while being read; removed");
            remove_if_same(name, file.fd);
            return std::nullopt;
        }
        auto decoded = decode(bytes);
        if (auto* reason = std::get_if<std::string>(&decoded)) {
            trace("rejected " + name + ": " + *reason + "; removed, the program is built again");
            remove_if_same(name, file.fd);
            return std::nullopt;
        }
        auto& e = std::get<entry>(decoded);
        if (e.key != key) {
            trace("slot " + name + " holds another program (same hash); trying the next slot");
            continue;
        }
        ::futimens(file.fd, nullptr); // last use, for eviction
        trace("hit " + describe(key) + ": " + name + " (" + std::to_string(e.payload.size()) + " bytes)");
        return stored_program{std::move(e.log), std::move(e.payload)};
    }
    trace("miss " + describe(key) + ": every slot of " + hash + " holds another program");
    return std::nullopt;
}

bool persistent_cache::remove_if_same(const std::string& name, int fd_of_it) {
    // Another process may have renamed a fresh entry over the damaged one since it was opened: remove only
    // the file that was read.
    struct stat opened{}, now{};
    if (::fstat(fd_of_it, &opened) != 0) return false;
    if (::fstatat(directory_fd_, name.c_str(), &now, AT_SYMLINK_NOFOLLOW) != 0) return false;
    if (opened.st_ino != now.st_ino || opened.st_dev != now.st_dev) return false;
    return ::unlinkat(directory_fd_, name.c_str(), 0) == 0;
}

bool persistent_cache::store(std::string_view key, std::string_view log, std::string_view payload) {
    if (!enabled()) return false;
    const std::string hash = key_hash(key);
    // The first slot that is free, holds this key already, or holds something unreadable.
    std::string name;
    for (int slot = 0; slot < slots && name.empty(); ++slot) {
        const std::string candidate = entry_name(hash, slot);
        fd_guard file(::openat(directory_fd_, candidate.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
        if (file.fd < 0) {
            if (errno == ELOOP) {
                disable("entry " + candidate + " is a symbolic link");
                return false;
            }
            name = candidate;
            break;
        }
        struct stat st{};
        if (::fstat(file.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            disable("entry " + candidate + " is not a regular file");
            return false;
        }
        std::string prefix;
        const auto wanted = std::min<std::uint64_t>(static_cast<std::uint64_t>(st.st_size),
                                                    entry_header_bytes + key.size());
        read_all(file.fd, prefix, wanted);
        auto stored_key = decode_key_only(prefix, static_cast<std::uint64_t>(st.st_size));
        if (stored_key.index() == 1 || std::get<0>(stored_key) == key) name = candidate;
    }
    if (name.empty()) {
        trace("not stored " + describe(key) + ": all " + std::to_string(slots) + " slots of " + hash +
              " hold other programs");
        return false;
    }

    static std::atomic<std::uint64_t> sequence{0};
    const std::string temporary = std::string(temporary_prefix) + std::to_string(::getpid()) + "-" +
                                  std::to_string(sequence.fetch_add(1, std::memory_order_relaxed));
    const std::string bytes = encode(key, log, payload);
    {
        fd_guard file(::openat(directory_fd_, temporary.c_str(),
                               O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
        if (file.fd < 0) {
            trace("write skipped for " + describe(key) + ": cannot create a file in " + options_.directory.string() +
                  ": " + errno_text(errno));
            return false;
        }
        if (!write_all(file.fd, bytes) || ::fdatasync(file.fd) != 0) {
            const int e = errno;
            ::unlinkat(directory_fd_, temporary.c_str(), 0);
            trace("write skipped for " + describe(key) + ": " + errno_text(e));
            return false;
        }
    }
    if (options_.before_rename) options_.before_rename();
    if (::renameat(directory_fd_, temporary.c_str(), directory_fd_, name.c_str()) != 0) {
        const int e = errno;
        ::unlinkat(directory_fd_, temporary.c_str(), 0);
        trace("write skipped for " + describe(key) + ": rename: " + errno_text(e));
        return false;
    }
    trace("wrote " + name + " for " + describe(key) + " (" + std::to_string(bytes.size()) + " bytes)");

    if (total_bytes() > options_.max_bytes) evict_if_over_limit();
    return true;
}

std::vector<persistent_cache::file_stat> persistent_cache::scan(bool entries, bool temporaries) const {
    std::vector<file_stat> files;
    if (directory_fd_ < 0) return files;
    const int fd = ::dup(directory_fd_);
    if (fd < 0) return files;
    std::unique_ptr<DIR, int (*)(DIR*)> dir(::fdopendir(fd), ::closedir);
    if (!dir) {
        ::close(fd);
        return files;
    }
    ::rewinddir(dir.get());
    while (const dirent* d = ::readdir(dir.get())) {
        const std::string_view name(d->d_name);
        const bool is_entry = is_entry_name(name);
        const bool is_temporary = name.starts_with(temporary_prefix);
        if (!((entries && is_entry) || (temporaries && is_temporary))) continue;
        struct stat st{};
        if (::fstatat(directory_fd_, d->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue; // removed meanwhile
        if (!S_ISREG(st.st_mode)) continue;
        files.push_back({std::string(name), static_cast<std::uint64_t>(st.st_size), mtime_ns(st)});
    }
    return files;
}

std::uint64_t persistent_cache::total_bytes() const {
    std::uint64_t total = 0;
    for (const auto& f : scan(true, false))
        total += f.bytes;
    return total;
}

std::vector<entry_info> persistent_cache::list() const {
    std::vector<entry_info> out;
    for (const auto& f : scan(true, false)) {
        entry_info info;
        info.file = f.name;
        info.bytes = f.bytes;
        info.last_use = f.mtime_ns / 1'000'000'000;
        fd_guard file(::openat(directory_fd_, f.name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
        if (file.fd < 0) continue; // removed meanwhile
        // The key's size is in the header; read the header first, then the key.
        std::string prefix;
        read_all(file.fd, prefix, std::min<std::uint64_t>(f.bytes, entry_header_bytes));
        if (prefix.size() == entry_header_bytes) {
            std::uint64_t key_size = 0;
            for (int i = 0; i < 8; ++i)
                key_size |= std::uint64_t{static_cast<unsigned char>(prefix[16 + static_cast<std::size_t>(i)])} << (8 * i);
            if (key_size <= f.bytes - entry_header_bytes) {
                std::string key;
                read_all(file.fd, key, key_size);
                prefix += key;
            }
        }
        auto key = decode_key_only(prefix, f.bytes);
        if (key.index() == 1) {
            info.problem = std::get<1>(key);
        } else if (auto parsed = parse(std::get<0>(key))) {
            info.key = std::move(*parsed);
        } else {
            info.problem = "the key does not parse";
        }
        out.push_back(std::move(info));
    }
    std::sort(out.begin(), out.end(), [](const entry_info& a, const entry_info& b) { return a.file < b.file; });
    return out;
}

cleanup_result persistent_cache::remove_oldest(std::vector<file_stat> files, std::uint64_t target_bytes) {
    cleanup_result result;
    std::uint64_t total = 0;
    for (const auto& f : files)
        total += f.bytes;
    std::sort(files.begin(), files.end(), [](const file_stat& a, const file_stat& b) { return a.mtime_ns < b.mtime_ns; });
    for (const auto& f : files) {
        if (total <= target_bytes) break;
        if (::unlinkat(directory_fd_, f.name.c_str(), 0) == 0) {
            trace("evicted " + f.name + " (" + std::to_string(f.bytes) + " bytes)");
            ++result.entries;
            result.bytes += f.bytes;
        }
        total -= f.bytes; // gone either way: removed here or by another process
    }
    return result;
}

// One evicting process at a time: the others wait for it, then look again. A writer that only skipped eviction
// while another process held the lock could leave entries written after that process's scan over the limit for good.
// The wait is bounded (eviction_lock_wait, 10 s): a stopped process holding the lock must not hang every writer.
int persistent_cache::take_eviction_lock() const {
    const int fd = ::openat(directory_fd_, lock_name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        trace("eviction skipped: cannot open " + std::string(lock_name) + ": " + errno_text(errno));
        return -1;
    }
    const auto deadline = std::chrono::steady_clock::now() + options_.eviction_lock_wait;
    while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int e = errno;
        if ((e != EWOULDBLOCK && e != EINTR) || std::chrono::steady_clock::now() > deadline) {
            trace("eviction skipped: " + std::string(lock_name) + ": " +
                  (e == EWOULDBLOCK ? "another process held it for " +
                                          std::to_string(options_.eviction_lock_wait.count()) + " ms"
                                    : errno_text(e)));
            ::close(fd);
            return -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return fd;
}

cleanup_result persistent_cache::evict_to(std::uint64_t target_bytes) {
    if (directory_fd_ < 0) return {};
    fd_guard lock(take_eviction_lock());
    if (lock.fd < 0) return {};
    remove_stale_temporaries();
    return remove_oldest(scan(true, false), target_bytes);
}

void persistent_cache::evict_if_over_limit() {
    fd_guard lock(take_eviction_lock());
    if (lock.fd < 0) return;
    // Under the lock: another process may have evicted while this one waited.
    auto files = scan(true, false);
    std::uint64_t total = 0;
    for (const auto& f : files)
        total += f.bytes;
    if (total <= options_.max_bytes) return;
    trace("total " + std::to_string(total) + " bytes passes the limit of " + std::to_string(options_.max_bytes));
    remove_stale_temporaries();
    remove_oldest(std::move(files), options_.max_bytes / 4 * 3);
}

cleanup_result persistent_cache::evict_older_than(std::chrono::seconds age) {
    cleanup_result result;
    if (directory_fd_ < 0) return result;
    struct timespec now{};
    ::clock_gettime(CLOCK_REALTIME, &now);
    const std::int64_t limit = std::int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec -
                               static_cast<std::int64_t>(age.count()) * 1'000'000'000;
    for (const auto& f : scan(true, false)) {
        if (f.mtime_ns >= limit) continue;
        if (::unlinkat(directory_fd_, f.name.c_str(), 0) == 0) {
            trace("evicted " + f.name + " (unused for longer than " + std::to_string(age.count()) + " s)");
            ++result.entries;
            result.bytes += f.bytes;
        }
    }
    remove_stale_temporaries();
    return result;
}

void persistent_cache::remove_stale_temporaries() const {
    struct timespec now{};
    ::clock_gettime(CLOCK_REALTIME, &now);
    const std::int64_t limit = std::int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec - stale_temporary_ns;
    for (const auto& f : scan(false, true))
        if (f.mtime_ns < limit && ::unlinkat(directory_fd_, f.name.c_str(), 0) == 0)
            trace("removed " + f.name + ", left by a writer that did not finish");
}

verify_result persistent_cache::verify() {
    verify_result result;
    if (directory_fd_ < 0) return result;
    for (const auto& f : scan(true, false)) {
        fd_guard file(::openat(directory_fd_, f.name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
        if (file.fd < 0) continue;
        struct stat st{};
        if (::fstat(file.fd, &st) != 0) continue;
        std::string bytes;
        std::string problem;
        if (!read_all(file.fd, bytes, static_cast<std::uint64_t>(st.st_size))) problem = "changed size while read";
        if (problem.empty()) {
            auto decoded = decode(bytes);
            if (auto* reason = std::get_if<std::string>(&decoded)) problem = *reason;
            else if (!parse(std::get<entry>(decoded).key)) problem = "the key does not parse";
            else if (!f.name.starts_with(key_hash(std::get<entry>(decoded).key) + "-"))
                problem = "stored under another program's name";
        }
        if (problem.empty()) {
            ++result.good;
        } else if (remove_if_same(f.name, file.fd)) {
            trace("verify removed " + f.name + ": " + problem);
            result.removed.push_back(f.name + ": " + problem);
        }
    }
    remove_stale_temporaries();
    return result;
}

cleanup_result persistent_cache::clear() {
    cleanup_result result;
    for (const auto& f : scan(true, true)) {
        if (::unlinkat(directory_fd_, f.name.c_str(), 0) == 0) {
            ++result.entries;
            result.bytes += f.bytes;
        }
    }
    trace("cleared " + std::to_string(result.entries) + " files");
    return result;
}

} // namespace encore::cache
