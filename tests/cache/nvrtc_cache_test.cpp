// NVRTC builds through the cache: a later process loads the cubin from disk (no NVRTC, no driver JIT), the same
// process from memory. Needs NVRTC (a library), not a GPU. Each scenario runs in a fresh child process, as a
// separate run of a program would, because the process-wide caches are created once per process.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "cache_test_support.hpp"
#include "encore/backends/cuda/cuda_module.hpp"
#include "encore/backends/cuda/nvrtc_program.hpp"
#include "encore/cache/program_cache.hpp"
#include "encore/graph/error.hpp"

using namespace cache_test;
namespace cuda = encore::cuda;

namespace {

constexpr const char* source = R"(extern "C" __global__ void scale(float a, float* x) { x[threadIdx.x] *= a; })";

// Exit codes of the child say what it saw.
int build_in_child(const fs::path& dir, const std::vector<std::string>& options, std::string* out_bytes_file) {
    return in_child([&] {
        ::setenv("ENCORE_CACHE_DIR", dir.c_str(), 1);
        const cuda::program_binary b = cuda::build_program(source, options, "scale.cu");
        if (out_bytes_file) write_file(*out_bytes_file, std::string(b.bytes.begin(), b.bytes.end()));
        const auto s = encore::cache::program_cache::process().statistics();
        const bool cubin = b.kind == cuda::program_binary::format::cubin;
        // A second build in the same process is a memory hit.
        const cuda::program_binary again = cuda::build_program(source, options, "scale.cu");
        if (again.bytes != b.bytes || encore::cache::program_cache::process().statistics().memory_hits != 1)
            return 20;
        if (s.builds == 1 && s.disk_hits == 0) return cubin ? 1 : 11; // compiled
        if (s.builds == 0 && s.disk_hits == 1) return cubin ? 2 : 12; // from disk
        return 30;
    });
}

} // namespace

TEST_CASE("NVRTC through the cache: cold build, then a disk hit in the next process, identical cubin") {
    temporary_directory tmp;
    const fs::path dir = tmp.path() / "cache";
    std::string first = (tmp.path() / "first").string(), second = (tmp.path() / "second").string();
    CHECK(build_in_child(dir, {"-arch=sm_90"}, &first) == 1);
    CHECK(build_in_child(dir, {"-arch=sm_90"}, &second) == 2);
    CHECK(read_file(first) == read_file(second));
    CHECK(read_file(first).starts_with("\x7f" "ELF"));
    // Another architecture, other options or PTX are other programs.
    CHECK(build_in_child(dir, {"-arch=sm_80"}, nullptr) == 1);
    CHECK(build_in_child(dir, {"-arch=sm_90", "-DUNUSED=1"}, nullptr) == 1);
    CHECK(build_in_child(dir, {}, nullptr) == 11);
    CHECK(build_in_child(dir, {}, nullptr) == 12);
    CHECK(files_in(dir / "v1", ".entry").size() == 4);
}

TEST_CASE("NVRTC through the cache: a source that does not compile is not cached") {
    temporary_directory tmp;
    const fs::path dir = tmp.path() / "cache";
    const int status = in_child([&] {
        ::setenv("ENCORE_CACHE_DIR", dir.c_str(), 1);
        for (int i = 0; i < 2; ++i) {
            try {
                cuda::build_program("extern \"C\" __global__ void broken( { }", {}, "broken.cu");
                return 1;
            } catch (const encore::error& e) {
                if (e.code() != encore::errc::build_failure) return 2;
                if (std::string(e.what()).find("broken.cu") == std::string::npos) return 3;
            }
        }
        return encore::cache::program_cache::process().statistics().failed_builds == 2 ? 0 : 4;
    });
    CHECK(status == 0);
    CHECK(files_in(dir / "v1", ".entry").empty());
}

TEST_CASE("a cubin's kernels are found by name (the ELF's .text.<name> sections)") {
    temporary_directory tmp;
    const fs::path dir = tmp.path() / "cache";
    // In a child, like the others: the process-wide caches must not be created in this process.
    const int status = in_child([&] {
        ::setenv("ENCORE_CACHE_DIR", dir.c_str(), 1);
        const std::vector<std::string> sm90 = {"-arch=sm_90"};
        auto m = cuda::module::load(cuda::build_program(source, sm90, "scale.cu"));
        if (m->format() != cuda::program_binary::format::cubin) return 1;
        if (!m->has_kernel("scale")) return 2;
        if (m->has_kernel("sca") || m->has_kernel("nothing")) return 3;
        try {
            cuda::get_kernel(m, "nothing");
            return 4;
        } catch (const encore::error& e) {
            if (e.code() != encore::errc::invalid_argument) return 5;
        }
        // A damaged image answers no, without reading past its end.
        cuda::program_binary cut = cuda::build_program(source, sm90, "scale.cu");
        cut.bytes.resize(100);
        return cuda::module::load(cut)->has_kernel("scale") ? 6 : 0;
    });
    CHECK(status == 0);
}

// set_arg checks need a kernel's argument count: a PTX entry's parameter list gives it; a cubin keeps it in
// metadata Encore does not read (no count, no check).
TEST_CASE("a PTX kernel knows how many arguments it takes") {
    temporary_directory tmp;
    const fs::path dir = tmp.path() / "cache";
    const int status = in_child([&] {
        ::setenv("ENCORE_CACHE_DIR", dir.c_str(), 1);
        auto ptx = cuda::module::load(cuda::build_program(source, {}, "scale.cu"));
        if (ptx->format() != cuda::program_binary::format::ptx) return 1;
        if (cuda::get_kernel(ptx, "scale")->argument_count() != std::optional<std::size_t>(2)) return 2;
        constexpr const char* none = R"(extern "C" __global__ void none() {})";
        auto empty = cuda::module::load(cuda::build_program(none, {}, "none.cu"));
        if (cuda::get_kernel(empty, "none")->argument_count() != std::optional<std::size_t>(0)) return 3;
        const std::vector<std::string> sm90 = {"-arch=sm_90"};
        auto cubin = cuda::module::load(cuda::build_program(source, sm90, "scale.cu"));
        return cuda::get_kernel(cubin, "scale")->argument_count() ? 4 : 0;
    });
    CHECK(status == 0);
}
