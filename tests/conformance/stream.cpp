// SYCL 2020 section 4.16 (stream): kernels write statements to the standard output; each work-item's statement
// arrives whole; integers in every base with showbase/showpos/setw, characters, booleans, strings, floating-point
// values in defaultfloat, fixed, scientific and hexfloat with setprecision (compared with the host's printf), vec,
// marray, id, range, item, nd_item, group, h_item and nd_range; a statement longer than its buffer; the queries and
// the errors (a stream in a graph). The program's standard output is captured into a file around each kernel. One
// body built three ways (tests/conformance/meson.build, tests/compiler/meson.build).
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <sycl/sycl.hpp>

#include "shared_array.hpp"

namespace {

// What `run` wrote to the standard output (file descriptor 1), the queue drained.
template <typename F> std::string captured_stdout(F run) {
    std::fflush(stdout);
    const int saved = dup(1);
    std::FILE* file = std::tmpfile();
    REQUIRE(file != nullptr);
    dup2(fileno(file), 1);
    run();
    std::fflush(stdout);
    dup2(saved, 1);
    close(saved);
    std::string text;
    std::rewind(file);
    for (int c; (c = std::fgetc(file)) != EOF;)
        text += static_cast<char>(c);
    std::fclose(file);
    return text;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t at = 0;
    for (std::size_t end; (end = text.find('\n', at)) != std::string::npos; at = end + 1)
        lines.push_back(text.substr(at, end - at));
    if (at < text.size()) lines.push_back(text.substr(at));
    return lines;
}

std::string printed(const char* format, double v) {
    char text[128];
    std::snprintf(text, sizeof text, format, v);
    return text;
}

} // namespace

TEST_CASE("stream: every work-item's statements arrive whole") {
    sycl::queue q;
    MESSAGE("device: " << q.get_device().get_info<sycl::info::device::name>());
    constexpr std::size_t n = 64;
    const std::string text = captured_stdout([&] {
        q.submit([&](sycl::handler& h) {
             sycl::stream out(4096, 128, h);
             h.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) {
                 out << "item " << i[0] << ": " << static_cast<int>(i[0]) * -3 << sycl::endl;
             });
         }).wait();
    });
    auto lines = lines_of(text);
    std::vector<std::string> expected;
    for (std::size_t i = 0; i < n; ++i)
        expected.push_back("item " + std::to_string(i) + ": " + std::to_string(static_cast<int>(i) * -3));
    std::sort(lines.begin(), lines.end());
    std::sort(expected.begin(), expected.end());
    CHECK(lines == expected);
}

TEST_CASE("stream: integers, characters, booleans, strings and manipulators") {
    sycl::queue q;
    const std::string text = captured_stdout([&] {
        q.submit([&](sycl::handler& h) {
             sycl::stream out(4096, 256, h);
             h.single_task([=] {
                 out << 255 << " " << sycl::hex << 255 << " " << sycl::showbase << 255u << " " << sycl::oct << 8
                     << " " << sycl::dec << -2147483647 - 1 << sycl::endl;
                 out << sycl::showpos << 5 << " " << -5 << sycl::noshowpos << " " << sycl::setw(6) << 42 << "|"
                     << sycl::setw(3) << 'x' << "|" << sycl::endl;
                 out << 'c' << " " << true << " " << false << " " << "text" << " " << 18446744073709551615ull
                     << " " << static_cast<short>(-7) << sycl::endl;
                 out << sycl::vec<int, 3>{1, -2, 3} << " " << sycl::id<2>{4, 5} << " " << sycl::range<2>{6, 7}
                     << " " << sycl::marray<short, 2>{9, -10} << sycl::endl;
             });
         }).wait();
    });
    CHECK(lines_of(text) == std::vector<std::string>{"255 ff 0xff 010 -2147483648", "+5 -5     42|  x|",
                                                     "c true false text 18446744073709551615 -7",
                                                     "1, -2, 3 {4, 5} {6, 7} 9, -10"});
}

