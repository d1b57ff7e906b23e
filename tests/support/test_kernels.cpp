#include "support/test_kernels.hpp"

#include <map>
#include <mutex>
#include <span>
#include <string>
#include <utility>

#include "encore/runtime/kernel_function.hpp"
#include "encore/graph/error.hpp"
#ifdef ENCORE_TESTS_OPENCL
#include "encore/backends/opencl/opencl_program.hpp"
#endif
#ifdef ENCORE_TESTS_LEVEL_ZERO
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <vector>

#include "encore/backends/level_zero/level_zero_module.hpp"
#endif

namespace encore::testing {
namespace {

using arguments = std::span<const kernel_argument>;

test_kernels host_kernels() {
    test_kernels k;
    k.add = make_kernel("add", [](const work_item& it, arguments a) {
        static_cast<int*>(a[0].pointer())[it.global_id[0]] += a[1].scalar<int>();
    });
    k.affine = make_kernel("affine", [](const work_item&, arguments a) {
        auto* p = static_cast<unsigned*>(a[0].pointer());
        *p = a[1].scalar<unsigned>() * *p + a[2].scalar<unsigned>();
    });
    k.scale = make_kernel("scale", [](const work_item& it, arguments a) {
        static_cast<int*>(a[0].pointer())[it.global_id[0]] *= a[1].scalar<int>();
    });
    k.set_2d = make_kernel("set_2d", [](const work_item& it, arguments a) {
        static_cast<int*>(a[0].pointer())[it.global_id[0] * a[2].scalar<unsigned>() + it.global_id[1]] =
            a[1].scalar<int>();
    });
    k.combine = make_kernel("combine", [](const work_item&, arguments a) {
        auto* v = static_cast<unsigned*>(a[0].pointer());
        const auto i = a[1].scalar<unsigned>();
        const auto* preds = static_cast<const unsigned*>(a[2].pointer());
        const auto count = a[3].scalar<unsigned>();
        unsigned sum = i;
        for (unsigned j = 0; j < count; ++j)
            sum += v[preds[j]] * (preds[j] % 7 + 1);
        v[i] = sum;
    });
    k.cell = make_kernel("cell", [](const work_item&, arguments a) {
        auto* c = static_cast<int*>(a[0].pointer());
        const auto i = a[1].scalar<unsigned>(), j = a[2].scalar<unsigned>(), w = a[3].scalar<unsigned>();
        const int up = j > 0 ? c[(j - 1) * w + i] : 0, left = i > 0 ? c[j * w + i - 1] : 0;
        c[j * w + i] = (1 + up + left) % 1000003;
    });
    k.mix = make_kernel("mix", [](const work_item& it, arguments a) {
        const auto i = it.global_id[0];
        auto* dst = static_cast<unsigned*>(a[0].pointer());
        dst[i] = dst[i] * 2654435761u + static_cast<const unsigned*>(a[1].pointer())[i] + a[2].scalar<unsigned>();
    });
    return k;
}

// The set from a program or module whose kernels carry the names above (`mix` may be named otherwise); `get`
// takes a kernel by name.
template <typename Get> [[maybe_unused]] test_kernels kernels_named(Get get, const char* mix = "mix") {
    return {get("add"), get("affine"), get("scale"), get("set_2d"), get("combine"), get("cell"), get(mix)};
}

#ifdef ENCORE_TESTS_OPENCL
// The same kernels in OpenCL C. SYCL's dimension d-1 is OpenCL's dimension 0 (docs/opencl-backend.md), so the
// 2-D kernel's SYCL id i0 is get_global_id(1).
constexpr const char* opencl_source = R"(
kernel void add(global int* p, int v) { p[get_global_id(0)] += v; }
kernel void affine(global uint* p, uint a, uint b) { p[0] = a * p[0] + b; }
kernel void scale(global int* p, int f) { p[get_global_id(0)] *= f; }
kernel void set_2d(global int* p, int value, uint width) {
    p[get_global_id(1) * width + get_global_id(0)] = value;
}
kernel void combine(global uint* v, uint i, global const uint* preds, uint count) {
    uint sum = i;
    for (uint j = 0; j < count; ++j)
        sum += v[preds[j]] * (preds[j] % 7 + 1);
    v[i] = sum;
}
kernel void mix_step(global uint* dst, global const uint* src, uint salt) {
    size_t i = get_global_id(0);
    dst[i] = dst[i] * 2654435761u + src[i] + salt;
}
kernel void cell(global int* c, uint i, uint j, uint w) {
    int up = j > 0 ? c[(j - 1) * w + i] : 0;
    int left = i > 0 ? c[j * w + i - 1] : 0;
    c[j * w + i] = (1 + up + left) % 1000003;
}
)";

test_kernels opencl_kernels(const device& d) {
    const auto program =
        opencl::program::load(opencl::build_program(d, opencl::program_source::opencl_c(opencl_source)));
    return kernels_named([&](const char* name) { return opencl::get_kernel(program, name); }, "mix_step");
}
#endif

#ifdef ENCORE_TESTS_LEVEL_ZERO
// The same kernels as a native binary of the Level Zero test driver (tests/level_zero/kernels/test_kernels.cpp, a
// host shared object with the driver's kernel ABI), whose path meson test gives in ENCORE_ZE_TEST_KERNELS.
test_kernels level_zero_kernels(const device& d) {
    const char* path = std::getenv("ENCORE_ZE_TEST_KERNELS");
    if (!path)
        throw error(errc::feature_not_supported,
                    "tests/support/test_kernels: ENCORE_ZE_TEST_KERNELS does not name the Level Zero test kernels");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw error(errc::invalid_argument,
                    std::string("tests/support/test_kernels: cannot read ENCORE_ZE_TEST_KERNELS='") + path + "'");
    const std::vector<unsigned char> binary{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const auto module =
        level_zero::module::load(level_zero::build_module(d, level_zero::module_source::native(binary)));
    return kernels_named([&](const char* name) { return level_zero::get_kernel(module, name); });
}
#endif

} // namespace

bool runs_host_kernels(const device& d) {
    const auto backend = d.backend_name();
    return backend == "native" || backend == "counting" || backend == "counting_gpu";
}

std::string host_kernels_skip_reason(const device& d) {
    return "skipped on " + std::string(d.backend_name()) +
           ": this body needs host-compiled kernels (C++ lambdas), which only the native backend runs";
}

const test_kernels& kernels_for(const device& d) {
    static std::mutex mutex;
    static std::map<std::pair<std::string, std::uint32_t>, test_kernels> built;
    std::lock_guard lock(mutex);
    const auto key = std::make_pair(std::string(d.backend_name()), d.index());
    if (auto found = built.find(key); found != built.end()) return found->second;
    if (runs_host_kernels(d)) return built.emplace(key, host_kernels()).first->second;
#ifdef ENCORE_TESTS_OPENCL
    if (d.backend_name() == "opencl") return built.emplace(key, opencl_kernels(d)).first->second;
#endif
#ifdef ENCORE_TESTS_LEVEL_ZERO
    if (d.backend_name() == "level_zero") return built.emplace(key, level_zero_kernels(d)).first->second;
#endif
    throw error(errc::feature_not_supported,
                "tests/support/test_kernels: no test kernels for the " + std::string(d.backend_name()) +
                    " backend in this build");
}

std::string opencl_c_test_kernel(const std::string& name, const std::string& params, const std::string& body) {
    // params is the parenthesized C++ list: each pointer parameter gets OpenCL C's `global`.
    std::string list;
    std::size_t start = params.find('(') + 1;
    const std::size_t end = params.rfind(')');
    while (start < end) {
        std::size_t comma = params.find(',', start);
        if (comma == std::string::npos || comma > end) comma = end;
        std::string parameter = params.substr(start, comma - start);
        parameter.erase(0, parameter.find_first_not_of(" \t\n"));
        if (!list.empty()) list += ", ";
        list += (parameter.find('*') != std::string::npos ? "global " : "") + parameter;
        start = comma + 1;
    }
    // SYCL's linear id: its dimension d-1 is OpenCL's dimension 0, so OpenCL's dimension 0 varies fastest.
    return "kernel void " + name + "(" + list +
           ") {\n    size_t i = ((get_global_id(2) - get_global_offset(2)) * get_global_size(1)"
           " + (get_global_id(1) - get_global_offset(1))) * get_global_size(0)"
           " + (get_global_id(0) - get_global_offset(0));\n    " +
           body + "\n}\n";
}

std::shared_ptr<const kernel> source_kernel(const device& d, const std::string& source, const std::string& name) {
#ifdef ENCORE_TESTS_OPENCL
    if (d.backend_name() == "opencl") {
        static std::mutex mutex;
        static std::map<std::pair<std::uint32_t, std::string>, std::shared_ptr<const opencl::program>> built;
        std::lock_guard lock(mutex);
        auto& program = built[{d.index(), source}];
        if (!program)
            program = opencl::program::load(opencl::build_program(d, opencl::program_source::opencl_c(source)));
        return opencl::get_kernel(program, name);
    }
#endif
    throw error(errc::feature_not_supported, "tests/support/test_kernels: no OpenCL C test kernel '" + name +
                                                 "' for the " + std::string(d.backend_name()) +
                                                 " backend in this build");
}

} // namespace encore::testing
