// One call of the API fuzzer's sequences: plain data, so that a sequence can be printed, replayed from
// scratch and cut down. Calls name objects by slot (queue 0..3, array slot, graph slot, executable-graph
// slot) and by index (node of a graph, recorded event, dynamic parameter), never by handle: a call whose
// objects do not exist when it runs (because the minimizer removed the calls that made them) is skipped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reference_model.hpp"

namespace fuzz {

constexpr int queue_count = 4; // q0, q1: in-order; q2, q3: out-of-order
constexpr int array_slots = 4; // A0..A3: USM shared arrays
constexpr int graph_slots = 3; // g0..g2: modifiable graphs
constexpr int exec_slots = 4;  // e0..e3: executable graphs
inline bool is_in_order(int queue) {
    return queue < 2;
}

enum class call_kind : std::uint8_t {
    allocate,       // slot: malloc_shared, filled with known values
    free_array,     // slot: waits for the array's work, then sycl::free
    free_twice,     // index: sycl::free of a pointer freed earlier in this run (errc::invalid)
    use_after_free, // index, queue, graph, variant: memcpy/fill naming freed memory (errc::invalid)
    make_graph,     // graph: a new command_graph in an empty slot
    drop_graph,     // graph: its last command_graph (and node handles, parameters) destroyed
    clone_graph, // graph (source), other_graph (empty slot), value (seed), variant: 0 same topology, else a
                 // mutation
    make_parameter,   // graph, flag (pointer: slot; scalar: value), variant (scalars: 1 as raw_kernel_arg bytes,
                      // 2 made without a graph)
    update_parameter, // graph, index, slot or value
    make_group,       // graph, command (command group 0: an accumulate or param kernel), variant (command group
                      // 1: 0 the same kind, 1 the other kind), value (command group 1's add)
    add_group,        // graph, index (group), nodes (depends_on), flag (all leaves)
    set_active,       // graph, index (group), value (the command group to activate)
    add,       // graph, command, nodes (depends_on), other_graph + index (a foreign node), events, flag (all
               // leaves)
    make_edge, // graph, nodes[0] -> nodes[1], or -> node `index` of other_graph
    begin_recording, // graph, queue, flag (the overload taking a vector of queues)
    end_recording,   // graph, queue (-1: every queue), flag (the overload taking a vector)
    submit,          // queue, command, events, flag (also an eager event as dependency)
    finalize,        // graph, exec, flag (updatable)
    drop_exec,       // exec
    launch,          // exec, queue, flag (handler::ext_oneapi_graph instead of the queue shortcut)
    update_nodes,    // exec, graph, nodes
    update_whole,    // exec, graph
    update_range,    // graph, nodes[0], value, variant: 0 range<1>, 1 range<2>, 2 nd_range<1> whose local range
                     // divides it, 3 one whose local range does not (errc::nd_range)
    wait_queue,      // queue: wait_and_throw
    wait_all,        // every queue; then every array and every async error is checked
    wait_event,      // flag: a recorded event (errc::invalid) or else pending eager work; index
    print_graph,     // graph, flag (verbose), variant (1: a path not ending in .dot)
    misuse,          // variant, queue, graph, index: small misuses that must throw and change nothing
};
const char* to_string(call_kind k);

// A command as a call gives it: array slots and, for param_kernel, dynamic parameters of graph `param_graph`.
// local_kernel without a dynamic_local_accessor: a local_accessor of this many elements (from its `add`).
inline std::uint32_t static_local_elements(std::uint32_t add) {
    return add % 16 + 1;
}

struct command_spec {
    command_kind kind = command_kind::empty;
    int dst = 0, src = 0; // array slots
    std::uint32_t mul = 1, add = 0, count = array_length;
    int param_graph = -1; // graph slot whose dynamic parameters src_param/mul_param index
    int src_param = -1, mul_param = -1;
    int local_param = -1; // local_kernel: a dynamic_local_accessor of `param_graph`, else a local_accessor
    int exec = -1; // subgraph: executable-graph slot
    int tag = 0;   // throwing commands: unique in the sequence
};

struct call {
    call_kind kind = call_kind::wait_all;
    int graph = -1, other_graph = -1, exec = -1, queue = -1, slot = -1, index = -1;
    command_spec command;
    std::vector<int> nodes;
    std::vector<int> events;
    bool flag = false;
    std::uint32_t value = 0;
    int variant = 0;
};

// The local range of update_range's nd_range variants for a global range of `n`: the largest of 8, 4, 2, 1 that
// divides it, or (`not_dividing`) the smallest size from 2 up that does not.
inline std::uint32_t fuzz_local_range(std::uint32_t n, bool not_dividing) {
    if (not_dividing) {
        std::uint32_t l = 2;
        while (n % l == 0)
            ++l;
        return l;
    }
    for (std::uint32_t l : {8u, 4u, 2u})
        if (n % l == 0) return l;
    return 1;
}

// The call as a line of pseudo-C++ (the objects named as above: q0, A1, g2, g2.n[3], ev[4], e1).
std::string describe(const call& c);
std::string describe(const command_spec& s);

} // namespace fuzz
