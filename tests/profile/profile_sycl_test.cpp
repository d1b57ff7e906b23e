// sycl::ext::encore's profiling functions: a recorded command_graph replayed under start_profiling/stop_profiling
// leaves one slice per node and launch in the written Chrome trace, its timed DOT has the colours, and misuse is a
// sycl::exception with errc::invalid.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>
#include <sycl/sycl.hpp>

namespace sycl_ext = sycl::ext::oneapi::experimental;
namespace sycl_encore = sycl::ext::encore;

namespace {
std::string temporary(const std::string& name) {
    return (std::filesystem::temp_directory_path() / name).string();
}

template <typename F> void check_invalid(F f, const std::string& says) {
    try {
        f();
        FAIL("no exception");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::invalid);
        CHECK_MESSAGE(std::string(e.what()).find(says) != std::string::npos, e.what());
    }
}
} // namespace

TEST_CASE("SYCL: a profiled replay of a recorded graph, its Chrome trace and its timed picture") {
    sycl::queue q;
    int* data = sycl::malloc_shared<int>(64, q);
    sycl_ext::command_graph g{q};
    g.begin_recording(q);
    auto first = q.parallel_for<class profiled_first>(64, [=](sycl::id<1> i) { data[i] = int(i[0]); });
    q.parallel_for<class profiled_second>(64, first, [=](sycl::id<1> i) { data[i] *= 2; });
    g.end_recording();
    auto exec = g.finalize();

    CHECK_FALSE(sycl_encore::profiling_active());
    sycl_encore::start_profiling();
    CHECK(sycl_encore::profiling_active());
    for (int i = 0; i < 3; ++i)
        q.ext_oneapi_graph(exec);
    q.wait_and_throw();
    const sycl_encore::profile p = sycl_encore::stop_profiling();
    CHECK(data[5] == 10);

    const auto json_path = temporary("profile-sycl.json");
    p.write(json_path);
    std::ifstream in(json_path);
    const auto j = nlohmann::json::parse(in);
    std::remove(json_path.c_str());
    int nodes = 0;
    for (const auto& e : j["traceEvents"])
        if (e["ph"] == "X" && e["cat"] == "kernel") ++nodes;
    CHECK(nodes == 2 * 3);

    const auto dot_path = temporary("profile-sycl-timed.dot");
    p.print_timed_graph(g, dot_path);
    std::ifstream dot(dot_path);
    std::stringstream text;
    text << dot.rdbuf();
    std::remove(dot_path.c_str());
    CHECK(text.str().find("fillcolor=\"#ff0000\"") != std::string::npos);
    CHECK(text.str().find("critical path: 2 nodes") != std::string::npos);

    check_invalid([&] { p.write("/nonexistent-directory/trace.json"); }, "/nonexistent-directory/trace.json");
    check_invalid([&] { p.print_timed_graph(g, temporary("timed.svg")); }, "must end in .dot");
    sycl_ext::command_graph other{q};
    check_invalid([&] { p.print_timed_graph(other, temporary("other.dot")); }, "no launch of graph");
    check_invalid([] { sycl_encore::stop_profiling(); }, "no trace is recording");
    sycl_encore::start_profiling();
    check_invalid([] { sycl_encore::start_profiling(); }, "already recording");
    sycl_encore::stop_profiling();
    sycl::free(data, q);
}
