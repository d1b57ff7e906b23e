// SPIR-V programs: a module made from spirv_module.cl by clang 15 and llvm-spirv 15 (meson.build), built with
// clCreateProgramWithIL where the device's CL_DEVICE_IL_VERSION names SPIR-V and run eagerly, in a graph and
// through the SYCL kernel compiler (source_language::spirv); refused with the reason where it does not. And SPIR
// 1.2 bitcode (spir_module.cl by clang 15 for spir64), built with clCreateProgramWithBinary where the device has
// cl_khr_spir (PoCL here): global memory, local memory with barriers and an atomic, eagerly and in a graph. And the
// route encore++'s spir64 target is to take (spir_entry.cpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <sycl/ext/encore/opencl_kernel_compiler.hpp>
#include <sycl/sycl.hpp>

#include "encore/backends/gpu/device_code.hpp"
#include "opencl_support.hpp"
#include "opencl_sycl_support.hpp"
#include "spir_entry_kernels.hpp"
#include "support/error_code.hpp"

using namespace encore;
using namespace encore::opencl_testing;
namespace syclex = sycl::ext::encore;

namespace {
// The bytes of the file ENCORE_TEST_<variable> names; empty with the reason in `why` when there is none.
std::vector<unsigned char> test_file(const char* variable, const char* what, std::string& why) {
    const char* path = std::getenv(variable);
    if (!path) {
        why = std::string("no ") + what + ": clang-15 or llvm-spirv-15 was missing when the build was configured "
                                          "(scripts/setup.sh installs them)";
        return {};
    }
    std::ifstream in(path, std::ios::binary);
    std::vector<unsigned char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (bytes.empty()) why = std::string("the ") + what + " " + path + " cannot be read";
    return bytes;
}

// The SPIR-V module's bytes; empty with the reason in `why` when there is none.
std::vector<unsigned char> spirv_module(std::string& why) {
    return test_file("ENCORE_TEST_SPIRV_MODULE", "SPIR-V module", why);
}

bool takes_spirv(const device& d) {
    return opencl::capabilities_of(d).il_version.find("SPIR-V") != std::string::npos;
}

// `source` is refused on `d`, a device without the route it needs, with feature_not_supported naming `missing`.
void check_refused(const device& d, const opencl::program_source& source, const char* missing) {
    try {
        opencl::build_program(d, source);
        FAIL("'" << d.properties().name << "' built a program without " << missing);
    } catch (const error& e) {
        CHECK(e.code() == errc::feature_not_supported);
        CHECK(std::string(e.what()).find(missing) != std::string::npos);
    }
}

// What scale_and_index leaves in an array of `n` that held i: i * factor + i.
void check_scaled(const usm<int>& a, int factor) {
    const auto values = a.values();
    for (std::size_t i = 0; i < values.size(); ++i)
        REQUIRE_MESSAGE(values[i] == static_cast<int>(i) * factor + static_cast<int>(i), "element " << i);
}
} // namespace

TEST_CASE("SPIR-V: a module runs eagerly and in a graph where the device takes IL, refused with the reason "
          "elsewhere") {
    const device d = opencl_device();
    CHECK_THROWS_WITH_AS(opencl::build_program(d, opencl::program_source::spirv({})), doctest::Contains("empty"),
                         error);
    std::string why;
    const auto module = spirv_module(why);
    if (module.empty()) {
        MESSAGE("skipped: " << why);
        return;
    }
    REQUIRE(module.size() > 20);
    if (!takes_spirv(d)) {
        check_refused(d, opencl::program_source::spirv(module), "SPIR-V");
        MESSAGE("only the refusal ran: '" << d.properties().name << "' takes no SPIR-V (CL_DEVICE_IL_VERSION)");
        return;
    }
    auto program = opencl::program::load(opencl::build_program(d, opencl::program_source::spirv(module)));
    auto scale = opencl::get_kernel(program, "scale_and_index");
    constexpr std::size_t n = 256;
    usm<int> a(n);
    std::vector<int> start(n);
    for (std::size_t i = 0; i < n; ++i)
        start[i] = static_cast<int>(i);
    a.assign(start);
    queue q(d, {.in_order = true});
    const kernel_command command{scale, {kernel_argument::from_pointer(a.data()), kernel_argument::from_scalar(3)},
                                 range(n)};
    q.submit(command).wait();
    check_scaled(a, 3);

    graph g;
    g.add(command);
    executable_graph exec(g, d);
    a.assign(start);
    q.launch(exec).wait();
    check_scaled(a, 3);
    a.assign(start);
    q.launch(exec).wait(); // replayed
    check_scaled(a, 3);

    // A damaged module (its header only) fails with the driver's words, as a build error.
    const std::vector<unsigned char> header(module.begin(), module.begin() + 20);
    CHECK_THROWS_AS(opencl::build_program(d, opencl::program_source::spirv(header)), error);
}

