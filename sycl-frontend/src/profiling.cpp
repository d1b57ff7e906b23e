// sycl::ext::encore's profiling functions (sycl/ext/encore/profiling.hpp) over encore::profiler.
#include "sycl/ext/encore/profiling.hpp"

#include "encore/runtime/profiler.hpp"
#include "sycl/detail/engine_error.hpp"
#include "sycl/detail/graph_impl.hpp"

namespace sycl {
inline namespace _V1 {
namespace ext::encore {

void profile::write(const std::string& json_path) const {
    sycl::detail::translate_errors([&] { ::encore::write_chrome_trace(*trace_, json_path); });
}

void profile::print_timed_graph(
    const oneapi::experimental::command_graph<oneapi::experimental::graph_state::modifiable>& g,
    const std::string& dot_path) const {
    if (dot_path.size() < 4 || dot_path.compare(dot_path.size() - 4, 4, ".dot") != 0)
        throw exception(errc::invalid, "print_timed_graph: '" + dot_path +
                                           "' must end in .dot (Graphviz DOT is the format written)");
    std::uint64_t id = 0;
    {
        std::lock_guard lock(g.impl()->mutex);
        id = g.impl()->g.id();
    }
    sycl::detail::translate_errors([&] { ::encore::write_timed_dot(*trace_, id, dot_path); });
}

void start_profiling() {
    sycl::detail::translate_errors([] { ::encore::profiler::start(); });
}

profile stop_profiling() {
    return sycl::detail::translate_errors(
        [] { return profile(std::make_shared<const ::encore::trace>(::encore::profiler::stop())); });
}

bool profiling_active() noexcept {
    return ::encore::profiler::active();
}

} // namespace ext::encore
} // namespace _V1
} // namespace sycl
