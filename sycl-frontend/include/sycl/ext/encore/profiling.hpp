// Encore's SYCL extension for timelines of replays (docs/profiling.md): the engine's profiler
// (encore/runtime/profiler.hpp) from SYCL code, with SYCL's errors.
//
// While a profile records, every launch of an executable command_graph and every command group submitted
// eagerly leaves slices in it: on the native device one per node, timed by the worker thread that ran it; on
// other devices one per partition and per eager command, from their events. A profile is written as a Chrome
// trace-event file (open it in ui.perfetto.dev or chrome://tracing), and draws a graph coloured by measured
// time with its critical path. ENCORE_PROFILE=FILE.json does the same for a whole program without code.
//
//     namespace sycl_encore = sycl::ext::encore;
//     sycl_encore::start_profiling();
//     for (int i = 0; i < 100; ++i) q.ext_oneapi_graph(exec);
//     q.wait();
//     sycl_encore::profile p = sycl_encore::stop_profiling();
//     p.write("replays.json");
//     p.print_timed_graph(graph, "replays-timed.dot");   // then sycl_encore::render_svg
#pragma once

#include <memory>
#include <string>

#include "sycl/ext/oneapi/experimental/graph.hpp"

namespace encore {
struct trace;
}

namespace sycl {
inline namespace _V1 {
namespace ext::encore {

class profile {
public:
    // Writes the Chrome trace; throws sycl::exception(errc::invalid) naming the path when it cannot be
    // written.
    void write(const std::string& json_path) const;
    // Writes `g`'s DOT (print_graph's) with each node filled white to red by its mean time over the profile's
    // launches of executable graphs finalized from `g`, the time in its label, and the critical path in bold
    // red. The path must end in ".dot"; throws errc::invalid when the profile holds no launch of `g`.
    void print_timed_graph(
        const oneapi::experimental::command_graph<oneapi::experimental::graph_state::modifiable>& g,
        const std::string& dot_path) const;
    // The engine's data: slices, tracks, graphs (encore/runtime/profiler.hpp).
    const ::encore::trace& ext_encore_trace() const noexcept { return *trace_; }

    explicit profile(std::shared_ptr<const ::encore::trace> t) : trace_(std::move(t)) {}

private:
    std::shared_ptr<const ::encore::trace> trace_;
};

// Starts recording; throws errc::invalid when a profile already records (ENCORE_PROFILE's included).
void start_profiling();
// Stops and returns what was recorded (wait for the queues first); throws errc::invalid when none records.
profile stop_profiling();
bool profiling_active() noexcept;

} // namespace ext::encore
} // namespace _V1
} // namespace sycl
