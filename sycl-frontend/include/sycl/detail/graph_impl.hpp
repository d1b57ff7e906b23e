// What a command_graph, its nodes, its executable graphs and its dynamic parameters share. Not for you: use
// sycl/ext/oneapi/experimental/graph.hpp.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "encore/runtime/executable_graph.hpp"
#include "encore/runtime/native_recording.hpp"
#include "encore/graph/graph.hpp"
#include "sycl/detail/async_alloc_impl.hpp"
#include "sycl/detail/buffer_state.hpp"
#include "sycl/ext/oneapi/experimental/graph.hpp"

namespace sycl {
inline namespace _V1 {
namespace detail {

struct graph_impl : std::enable_shared_from_this<graph_impl> {
    graph_impl(const context& c, const device& d, const property_list& p);

    // Adds a node for what `h` collected, after `predecessors` and the edges its events and accessors imply.
    // `recorder` is the recording queue, or null for an explicit add(). Under `mutex`.
    std::uint32_t add_locked(handler& h, std::vector<std::uint32_t> predecessors, const queue_impl* recorder);
    void require_not_recording(const char* call) const;
    // Stops every queue recording into this graph (end_recording()); returns whether there was one. Under `mutex`.
    bool stop_all_recordings();

    context ctx;
    device dev;
    // ext::encore::property::graph::multi_device: nodes of other devices of dev's backend and of ctx are
    // allowed. `devices` lists the devices the graph's nodes run on, by device slot (encore::graph::device_slot):
    // dev first, the others as their first node comes.
    bool multi_device = false;
    std::vector<device> devices;
    // The slot of `d`'s nodes, added to `devices` the first time; throws errc::invalid when the graph cannot
    // hold nodes of `d` (`call` names the caller). Under `mutex`.
    std::uint32_t device_slot(const device& d, const char* call);

    mutable std::mutex mutex;
    encore::graph g;
    std::vector<const queue_impl*> recorded_by; // per node: the queue that recorded it (null: explicit add)

    // Accessor tracking, as for eager submissions but between nodes.
    struct buffer_use {
        std::optional<std::uint32_t> last_writer;
        std::vector<std::uint32_t> readers; // since last_writer
        access_mode strongest = access_mode::read;
        // The graph keeps every buffer it uses: a program may destroy its buffer before the graph's last run.
        std::shared_ptr<buffer_state> keep;
    };
    std::unordered_map<buffer_state*, buffer_use> buffers;

    std::vector<std::weak_ptr<queue_impl>> recorders; // the queues recording into this graph now

    // What each queue recorded into this graph over all its recording sessions, so that a new session (or a
    // queue joining through an event) continues where the queue's last one stopped, as DPC++ does: an in-order
    // queue's next command follows its last recorded node, and every queue's next commands follow its last
    // recorded barrier. Keyed by the queue's control block (owner_less): a new queue that happens to get a dead
    // queue's address does not inherit its history.
    struct queue_history {
        std::optional<std::uint32_t> last_in_order; // in-order queues only
        std::optional<std::uint32_t> barrier;
    };
    std::map<std::weak_ptr<const queue_impl>, queue_history, std::owner_less<>> histories;
    // Nodes added from dynamic command groups: their executable-graph update may change the kernel.
    std::unordered_map<std::uint32_t, std::shared_ptr<dynamic_command_group_impl>> dynamic_nodes;

    // Graph-owned allocations (async_malloc in a command group of this graph; async_alloc.cpp): the memory, by
    // pointer, kept by the graph and its executable graphs; the pointers async_free nodes name; each async node's
    // node_type (the engine sees an empty command, or a memset of zero for a zero_init pool's allocation).
    std::map<void*, std::shared_ptr<async_block>> allocations;
    std::size_t allocated_bytes = 0;
    std::map<void*, std::uint32_t> freed_allocations; // pointer -> its async_free node
    std::unordered_map<std::uint32_t, ext::oneapi::experimental::node_type> async_nodes;
    std::weak_ptr<executable_impl> allocating_executable; // the live executable graph that owns the allocations

    // property::graph::enable_native_recording (recording.cpp, docs/sycl-graph.md "Native recording"): a
    // session lasts from the first queue that starts recording to the last one that stops; the backend captures
    // its commands, and its end adds one node holding the captured graph, after the previous session's node.
    bool native = false;
    struct native_session {
        std::uint64_t id = 0;
        std::unique_ptr<::encore::native_recording> capture;
        struct queue_state {
            std::optional<std::uint32_t> last_in_order, barrier; // captured command numbers
            std::vector<std::uint32_t> captured;                 // everything the queue captured (barriers)
            bool joined = false; // entered through an event (transitive recording): a fork that must join back
        };
        std::map<std::weak_ptr<const queue_impl>, queue_state, std::owner_less<>> queues;
        std::vector<std::vector<std::uint32_t>> predecessors; // per captured command: those it was captured after
    };
    std::optional<native_session> session;     // in progress
    std::uint64_t sessions_started = 0;
    std::map<std::uint64_t, std::uint32_t> session_nodes; // ended session -> its node
    std::optional<std::uint32_t> last_session_node;

    // The owner shared by the program's command_graph copies (under `mutex`); see graph_owner.
    std::weak_ptr<graph_owner> owner;
};

// What the program's copies of one modifiable command_graph share, and nothing else holds (nodes, executable
// graphs, events and recording queues hold the graph_impl): when the last copy goes, the recordings into the graph
// end, as end_recording() would (sycl_ext_oneapi_graph, "Exception Safety"). A command_graph made again from the
// graph_impl (queue::ext_oneapi_get_graph) joins the existing owner.
struct graph_owner {
    explicit graph_owner(std::shared_ptr<graph_impl> g) : graph(std::move(g)) {}
    ~graph_owner();
    graph_owner(const graph_owner&) = delete;
    graph_owner& operator=(const graph_owner&) = delete;
    // The owner of `g`'s copies, made when there is none. Takes g->mutex.
    static std::shared_ptr<graph_owner> of(const std::shared_ptr<graph_impl>& g);

    std::shared_ptr<graph_impl> graph; // alive until the recordings are ended
};

struct executable_impl {
    // Destroyed while a launch runs: the engine's executable waits for it, and must do so before the buffers and
    // the graph-owned memory below go (members go in reverse order, the engine last).
    ~executable_impl() { engine.reset(); }

    std::shared_ptr<encore::executable_graph> engine;
    std::shared_ptr<graph_impl> source;
    std::vector<device> devices; // its source's, by slot, when it was finalized
    // What a sub-graph node made from this executable graph embeds: its source graph as finalized, with the
    // node and whole-graph updates made since (so that the sub-graph runs what a launch of it would run).
    // Under snapshot_mutex; changed in place only while nobody else holds it (executable graph update).
    std::shared_ptr<encore::graph> snapshot;
    mutable std::mutex snapshot_mutex;
    std::shared_ptr<const encore::graph> current_snapshot() const {
        std::lock_guard lock(snapshot_mutex);
        return snapshot;
    }
    // The buffers its launches use, and how; and the buffers it keeps alive: its source graph's, and those of graphs
    // it was updated from or that dynamic accessor parameters switched to. Both under kept_mutex: update() adds.
    std::vector<requirement> buffers;
    std::mutex kept_mutex;
    std::vector<std::shared_ptr<buffer_state>> kept_buffers;
    bool updatable = false;
    bool profiling = false; // finalized with property::graph::enable_profiling
    std::vector<std::shared_ptr<async_block>> allocations; // graph-owned memory its runs use
    std::size_t required_mem_size = 0;
    bool async_nodes = false; // its graph had async_malloc / async_free nodes when finalized

    std::vector<requirement> buffer_requirements() {
        std::lock_guard lock(kept_mutex);
        return buffers;
    }
    // Takes in the buffers `g` uses now (the caller holds g.mutex): after an update, launches use them too.
    void adopt_buffers(const graph_impl& g);
};

struct dynamic_parameter_impl {
    std::weak_ptr<graph_impl> graph;
    bool bound = true; // false: made without a graph and not used yet (dynamic_local_accessor)
    // Whether it is (or, unbound, now becomes) a parameter of `g`.
    bool belongs_to(graph_impl& g);
    std::mutex mutex;
    encore::kernel_argument value;
    std::vector<std::pair<std::uint32_t, int>> uses; // (node, argument index)
    // Uses inside the command groups of dynamic command groups: (group, index of the command group, argument).
    std::vector<std::tuple<std::weak_ptr<dynamic_command_group_impl>, std::size_t, int>> group_uses;
    // A dynamic_parameter of an accessor: its buffer now, the accessor's mode, and the nodes that require it.
    std::shared_ptr<buffer_state> buffer;
    access_mode mode = access_mode::read;
    std::vector<std::uint32_t> requiring_nodes;
};

// Under the graph's mutex once nodes use it.
struct dynamic_command_group_impl {
    std::weak_ptr<graph_impl> graph;
    std::vector<handler::collected> groups; // what each command group function collected
    std::size_t active = 0;
    std::vector<std::uint32_t> nodes; // the nodes added from it
};

// The recording state of queues (sycl-frontend/src/recording.cpp). Lock order: a graph's mutex before a queue's.

// queue_impl::finish for a recording queue: adds a node for what `h` collected.
event record_submission(graph_impl& g, queue_impl& q, handler& h);
// Starts `q` recording into `g` (begin_recording, or `q` joining through an event: `joined`); `call` names the
// API for errors. Returns false when `q` already records `g`. The caller holds g.mutex; `g` must be owned by a
// shared_ptr.
bool start_recording(graph_impl& g, queue_impl& q, const char* call, bool joined = false);
// Native recording: before end_recording stops the last queue that began `g`'s session (`stopping`; null: every
// queue), every queue that joined it through an event (a fork) must have been joined back — its last captured
// command an ancestor of a command captured by a queue that began the recording — as a CUDA stream capture
// requires. Throws errc::runtime naming the fork's last command otherwise (DPC++'s code); nothing changes. The
// caller holds g.mutex.
void require_joined_forks(const graph_impl& g, const queue_impl* stopping, const char* call);
// Native recording (sycl_ext_oneapi_graph's "Limitations of Native Recording"): what a graph made with
// property::graph::enable_native_recording refuses with errc::feature_not_supported, as DPC++ does.
void refuse_if_native(const graph_impl& g, const char* what);
// Transitive queue recording: when a queue that records nothing submits a command group depending on events
// returned while recording a graph, the queue joins that graph's recording first. Returns the graph joined, or
// null when no dependency is graph-limited. Throws errc::invalid when the events come from two graphs, or from a
// graph no queue records any more.
std::shared_ptr<graph_impl> join_recording_through(queue_impl& q, std::span<const event> dependencies);
// Stops `q` recording into `g`; the caller holds g.mutex. The last recorder releases the graph's buffers, and
// ends a native recording session: the captured graph becomes a node (this can throw a driver's failure, after
// `q` stopped).
void stop_recording(graph_impl& g, queue_impl& q);
// The node of a graph that `e` (returned while recording into `g`) stands for; errc::invalid while its native
// recording session goes on. The caller holds g.mutex.
std::uint32_t node_of_event(const graph_impl& g, const recorded_node& e, const char* call);

} // namespace detail
} // namespace _V1
} // namespace sycl
