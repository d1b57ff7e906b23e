// trace_session — what the profiler records while a trace is on (runtime/profiler.hpp is the public side).
// Not for you: start a trace with encore::profiler or ENCORE_PROFILE.
//
// Off, the whole cost on a hot path is tracing(): one atomic load of a pointer that is null. On, the runtime
// and the backends that time their own work (native) append one trace_record per node, partition, eager
// command and host task to a buffer of the recording thread (its own mutex, uncontended but for collection),
// so workers never wait for each other. Names of graph nodes are not copied per record: the session keeps one
// snapshot of each traced graph (its flattened form, trace_snapshot) and records carry node indices.
//
// How a launch's label reaches a backend: around each backend_executable::launch the runtime sets the calling
// thread's trace_launch_label (trace_launch_scope); a backend that times its nodes reads it with
// current_trace_launch() during launch() and keeps a copy for the run. Other backends are timed by the
// runtime from their events' profiling timestamps, one slice per partition and per eager command.
//
// Sessions are never destroyed, not even at the program's exit (the profiler keeps each one after it stops,
// emptied), so a worker still holding a pointer to a stopped session appends to a live object, and a thread's
// cached buffer can never belong to a new session at a reused address. A session's snapshots of graphs hold
// nothing of the program's or of a backend's (trace_snapshot): nothing is left to destroy late.
//
//     if (auto* session = encore::detail::tracing()) [[unlikely]]
//         session->record({.kind = trace_record_kind::eager, .process = p, ...}, "native worker");
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "encore/backends/backend.hpp"
#include "encore/graph/command.hpp"
#include "encore/graph/graph.hpp"

namespace encore::detail {

// Nanoseconds of std::chrono::steady_clock: the one clock of a trace, as are completion_event's timestamps
// and the GPU layer's (converted there from the device's clock).
std::int64_t trace_clock_ns() noexcept;

// What a slice of the trace stands for.
enum class trace_record_kind : std::uint8_t {
    graph_node, // one node of one launch of an executable graph (`node`: its flat index)
    partition,  // one partition of one launch (`node`: the partition's index)
    eager,      // one eager command (`name`: its kernel or kind)
    host_task,  // an eager host task (`name`), or a graph's host-task node (`node`, `launch` set)
};

struct trace_record {
    trace_record_kind kind = trace_record_kind::eager;
    std::uint32_t process = 0; // the track of the device (trace_session::device_process) or the host's
    std::uint32_t thread = 0; // set by record(): the recording thread's track, unless given (a queue's track)
    std::uint32_t node = 0;
    std::uint64_t launch = 0; // graph launches: the session's launch number (from 1); 0 for eager work
    std::int64_t start_ns = 0, end_ns = 0;      // trace_clock_ns
    std::string name;                           // eager work and host tasks; empty for graph nodes
    command_kind command = command_kind::empty; // eager work: what ran
};

// One traced executable graph: what the trace names its nodes and draws its edges from.
struct trace_graph_record {
    std::uint64_t graph_id = 0;        // the graph it was finalized from (encore::graph::id())
    std::shared_ptr<const graph> flat; // its snapshot, subgraphs inlined (the nodes' indices in records)
    std::vector<std::uint32_t> partition_of; // per flat node
    std::uint32_t partitions = 0;
    std::uint32_t process = 0;
};

struct trace_launch_record {
    std::uint64_t launch = 0;
    std::uint32_t graph = 0; // index into the session's graphs
    std::int64_t submit_ns = 0;
};

struct trace_track {
    std::uint32_t process = 0;
    std::uint32_t thread = 0; // 0 for a process's own entry
    std::string name;
    std::string backend; // processes: the device's backend ("host" for host tasks)
};

// Everything a session recorded, taken at once (trace_session::collect).
struct trace_data {
    std::int64_t start_ns = 0;
    std::vector<trace_track> processes, threads;
    std::vector<trace_graph_record> graphs;
    std::vector<trace_launch_record> launches;
    std::vector<trace_record> records;
};

class trace_session;

// The label of one partition launch, for the backend that runs it.
struct trace_launch_label {
    trace_session* session = nullptr;
    std::uint64_t launch = 0;
    std::uint32_t partition = 0;
    std::uint32_t process = 0;
};

class trace_session {
public:
    trace_session();
    trace_session(const trace_session&) = delete;
    trace_session& operator=(const trace_session&) = delete;