TEST_CASE("stream: items, nd_items, groups, h_items and nd_ranges print their ids and ranges") {
    sycl::queue q;
    const sycl::nd_range<1> launch{sycl::range<1>{64}, sycl::range<1>{16}};
    const std::string text = captured_stdout([&] {
        q.submit([&](sycl::handler& h) {
             sycl::stream out(4096, 256, h);
             h.parallel_for(sycl::nd_range<2>{{4, 8}, {2, 4}}, [=](sycl::nd_item<2> it) {
                 if (it.get_global_linear_id() == 13) {
                     out << it << sycl::endl;
                     out << it.get_group() << sycl::endl;
                 }
             });
         }).wait();
        q.submit([&](sycl::handler& h) {
             sycl::stream out(4096, 256, h);
             h.parallel_for(sycl::range<1>{3}, [=](sycl::item<1> it) {
                 if (it[0] == 2) out << it << " " << launch << sycl::endl;
             });
         }).wait();
        q.submit([&](sycl::handler& h) {
             sycl::stream out(4096, 256, h);
             h.parallel_for_work_group(sycl::range<1>{2}, sycl::range<1>{4}, [=](sycl::group<1> g) {
                 g.parallel_for_work_item([&](sycl::h_item<1> it) {
                     if (it.get_global_id(0) == 5) out << it << sycl::endl;
                 });
             });
         }).wait();
    });
    // Global item 13 of {4, 8}: {1, 5}; its group {0, 1} of {2, 2}, local id {1, 1}.
    CHECK(lines_of(text) == std::vector<std::string>{
                                "nd_item(global_id: {1, 5}, local_id: {1, 1})",
                                "group(id: {0, 1}, local_range: {2, 4}, group_range: {2, 2})",
                                "item(range: {3}, id: {2}) nd_range(global_range: {64}, local_range: {16})",
                                "h_item(global_id: {5}, logical_local_id: {1}, physical_local_id: {1})"});
}

TEST_CASE("stream: floating-point values print as printf prints them") {
    sycl::queue q;
    const std::string text = captured_stdout([&] {
        q.submit([&](sycl::handler& h) {
             sycl::stream out(4096, 256, h);
             h.single_task([=] {
                 out << 3.5 << " " << 0.1f << " " << 1234567.0 << " " << 1e-7 << " " << 6.02e23 << " " << 0.0 << " "
                     << -100.0 << " " << 123456.0 << sycl::endl;
                 out << sycl::fixed << sycl::setprecision(3) << 3.14159 << " " << -0.0006 << " " << 2.5 << " "
                     << 1e20 << sycl::endl;
                 out << sycl::scientific << sycl::setprecision(2) << 12345.678 << " " << 0.00012 << " " << 9.999
                     << sycl::endl;
                 out << sycl::hexfloat << 1.0 << " " << 0.75 << " " << -3.0 << sycl::endl;
                 out << sycl::setprecision(10) << 1.0 / 3 << " " << sycl::setprecision(2) << 1.0 / 3 << " "
                     << sycl::half(1.5f) << " " << sycl::vec<float, 2>{0.25f, -8.f} << sycl::endl;
             });
         }).wait();
    });
    const std::vector<std::string> expected{
        printed("%g", 3.5) + " " + printed("%g", 0.1f) + " " + printed("%g", 1234567.0) + " " + printed("%g", 1e-7) +
            " " + printed("%g", 6.02e23) + " 0 -100 123456",
        printed("%.3f", 3.14159) + " " + printed("%.3f", -0.0006) + " 2.500 " + printed("%.3f", 1e20),
        printed("%.2e", 12345.678) + " " + printed("%.2e", 0.00012) + " " + printed("%.2e", 9.999),
        printed("%a", 1.0) + " " + printed("%a", 0.75) + " " + printed("%a", -3.0),
        printed("%.10g", 1.0 / 3) + " " + printed("%.2g", 1.0 / 3) + " 1.5 0.25, -8"};
    CHECK(lines_of(text) == expected);
}

TEST_CASE("stream: a statement longer than its buffer arrives whole, in order") {
    sycl::queue q;
    const std::string text = captured_stdout([&] {
        q.submit([&](sycl::handler& h) {
             sycl::stream out(4096, 1024, h);
             h.single_task([=] {
                 auto line = out << "[";
                 for (int i = 0; i < 300; ++i)
                     line << "ab";
                 line << "]" << sycl::endl;
             });
         }).wait();
    });
    std::string expected = "[";
    for (int i = 0; i < 300; ++i)
        expected += "ab";
    CHECK(text == expected + "]\n");
}

TEST_CASE("stream: queries, and the errors the specification gives") {
    sycl::queue q;
    q.submit([&](sycl::handler& h) {
         sycl::stream out(1024, 64, h);
         CHECK(out.size() == 1024);
         CHECK(out.get_work_item_buffer_size() == 64);
         CHECK(out.get_precision() == 6);
         CHECK(out.get_stream_mode() == sycl::stream_manipulator::dec);
         const sycl::stream copy = out;
         CHECK(copy == out);
     }).wait();
    CHECK(errc_of([&] { q.submit([&](sycl::handler& h) { sycl::stream out(0, 0, h); }); }) == sycl::errc::invalid);
    CHECK(errc_of([&] { q.submit([&](sycl::handler& h) { sycl::stream out(64, 128, h); }); }) == sycl::errc::invalid);
    sycl::ext::oneapi::experimental::command_graph g{q.get_context(), q.get_device()};
    CHECK(errc_of([&] { g.add([&](sycl::handler& h) { sycl::stream out(1024, 64, h); }); }) == sycl::errc::invalid);
    g.begin_recording(q);
    CHECK(errc_of([&] { q.submit([&](sycl::handler& h) { sycl::stream out(1024, 64, h); }); }) == sycl::errc::invalid);
    g.end_recording();
}