TEST_CASE("SPIR-V through the SYCL kernel compiler: source_language::spirv, kernels by name, set_args") {
    std::string why;
    const auto module = spirv_module(why);
    if (module.empty()) {
        MESSAGE("skipped: " << why);
        return;
    }
    sycl::queue q = opencl_queue({sycl::property::queue::in_order{}});
    const sycl::device device = q.get_device();
    std::vector<std::byte> il(module.size());
    std::transform(module.begin(), module.end(), il.begin(), [](unsigned char b) { return std::byte{b}; });
    auto source = syclex::create_kernel_bundle_from_source(q.get_context(), syclex::source_language::spirv, il);
    if (!takes_spirv(opencl_device())) {
        CHECK_THROWS_WITH_AS(syclex::build(source), doctest::Contains("SPIR-V"), sycl::exception);
        MESSAGE("only the refusal ran: '" << device.get_info<sycl::info::device::name>() << "' takes no SPIR-V");
        return;
    }
    auto bundle = syclex::build(source);
    REQUIRE(bundle.ext_oneapi_has_kernel("scale_and_index"));
    sycl::kernel k = bundle.ext_oneapi_get_kernel("scale_and_index");
    constexpr std::size_t n = 64;
    int* data = sycl::malloc_device<int>(n, q);
    std::vector<int> values(n);
    for (std::size_t i = 0; i < n; ++i)
        values[i] = static_cast<int>(i);
    q.memcpy(data, values.data(), n * sizeof(int));
    q.submit([&](sycl::handler& h) {
        h.set_args(data, 5);
        h.parallel_for(sycl::range<1>{n}, k);
    });
    q.memcpy(values.data(), data, n * sizeof(int)).wait();
    for (std::size_t i = 0; i < n; ++i)
        REQUIRE_MESSAGE(values[i] == static_cast<int>(i) * 5 + static_cast<int>(i), "element " << i);
    sycl::free(data, q);
}

TEST_CASE("SPIR bitcode: built where the device has cl_khr_spir, with local memory, barriers and an atomic; "
          "refused with the reason elsewhere") {
    const device d = opencl_device();
    CHECK_THROWS_WITH_AS(opencl::build_program(d, opencl::program_source::spir({})), doctest::Contains("empty"),
                         error);
    std::string why;
    const auto bitcode = test_file("ENCORE_TEST_SPIR_MODULE", "SPIR bitcode", why);
    if (bitcode.empty()) {
        MESSAGE("skipped: " << why);
        return;
    }
    if (!opencl::capabilities_of(d).spir) {
        check_refused(d, opencl::program_source::spir(bitcode), "cl_khr_spir");
        MESSAGE("only the refusal ran: '" << d.properties().name << "' has no cl_khr_spir");
        return;
    }
    auto program = opencl::program::load(opencl::build_program(d, opencl::program_source::spir(bitcode)));
    CHECK(program->has_kernel("scale_and_index"));
    CHECK(program->has_kernel("group_sum"));
    auto scale = opencl::get_kernel(program, "scale_and_index");
    auto sum = opencl::get_kernel(program, "group_sum");
    constexpr std::size_t n = 256, group = 64;
    usm<int> a(n), total(1);
    std::vector<int> start(n);
    for (std::size_t i = 0; i < n; ++i)
        start[i] = static_cast<int>(i);
    a.assign(start);
    total.assign(std::vector<int>{0});
    queue q(d, {.in_order = true});
    const kernel_command scaled{scale, {kernel_argument::from_pointer(a.data()), kernel_argument::from_scalar(3)},
                                range(n)};
    const kernel_command summed{sum,
                                {kernel_argument::from_pointer(a.data()), kernel_argument::local(group * sizeof(int)),
                                 kernel_argument::from_pointer(total.data())},
                                make_nd_range(1, {n, 1, 1}, {group, 1, 1})};
    q.submit(scaled);
    q.submit(summed).wait();
    check_scaled(a, 3);
    // sum of i * 3 + i over 0..255 = 4 * 255 * 256 / 2
    CHECK(total.values()[0] == 4 * 255 * 256 / 2);

    graph g; // the same two kernels, replayed twice
    auto first = g.add(scaled);
    g.add(summed, {first});
    executable_graph exec(g, d);
    for (int replay = 0; replay < 2; ++replay) {
        a.assign(start);
        total.assign(std::vector<int>{0});
        q.launch(exec).wait();
        check_scaled(a, 3);
        CHECK(total.values()[0] == 4 * 255 * 256 / 2);
    }

    // Bytes that are not bitcode: a build error, not a crash.
    const std::vector<unsigned char> damaged(64, 0x5a);
    CHECK(testing::code_of([&] { opencl::build_program(d, opencl::program_source::spir(damaged)); }) ==
          errc::build_failure);
}

