// Helpers for the cache tests: a private temporary directory, file damage, child processes, trace capture.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

#include "encore/cache/program_key.hpp"

namespace cache_test {

namespace fs = std::filesystem;

// A fresh directory under /tmp (0755, so that a child running as another user can reach inside), removed with
// everything in it at the end.
class temporary_directory {
public:
    temporary_directory() {
        std::string pattern = (fs::temp_directory_path() / "encore-cache-test-XXXXXX").string();
        if (!::mkdtemp(pattern.data())) std::abort();
        path_ = pattern;
        ::chmod(path_.c_str(), 0755);
    }
    ~temporary_directory() {
        std::error_code ec;
        // Undo permission changes a test made, then remove.
        for (auto it = fs::recursive_directory_iterator(path_, ec); !ec && it != fs::recursive_directory_iterator();
             it.increment(ec))
            if (!it->is_symlink()) ::chmod(it->path().c_str(), 0700);
        fs::remove_all(path_, ec);
    }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

inline std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_file(const fs::path& p, const std::string& bytes) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline std::vector<fs::path> files_in(const fs::path& dir, const std::string& suffix = "") {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (suffix.empty() || e.path().filename().string().ends_with(suffix)) out.push_back(e.path());
    return out;
}

// Runs `body` in a child process; returns its exit status (128 + signal when killed by one).
inline int in_child(const std::function<int()>& body) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        int code = 99;
        try {
            code = body();
        } catch (...) {
            code = 98;
        }
        ::_exit(code);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}

// Collects trace lines (thread-safe).
struct trace_log {
    std::mutex mutex;
    std::vector<std::string> lines;
    std::function<void(std::string_view)> sink() {
        return [this](std::string_view line) {
            std::lock_guard lock(mutex);
            lines.emplace_back(line);
        };
    }
    bool contains(const std::string& text) {
        std::lock_guard lock(mutex);
        for (const auto& l : lines)
            if (l.find(text) != std::string::npos) return true;
        return false;
    }
    std::size_t count(const std::string& text) {
        std::lock_guard lock(mutex);
        std::size_t n = 0;
        for (const auto& l : lines)
            n += l.find(text) != std::string::npos;
        return n;
    }
};

inline encore::cache::program_key key_of(const std::string& source, const std::string& device = "test-device") {
    return {.backend = "test", .device = device, .toolchain = "test-compiler 1.0", .source_kind = "text",
            .name = "program.txt", .options = {"-O2"}, .source = source};
}

} // namespace cache_test
