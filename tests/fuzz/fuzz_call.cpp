#include "fuzz_call.hpp"

namespace fuzz {

const char* to_string(call_kind k) {
    switch (k) {
    case call_kind::allocate:
        return "allocate";
    case call_kind::free_array:
        return "free_array";
    case call_kind::free_twice:
        return "free_twice";
    case call_kind::use_after_free:
        return "use_after_free";
    case call_kind::make_graph:
        return "make_graph";
    case call_kind::drop_graph:
        return "drop_graph";
    case call_kind::clone_graph:
        return "clone_graph";
    case call_kind::make_parameter:
        return "make_parameter";
    case call_kind::update_parameter:
        return "update_parameter";
    case call_kind::make_group:
        return "make_group";
    case call_kind::add_group:
        return "add_group";
    case call_kind::set_active:
        return "set_active";
    case call_kind::add:
        return "add";
    case call_kind::make_edge:
        return "make_edge";
    case call_kind::begin_recording:
        return "begin_recording";
    case call_kind::end_recording:
        return "end_recording";
    case call_kind::submit:
        return "submit";
    case call_kind::finalize:
        return "finalize";
    case call_kind::drop_exec:
        return "drop_exec";
    case call_kind::launch:
        return "launch";
    case call_kind::update_nodes:
        return "update_nodes";
    case call_kind::update_whole:
        return "update_whole";
    case call_kind::update_range:
        return "update_range";
    case call_kind::wait_queue:
        return "wait_queue";
    case call_kind::wait_all:
        return "wait_all";
    case call_kind::wait_event:
        return "wait_event";
    case call_kind::print_graph:
        return "print_graph";
    case call_kind::misuse:
        return "misuse";
    }
    return "?";
}

namespace {
std::string q(int i) {
    return "q" + std::to_string(i);
}
std::string a(int i) {
    return "A" + std::to_string(i);
}
std::string g(int i) {
    return "g" + std::to_string(i);
}
std::string e(int i) {
    return "e" + std::to_string(i);
}
std::string node(int graph, int i) {
    return g(graph) + ".n[" + std::to_string(i) + "]";
}
std::string list(const std::vector<int>& v, auto name) {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i)
        out += (i ? ", " : "") + name(v[i]);
    return out;
}
std::string events(const std::vector<int>& v) {
    return list(v, [](int i) { return "ev[" + std::to_string(i) + "]"; });
}
} // namespace

std::string describe(const command_spec& s) {
    const std::string n = std::to_string(s.count);
    auto src = [&] {
        return s.src_param >= 0 ? g(s.param_graph) + ".p[" + std::to_string(s.src_param) + "]" : a(s.src);
    };
    auto mul = [&] {
        return s.mul_param >= 0 ? g(s.param_graph) + ".p[" + std::to_string(s.mul_param) + "]"
                                : std::to_string(s.mul);
    };
    switch (s.kind) {
    case command_kind::fill:
        return "fill(" + a(s.dst) + ", " + std::to_string(s.add) + ", " + n + ")";
    case command_kind::copy:
        return "memcpy(" + a(s.dst) + ", " + a(s.src) + ", " + n + " x 4 bytes)";
    case command_kind::scale:
        return "parallel_for(" + n + ", " + a(s.dst) + "[i] = " + a(s.dst) + "[i] * " +
               std::to_string(s.mul) + " + " + std::to_string(s.add) + ")";
    case command_kind::accumulate:
        return "parallel_for(" + n + ", " + a(s.dst) + "[i] += " + a(s.src) + "[i] * " +
               std::to_string(s.mul) + " + " + std::to_string(s.add) + ")";
    case command_kind::param_kernel:
        return "set_args(" + a(s.dst) + ", " + src() + ", " + mul() + "); parallel_for(" + n +
               ", param_kernel)";
    case command_kind::host_mix:
        return "host_task(" + a(s.dst) + "[i] = " + a(s.dst) + "[i] * 3 + " + a(s.src) + "[i] + " +
               std::to_string(s.add) + ", " + n + ")";
    case command_kind::host_throw:
        return "host_task(throw fuzz-tag-" + std::to_string(s.tag) + ")";
    case command_kind::kernel_throw:
        return "parallel_for(" + n + ", item 0 throws fuzz-tag-" + std::to_string(s.tag) + ")";
    case command_kind::empty:
        return "(empty command group)";
    case command_kind::subgraph:
        return "ext_oneapi_graph(" + e(s.exec) + ")";
    case command_kind::local_kernel:
        return "set_args(" + a(s.dst) + ", " +
               (s.local_param >= 0 ? g(s.param_graph) + ".p[" + std::to_string(s.local_param) + "]"
                                   : "local_accessor(" + std::to_string(static_local_elements(s.add)) + ")") +
               "); parallel_for(nd_range{" + n + ", 1}, local_kernel: dst[i] += local elements)";
    }
    return "?";
}

