// One run of the API fuzzer: the SYCL objects a call sequence works on (queues, USM arrays, graphs,
// executable graphs, events) side by side with the reference model of each, and the code that makes one call
// through the public SYCL API and checks it against the model:
//
// - a valid call does what the model says (nodes, edges, queue states, return values; replays and eager
// commands
//   leave the arrays as the model computes them, checked at every wait_all and at the end);
// - an invalid call throws sycl::exception with errc::invalid (docs/sycl-graph.md, "What is refused") and
//   changes nothing: every graph's nodes, edges and node types and every queue's state are compared with the
//   model after it;
// - what throwing kernels and host tasks throw reaches the async handler of the queue that ran them, each
// exactly
//   once per run of the command (the handler collects "fuzz-tag-N" tags; the model counts them per queue).
//
// A check that fails throws check_failure; fuzz_runner.cpp turns it into a report.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include <sycl/sycl.hpp>

#include "fuzz_call.hpp"

namespace fuzz {

namespace sx = sycl::ext::oneapi::experimental;

// The kernel object of command_kind::param_kernel (three arguments: dst, src, mul).
sycl::kernel param_kernel_object();
// The kernel object of command_kind::local_kernel (two arguments: dst, its local memory).
sycl::kernel local_kernel_object();

struct check_failure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The model of a modifiable graph (one per graph slot; uid -1: the slot is empty).
struct graph_model {
    struct parameter {
        bool pointer = false;
        alloc_id array = -1;        // pointer parameters
        std::uint32_t value = 0;    // scalar parameters
        bool raw = false;           // a scalar as sycl_ext_oneapi_raw_kernel_arg bytes
        bool without_graph = false; // made without a graph: it joins its first node's (always this one's)
        bool local = false;         // a dynamic_local_accessor<uint32_t>: `value` elements
    };
    struct node {
        command_spec spec;                     // operands: see dst/src below
        alloc_id dst = -1, src = -1;           // the arrays named when the node was made
        std::shared_ptr<const snapshot> child; // subgraph nodes
        std::set<int> predecessors;
        int group = -1; // a node of dynamic command group `group`: spec, dst and src are its active command group's
    };
    // A dynamic command group: its command groups (kernels; predecessors unused), the active one, its nodes.
    struct group {
        std::vector<node> members;
        int active = 0;
        std::vector<int> nodes;
    };
    int uid = -1;
    std::vector<node> nodes;
    std::set<int> recorders;           // queues recording into it
    std::map<int, int> last_in_order;  // in-order queue -> the last node it recorded (kept across sessions)
    std::vector<parameter> parameters; // in creation order
    std::vector<group> groups;         // in creation order

    // A group's nodes take its active command group (set_active_index, and range updates of the active one).
    void sync_group(int g) {
        for (int v : groups[g].nodes) {
            const auto& m = groups[g].members[groups[g].active];
            nodes[v].spec = m.spec;
            nodes[v].dst = m.dst;
            nodes[v].src = m.src;
        }
    }
};

struct exec_model {
    int uid = -1; // -1: the slot is empty
    int source_uid = -1;
    bool updatable = false;
    snapshot commands;
};

class session {
public:
    session();
    ~session();
    session(const session&) = delete;
    session& operator=(const session&) = delete;

    // Makes the call and checks it; returns the expected outcome (for the printed sequence): "ok", "invalid",
    // "skipped" (the call's objects do not exist), with details. Throws check_failure.
    std::string run(const call& c);
    // Ends every recording, waits for everything and checks arrays and async errors; throws check_failure.
    void finish();

    // The model, for the generator.
    const graph_model& graph(int slot) const { return graphs_[slot].model; }
    const exec_model& exec(int slot) const { return execs_[slot].model; }
    bool array_live(int slot) const { return arrays_[slot].id >= 0; }
    alloc_id array_id(int slot) const { return arrays_[slot].id; }
    int queue_recording(int queue) const; // graph slot, or -1
    std::size_t recorded_event_count() const { return events_.size(); }
    int recorded_event_graph_slot(std::size_t index) const; // -1 when that graph is gone
    int recorded_event_node(std::size_t index) const { return events_[index].node; }
    std::size_t pending_count() const { return pending_.size(); }
    std::size_t freed_count() const { return freed_.size(); }
    const memory_model& memory() const { return memory_; }
    // How many array read-backs were compared with the model, and how many were not because the program made
    // a race on the array (the model cannot know its contents).
    std::uint64_t arrays_compared() const { return arrays_compared_; }
    std::uint64_t arrays_unknown() const { return arrays_unknown_; }

private:
    struct array_slot {
        alloc_id id = -1;
        std::uint32_t* pointer = nullptr;
    };
    using parameter =
        std::variant<sx::dynamic_parameter<std::uint32_t*>, sx::dynamic_parameter<std::uint32_t>,
                     sx::dynamic_parameter<sx::raw_kernel_arg>, sx::dynamic_local_accessor<std::uint32_t>>;
    struct graph_slot {
        std::optional<sx::command_graph<sx::graph_state::modifiable>> graph;
        std::vector<sx::node> nodes;
        std::vector<parameter> parameters;
        std::vector<sx::dynamic_command_group> groups;
        graph_model model;
    };
    struct exec_slot {
        std::optional<sx::command_graph<sx::graph_state::executable>> graph;
        exec_model model;
    };
    struct recorded_event {
        sycl::event event;
        int graph_uid;
        int node;
    };
    // Eager work not yet waited for, with what it touches: later conflicting work is made to depend on it.
    struct pending_work {
        sycl::event event;
        int queue;
        int exec_uid; // graph launches: launches of one executable graph are ordered by the runtime
        std::vector<alloc_id> reads, writes;
    };
    // A command of a call, ready to be put in a command group, and the model's view of it.
    struct prepared {
        resolved_command model;
        graph_model::node node;
        int param_graph_uid = -1; // the graph whose dynamic parameters it uses, or -1
        // Whether it uses dynamic parameters of another graph than graph `uid` (refused there).
        bool uses_parameters_of_another_graph(int uid) const { return param_graph_uid >= 0 && param_graph_uid != uid; }
        sx::dynamic_parameter<std::uint32_t*>* src_param = nullptr;
        sx::dynamic_parameter<std::uint32_t>* mul_param = nullptr;
        sx::dynamic_parameter<sx::raw_kernel_arg>* mul_raw_param = nullptr;
        sx::dynamic_local_accessor<std::uint32_t>* local_param = nullptr;
        sx::command_graph<sx::graph_state::executable>* exec = nullptr;
        std::uint32_t* dst = nullptr;
        const std::uint32_t* src = nullptr;
    };