// encore++'s spir64 route (docs/compiler.md, "The SPIR-V target"), proved on the device before the compiler takes
// it: spir_entry.cpp holds entries shaped as the outliner's (the kernel object by value, geometry<D>, the
// work-group's local block), compiled as Clang 15 HIP device code for spirv64, to SPIR-V and back to SPIR 1.2
// bitcode, linked with compiler/spir/generic_atomics.bc. Here: the bitcode on a cl_khr_spir device, eagerly and in
// a graph, and the SPIR-V of the same compile where the device takes IL (refused with the reason elsewhere).
TEST_CASE("encore++'s SPIR route: outlined-style entries with kernel objects by value, local memory, barriers "
          "and generic-pointer atomics") {
    const device d = opencl_device();
    std::string why;
    const auto bitcode = test_file("ENCORE_TEST_SPIR_ENTRY_MODULE", "SPIR entry module", why);
    const auto il = test_file("ENCORE_TEST_SPIR_ENTRY_SPIRV", "SPIR entry module's SPIR-V", why);
    if (bitcode.empty() || il.empty()) {
        MESSAGE("skipped: " << why);
        return;
    }
    const bool spir = opencl::capabilities_of(d).spir, takes_il = takes_spirv(d);
    if (!spir) check_refused(d, opencl::program_source::spir(bitcode), "cl_khr_spir");
    if (!takes_il) check_refused(d, opencl::program_source::spirv(il), "SPIR-V");
    if (!spir && !takes_il) {
        MESSAGE("only the refusals ran: '" << d.properties().name << "' takes neither SPIR nor SPIR-V");
        return;
    }
    auto program = opencl::program::load(opencl::build_program(
        d, spir ? opencl::program_source::spir(bitcode) : opencl::program_source::spirv(il)));
    REQUIRE(program->has_kernel("__encore_kernel_scale"));
    REQUIRE(program->has_kernel("__encore_kernel_group_sum"));
    auto scale = opencl::get_kernel(program, "__encore_kernel_scale");
    auto group_sum = opencl::get_kernel(program, "__encore_kernel_group_sum");

    constexpr std::size_t n = 250, padded = 256, group = 64, offset = 3;
    usm<int> out(n + offset), data(padded), total(1);
    usm<unsigned> groups(1);
    usm<long> largest(1);
    queue q(d, {.in_order = true});
    // The range rounded up to whole work-groups, as the GPU layer launches a range kernel: the geometry's extent
    // stops the last group's extra work-items.
    const kernel_command scaled{scale,
                                {kernel_argument::from_scalar(scale_kernel{out.data(), 7}),
                                 kernel_argument::from_scalar(encore::gpu::geometry<1>{{n}, {offset}})},
                                make_nd_range(1, {padded, 1, 1}, {group, 1, 1})};
    const kernel_command summed{
        group_sum,
        {kernel_argument::from_scalar(group_sum_kernel{data.data(), total.data(), largest.data(), groups.data()}),
         kernel_argument::from_scalar(encore::gpu::geometry<1>{{padded}, {0}}),
         kernel_argument::local(group * sizeof(int))},
        make_nd_range(1, {padded, 1, 1}, {group, 1, 1})};
    std::vector<int> start(padded);
    for (std::size_t i = 0; i < padded; ++i)
        start[i] = static_cast<int>(i);
    auto check = [&] {
        const auto o = out.values();
        for (std::size_t i = 0; i < n + offset; ++i)
            REQUIRE_MESSAGE(o[i] == (i < offset ? -1 : 7 * static_cast<int>(i)), "scale element " << i);
        const auto v = data.values();
        for (std::size_t i = 0; i < padded; ++i) // each group of 64 reversed
            REQUIRE_MESSAGE(v[i] == static_cast<int>(i / group * group + group - 1 - i % group), "element " << i);
        CHECK(total.values()[0] == 255 * 256 / 2);
        CHECK(largest.values()[0] == 255L * static_cast<long>(padded));
        CHECK(groups.values()[0] == padded / group);
    };
    auto reset = [&] {
        out.assign(std::vector<int>(n + offset, -1));
        data.assign(start);
        total.assign(std::vector<int>{0});
        groups.assign(std::vector<unsigned>{0});
        largest.assign(std::vector<long>{0});
    };
    reset();
    q.submit(scaled);
    q.submit(summed).wait();
    check();

    graph g; // the same two kernels, independent, replayed twice
    g.add(scaled);
    g.add(summed);
    executable_graph exec(g, d);
    for (int replay = 0; replay < 2; ++replay) {
        reset();
        q.launch(exec).wait();
        check();
    }
    if (spir && !takes_il) MESSAGE("ran the SPIR bitcode; the SPIR-V was refused: '" << d.properties().name
                                                                                      << "' takes no IL");
}