std::string describe(const call& c) {
    switch (c.kind) {
    case call_kind::allocate:
        return a(c.slot) + " = malloc_shared<uint32_t>(64, q0) (filled with known values)";
    case call_kind::free_array:
        return "free(" + a(c.slot) + ", q0) (after waiting for its work)";
    case call_kind::free_twice:
        return "free(freed pointer #" + std::to_string(c.index) + ", q0)";
    case call_kind::use_after_free:
        return std::string(c.variant == 0   ? "q" + std::to_string(c.queue) + ".memcpy(A, freed pointer"
                           : c.variant == 1 ? "q" + std::to_string(c.queue) + ".fill(freed pointer"
                                            : g(c.graph) + ".add(memcpy(freed pointer") +
               " #" + std::to_string(c.index) + ", ...)";
    case call_kind::make_graph:
        return g(c.graph) + " = command_graph{q0}";
    case call_kind::drop_graph:
        return g(c.graph) + " = {} (the last copy of the graph and its node handles go)";
    case call_kind::clone_graph:
        return g(c.other_graph) + " = copy of " + g(c.graph) +
               " built with add/make_edge, new constants (seed " + std::to_string(c.value) + ")" +
               (c.variant == 0   ? ""
                : c.variant == 1 ? ", one more empty node"
                : c.variant == 2 ? ", one scale kernel swapped for accumulate"
                                 : ", one edge left out");
    case call_kind::make_parameter:
        if (!c.flag && c.variant == 3)
            return g(c.graph) + ".p.push_back(dynamic_local_accessor<uint32_t>(" + g(c.graph) + ", range{" +
                   std::to_string(c.value % 16 + 1) + "}))";
        return g(c.graph) + ".p.push_back(dynamic_parameter(" + (c.flag || c.variant != 2 ? g(c.graph) + ", " : "") +
               (c.flag ? a(c.slot)
                : c.variant == 1 ? "raw_kernel_arg(&" + std::to_string(c.value) + ", 4)"
                                 : std::to_string(c.value)) +
               "))";
    case call_kind::update_parameter:
        return g(c.graph) + ".p[" + std::to_string(c.index) + "].update(" +
               (c.slot >= 0 ? a(c.slot)
                            : std::to_string(c.value) + ") (a dynamic_local_accessor: range{" +
                                  std::to_string(c.value % 16 + 1) + "}") +
               ")";
    case call_kind::add: {
        std::string props;
        auto deps = list(c.nodes, [&](int i) { return node(c.graph, i); });
        if (c.other_graph >= 0) deps += (deps.empty() ? "" : ", ") + node(c.other_graph, c.index);
        if (!deps.empty()) props = ", {depends_on(" + deps + ")}";
        if (c.flag) props += ", {depends_on_all_leaves}";
        std::string in = c.events.empty() ? "" : "depends_on(" + events(c.events) + "); ";
        return g(c.graph) + ".add(" + in + describe(c.command) + props + ")";
    }
    case call_kind::make_edge:
        return g(c.graph) + ".make_edge(" + node(c.graph, c.nodes.at(0)) + ", " +
               (c.other_graph >= 0 ? node(c.other_graph, c.index) : node(c.graph, c.nodes.at(1))) + ")";
    case call_kind::begin_recording:
        return g(c.graph) + ".begin_recording(" + (c.flag ? "{" + q(c.queue) + "}" : q(c.queue)) + ")";
    case call_kind::end_recording:
        return g(c.graph) + ".end_recording(" +
               (c.queue < 0 ? ""
                : c.flag    ? "{" + q(c.queue) + "}"
                            : q(c.queue)) +
               ")";
    case call_kind::submit: {
        std::string deps = events(c.events);
        if (c.flag)
            deps += std::string(deps.empty() ? "" : ", ") + "pending eager event #" + std::to_string(c.value);
        return "ev[next] = " + q(c.queue) + ".submit(" + (deps.empty() ? "" : "depends_on(" + deps + "); ") +
               describe(c.command) + ")";
    }
    case call_kind::finalize:
        return e(c.exec) + " = " + g(c.graph) + ".finalize(" + (c.flag ? "{updatable}" : "") + ")";
    case call_kind::drop_exec:
        return e(c.exec) + " = {} (destroyed, launches may be in flight)";
    case call_kind::launch:
        return c.flag ? q(c.queue) + ".submit(h.ext_oneapi_graph(" + e(c.exec) + "))"
                      : q(c.queue) + ".ext_oneapi_graph(" + e(c.exec) + ")";
    case call_kind::update_nodes:
        return e(c.exec) + ".update({" + list(c.nodes, [&](int i) { return node(c.graph, i); }) + "})";
    case call_kind::update_whole:
        return e(c.exec) + ".update(" + g(c.graph) + ")";
    case call_kind::update_range:
        return node(c.graph, c.nodes.at(0)) +
               (c.variant == 0   ? ".update_range(range<1>{" + std::to_string(c.value) + "})"
                : c.variant == 1 ? ".update_range(range<2>{" + std::to_string(c.value) + ", 1})"
                                 : ".update_nd_range(nd_range<1>{" + std::to_string(c.value) + ", " +
                                       std::to_string(fuzz_local_range(c.value, c.variant == 3)) + "})");
    case call_kind::make_group:
        return g(c.graph) + ".groups[next] = dynamic_command_group{" + describe(c.command) + ", the same with " +
               (c.variant == 0 ? "" : "the other kernel and ") + "add " + std::to_string(c.value) + "}";
    case call_kind::add_group:
        return g(c.graph) + ".add(" + g(c.graph) + ".groups[" + std::to_string(c.index) + "]" +
               (c.nodes.empty() ? "" : ", {depends_on(" + list(c.nodes, [&](int i) { return node(c.graph, i); }) +
                                           ")}") +
               (c.flag ? ", {depends_on_all_leaves}" : "") + ")";
    case call_kind::set_active:
        return g(c.graph) + ".groups[" + std::to_string(c.index) + "].set_active_index(" + std::to_string(c.value) +
               ")";
    case call_kind::wait_queue:
        return q(c.queue) + ".wait_and_throw()";
    case call_kind::wait_all:
        return "wait_and_throw() on every queue; check arrays and async errors";
    case call_kind::wait_event:
        return c.flag ? "ev[" + std::to_string(c.index) + "].wait()"
                      : "(pending eager event #" + std::to_string(c.index) + ").wait()";
    case call_kind::print_graph:
        return g(c.graph) + ".print_graph(" + (c.variant == 1 ? "\"graph.txt\"" : "\"<temp>.dot\"") +
               (c.flag ? ", true" : "") + ")";
    case call_kind::misuse:
        switch (c.variant) {
        case 0:
            return q(c.queue) + ".ext_oneapi_get_graph()";
        case 1:
            return q(c.queue) + ".ext_oneapi_set_external_event(last eager event)";
        case 2:
            return "node::get_node_from_event(last eager event)";
        case 3:
            return g(c.graph) + ".add(h.ext_oneapi_barrier())";
        case 4:
            return g(c.graph) + ".add(two single_tasks in one command group)";
        case 5:
            return "node::get_node_from_event(ev[" + std::to_string(c.index) + "])";
        case 6:
            return g(c.graph) + ".add(param kernel with set_arg(3, " + std::to_string(c.index) + "))";
        case 7:
            return g(c.graph) + ".add(set_arg(0, pointer) before a lambda kernel)";
        default:
            return "misuse " + std::to_string(c.variant);
        }
    }
    return "?";
}

} // namespace fuzz