    // The calls, by kind (memory_and_wait_calls.cpp: USM, waits, print_graph, misuses; graph_calls.cpp:
    // building and recording graphs; exec_calls.cpp: finalize, launch, update).
    std::string allocate(const call& c);
    std::string free_array(const call& c);
    std::string free_twice(const call& c);
    std::string use_after_free(const call& c);
    std::string make_graph(const call& c);
    std::string drop_graph(const call& c);
    std::string clone_graph(const call& c);
    std::string make_parameter(const call& c);
    std::string update_parameter(const call& c);
    std::string make_group(const call& c);
    std::string add_group(const call& c);
    std::string set_active(const call& c);
    std::string add(const call& c);
    std::string make_edge(const call& c);
    std::string begin_recording(const call& c);
    std::string end_recording(const call& c);
    std::string submit(const call& c);
    std::string finalize(const call& c);
    std::string drop_exec(const call& c);
    std::string launch(const call& c);
    std::string update_nodes(const call& c);
    std::string update_whole(const call& c);
    std::string update_range(const call& c);
    std::string wait_queue(const call& c);
    std::string wait_all();
    std::string wait_event(const call& c);
    std::string print_graph(const call& c);
    std::string misuse(const call& c);

    std::optional<prepared> prepare(const command_spec& s);
    void emit(sycl::handler& h, const prepared& p) const;
    resolved_command resolve(const graph_model& g, const graph_model::node& n) const;
    snapshot resolve_all(const graph_model& g) const;
    bool
    graph_alive(int uid) const; // a graph's state lives while its command_graph or an executable graph does
    int slot_of_graph(int uid) const;
    std::vector<sycl::event> eager_dependencies(const resolved_command& c, int queue, int exec_uid) const;
    void track(sycl::event e, int queue, int exec_uid, const resolved_command& c);
    sycl::event run_eager(int queue, const prepared& p, const std::vector<sycl::event>& extra);
    void record_node(int slot, const prepared& p, std::set<int> predecessors, int queue, sycl::event* event);

    // Checks (session_checks.cpp; they throw check_failure).
    template <typename F> void expect_invalid(const char* what, F&& f) { expect_error(what, sycl::errc::invalid, f); }
    template <typename F> void expect_error(const char* what, sycl::errc code, F&& f);
    template <typename F> auto expect_ok(const char* what, F&& f) -> decltype(f());
    void check_structure() const;
    void check_arrays(bool all);
    void check_errors(int queue);
    void wait_pending(const std::function<bool(const pending_work&)>& which);

    // Declared first, destroyed last: the queues' async handlers write here, also while a queue goes away.
    mutable std::mutex errors_mutex_;
    std::vector<std::multiset<int>> received_, expected_; // per queue: tags received, tags the model expects
    std::vector<std::string> strange_errors_;             // async errors that are not the fuzzer's tags

    memory_model memory_;
    std::vector<sycl::queue> queues_;
    std::optional<sycl::queue> check_queue_; // reads arrays back; never records
    std::array<array_slot, array_slots> arrays_;
    std::map<alloc_id, std::uint32_t*> pointers_;
    std::vector<std::uint32_t*> freed_;
    std::array<graph_slot, graph_slots> graphs_;
    std::array<exec_slot, exec_slots> execs_;
    std::vector<recorded_event> events_;
    std::vector<pending_work> pending_;
    int next_uid_ = 0;
    std::uint32_t next_fill_ = 1;
    std::uint64_t arrays_compared_ = 0, arrays_unknown_ = 0;
};

// Used by the templates below.
std::string errc_name(const std::error_code& code);

template <typename F> void session::expect_error(const char* what, sycl::errc code, F&& f) {
    const std::string expected = errc_name(sycl::make_error_code(code));
    try {
        f();
    } catch (const sycl::exception& e) {
        if (e.code() != code)
            throw check_failure(std::string(what) + ": expected " + expected + ", got " + errc_name(e.code()) +
                                ": " + e.what());
        check_structure(); // a refused call changes nothing
        return;
    } catch (const std::exception& e) {
        throw check_failure(std::string(what) + ": expected sycl::exception(" + expected +
                            "), got another exception: " + e.what());
    }
    throw check_failure(std::string(what) + ": expected sycl::exception(" + expected + "), nothing was thrown");
}

template <typename F> auto session::expect_ok(const char* what, F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const sycl::exception& e) {
        throw check_failure(std::string(what) + ": a valid call threw " + errc_name(e.code()) + ": " +
                            e.what());
    } catch (const check_failure&) {
        throw;
    } catch (const std::exception& e) {
        throw check_failure(std::string(what) + ": a valid call threw: " + e.what());
    }
}

} // namespace fuzz
