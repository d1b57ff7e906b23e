// encore::profiler — timelines of replays: what ran where and when, as a Chrome trace-event file that
// Perfetto (ui.perfetto.dev) and chrome://tracing open, and the picture of a graph coloured by measured time.
//
// While a trace records, every launch of an executable graph and every eager command leaves slices: on the
// native backend one per node, timed by the worker that ran it (steady_clock), on the track of that worker
// thread; host tasks on their host threads; one enclosing slice per partition; on other backends one slice
// per partition and per eager command, from the events' profiling timestamps (docs/profiling.md says what
// each backend records). Flow arrows follow the graph's edges. Off, the profiler costs one atomic load per
// launch and per eager command.
//
// The environment variable ENCORE_PROFILE=FILE.json records from the start of the program and writes
// FILE.json when it ends (a path that cannot be written is reported on stderr at start-up, and nothing is
// recorded).
//
//     encore::profiler::start();
//     for (int i = 0; i < 10; ++i) q.launch(exec);
//     q.wait();
//     encore::trace t = encore::profiler::stop();
//     encore::write_chrome_trace(t, "replays.json");               // open in ui.perfetto.dev
//     encore::write_timed_dot(t, g.id(), "replays.dot");             // then encore::render_svg
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "encore/graph/graph.hpp"

namespace encore {

// One slice of a trace: a node of one graph launch, a partition of one launch, an eager command or a host
// task.
struct trace_slice {
    // The kernel's name, or the command's kind ("memcpy", "fill", "host_task"), or "partition 2".
    std::string name;
    std::string category;      // the command's kind ("kernel", "memcpy", ...), or "partition"
    std::uint32_t process = 0; // the device's track (trace::processes), or the host's for host tasks
    // The thread's track: a worker, a host-task thread, or a queue's on backends timed from their events.
    std::uint32_t thread = 0;
    std::int64_t start_ns = 0, end_ns = 0; // since the trace started (steady_clock)
    std::uint64_t launch = 0; // graph work: the launch's number in the trace (1, 2, ...); 0 for eager work
    std::int64_t graph = -1;  // graph work: index into trace::graphs
    std::int64_t node = -1;   // graph nodes: the node's index in the graph (trace_graph::flat)
    std::int64_t partition = -1;
};

struct trace_track {
    std::uint32_t process = 0;
    std::uint32_t thread = 0; // 0 for a process
    std::string name;         // "native:0 <cpu name>", "host tasks"; "native worker 3", "host task thread 5"
    std::string backend;      // processes only
};

struct trace_graph {
    std::uint64_t id = 0;              // the id() of the graph it was finalized from
    std::shared_ptr<const graph> flat; // as it ran: subgraphs inlined; slices' node indices refer to it
    std::vector<std::uint32_t> partition_of;
    std::uint32_t partitions = 0;
    std::uint32_t process = 0; // its device
};

struct trace_launch {
    std::uint64_t number = 0;
    std::uint32_t graph = 0; // index into graphs
    std::int64_t submit_ns = 0;
};

// What a profiler recorded.
struct trace {
    std::vector<trace_track> processes, threads;
    std::vector<trace_graph> graphs;
    std::vector<trace_launch> launches;
    std::vector<trace_slice> slices; // by start time
};

class profiler {
public:
    // Starts recording. Throws encore::error(invalid_argument) when a trace already records (ENCORE_PROFILE's
    // included).
    static void start();
    // Stops recording and returns what was recorded since start() (work still running when it is called may
    // be missing: wait for the queues first). Throws invalid_argument when no trace records.
    static trace stop();
    // Whether a trace records.
    static bool active() noexcept;
    // What was recorded so far, recording on. Throws invalid_argument when no trace records.
    static trace snapshot();
};

// The trace as Chrome's trace-event format: {"traceEvents": [...], ...}: "X" slices, "s"/"f" flow arrows
// along the graphs' edges, "i" instants at each launch's submission, "M" names of processes (devices) and
// threads; timestamps in microseconds since the trace started.
nlohmann::json to_chrome_trace(const trace& t);
// Throws encore::error(invalid_argument) naming the path when it cannot be written.
void write_chrome_trace(const trace& t, const std::string& path);

// Each node's mean time over the launches of graph `graph_id` (an encore::graph's id(); the graph as
// finalized, subgraphs inlined), in nanoseconds; -1 for nodes no launch timed. Throws invalid_argument when
// the trace holds no launch of that graph.
std::vector<double> node_durations(const trace& t, std::uint64_t graph_id);
// The graph's DOT coloured by those times, with its critical path (graph/dot_export.hpp: write_timed_dot).
void write_timed_dot(const trace& t, std::uint64_t graph_id, const std::string& path);

} // namespace encore