    // The host's process (host tasks, on their threads): always 1.
    static constexpr std::uint32_t host_process = 1;
    // The track of `backend`'s device `device`, named after it the first time. O(devices) under a lock.
    std::uint32_t device_process(std::string_view backend, std::uint32_t device,
                                 std::string_view device_name);
    // A track of its own for one queue's events (backends the runtime times from their timestamps), or with
    // `lane`, one of several tracks of one queue or stream (the nodes of a GPU graph that ran side by side).
    std::uint32_t queue_thread(std::uint32_t process, const void* queue, std::string_view name,
                               std::uint32_t lane = 0);

    // Appends `r`; unless r.thread is set, on the calling thread's track, named `role` the first time.
    void record(trace_record r, const char* role);

    // Keeps a snapshot of an executable graph; returns its number for new_launch.
    std::uint32_t add_graph(trace_graph_record g);
    // A new launch of graph `graph` (add_graph's number), submitted now.
    std::uint64_t new_launch(std::uint32_t graph);

    // Everything recorded so far, moved out: the session keeps recording into emptied buffers, which keep
    // their memory for what comes next unless `release` (the trace stopped). First waits for the announced
    // callbacks of work already complete: a program that waited for its queues gets every slice of that work.
    // (At most 5 s: a callback that cannot run while this thread waits, because it would run on this very thread,
    // leaves its slice out rather than hanging the program.)
    trace_data collect(bool release);

    // Slices recorded by completion callbacks (trace_from_event, the GPU layer's timed launches) arrive after the
    // work completes, on a backend's thread. Such a callback is announced before it is registered (the ticket)
    // and reported once it has run; on_complete_traced does both.
    std::uint64_t announce_callback(std::shared_ptr<backend_event> e);
    void callback_ran(std::uint64_t ticket) noexcept;

private:
    // What a buffer holds per record: trace_record without its string (an index into the buffer's names,
    // which only eager work and host tasks use), 48 bytes.
    struct stored_record {
        std::int64_t start_ns, end_ns;
        std::uint64_t launch;
        std::uint32_t process, thread, node, name;
        trace_record_kind kind;
        command_kind command;
    };
    // Records in chunks of fixed size: appending never moves what was recorded (a vector's growth copied
    // every record again and doubled the memory touched: 77 ns per record on the 2-core VM, against 20 here).
    struct thread_buffer {
        static constexpr std::size_t chunk_records = 1024;
        std::mutex mutex;
        std::vector<std::unique_ptr<stored_record[]>> chunks;
        std::size_t count = 0;
        std::vector<std::string> names;
        std::uint32_t thread = 0;
    };
    thread_buffer& buffer_of_this_thread(const char* role);

    const std::int64_t start_ns_;
    std::mutex mutex_; // everything below
    std::vector<std::unique_ptr<thread_buffer>> buffers_;
    std::vector<trace_track> processes_, threads_;
    struct queue_track {
        const void* queue;
        std::uint32_t lane, thread;
    };
    std::vector<queue_track> queue_threads_;
    std::vector<trace_graph_record> graphs_;
    std::vector<trace_launch_record> launches_;
    std::uint32_t next_thread_ = 1;
    std::mutex callbacks_mutex_; // the announced callbacks that have not run yet
    std::condition_variable callback_done_;
    std::map<std::uint64_t, std::shared_ptr<backend_event>> callbacks_;
    std::uint64_t next_ticket_ = 1;
};

// Registers `callback` to run once `e` completes (backend_event::on_complete), announced to `session` so that
// collect() waits for it once `e` is complete. `callback` is copied as on_complete's std::function is.
template <typename Callback>
void on_complete_traced(trace_session& session, const std::shared_ptr<backend_event>& e, Callback callback) {
    const std::uint64_t ticket = session.announce_callback(e);
    try {
        e->on_complete([&session, ticket, callback = std::move(callback)]() mutable {
            struct report_on_exit {
                trace_session& session;
                std::uint64_t ticket;
                ~report_on_exit() { session.callback_ran(ticket); }
            } on_exit{session, ticket};
            callback();
        });
    } catch (...) {
        session.callback_ran(ticket); // never registered: nothing to wait for
        throw;
    }
}

// The session recording now, or null (the whole cost of the profiler when it is off). Alone in its cache line:
// beside data that workers write, every submission's load of it missed the cache (5 ns more per eager command).
struct alignas(64) trace_switch {
    std::atomic<trace_session*> session{nullptr};
};
extern trace_switch active_trace_session;
#ifdef ENCORE_PROFILER_HOOKS_COMPILED_OUT
// Only for measuring what the hooks cost when off (docs/profiling.md, "What it costs"): a build that can never trace.
inline trace_session* tracing() noexcept {
    return nullptr;
}
#else
inline trace_session* tracing() noexcept {
    return active_trace_session.session.load(std::memory_order_acquire); // a plain load on x86
}
#endif

// The label the runtime set for the partition launch this thread is making, or null.
const trace_launch_label* current_trace_launch() noexcept;
class trace_launch_scope {
public:
    explicit trace_launch_scope(const trace_launch_label* label) noexcept;
    ~trace_launch_scope();
    trace_launch_scope(const trace_launch_scope&) = delete;
    trace_launch_scope& operator=(const trace_launch_scope&) = delete;

private:
    const trace_launch_label* previous_;
};

// Runs `task` on the calling thread and records `r` with the times around it (also when the task throws: the
// exception goes on to the caller), on the thread's track named `role`. A record that cannot be appended (out of
// memory) is lost; the task's outcome is not.
template <typename Task> void run_timed(trace_session& session, trace_record r, const char* role, Task&& task) {
    struct record_on_exit {
        trace_session& session;
        trace_record& r;
        const char* role;
        ~record_on_exit() {
            r.end_ns = trace_clock_ns();
            try {
                session.record(std::move(r), role);
            } catch (...) {
            }
        }
    };
    r.start_ns = trace_clock_ns();
    const record_on_exit on_exit{session, r, role};
    std::forward<Task>(task)();
}

// Whether `backend` times its graph nodes and eager commands itself (native, on its workers); the runtime
// times the others' partitions and eager commands from their events (trace_from_event).
bool backend_times_nodes(std::string_view backend) noexcept;

// Records `r` once `e` completes, its times from e's profiling timestamps, on a track of its own for `queue`
// (named after `backend`). Nothing when `e` has no timestamps (a queue made before the trace started).
// Timestamps already on the trace's clock (the GPU layer's, within 10 ms of it) are taken as they are; a
// device clock (OpenCL, Level Zero) is moved onto the host's by the difference between the submission's host
// time (now) and its submit timestamp.
void trace_from_event(trace_session& session, const std::shared_ptr<backend_event>& e, trace_record r,
                      const void* queue, std::string_view backend);
// The same for one partition of a traced launch.
void trace_from_event(trace_session& session, const std::shared_ptr<backend_event>& e,
                      const trace_launch_label& label, const void* queue, std::string_view backend);

// A copy of `g` that keeps what a trace shows of it (each node's kind, kernel name and range, the edges) and
// nothing of the program's: no kernel object, host task, pointer or memory object. A trace may outlive the
// program's use of a graph; it must not keep the program's data alive (a SYCL buffer whose accessors a host
// task holds would not be written back). O(V+E).
std::shared_ptr<const graph> trace_snapshot(const graph& g);

// What a slice of command `c` is called: the kernel's name, else the command's kind ("memcpy", "fill", ...).
std::string trace_name(const command& c);

} // namespace encore::detail
