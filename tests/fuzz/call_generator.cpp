#include "call_generator.hpp"

#include <algorithm>

namespace fuzz {

namespace {
// How often each kind of call is tried (a kind that makes no sense at the moment is drawn again).
struct weighted {
    call_kind kind;
    int weight;
};
constexpr weighted weights[] = {
    {call_kind::allocate, 4},       {call_kind::free_array, 2},     {call_kind::free_twice, 1},
    {call_kind::use_after_free, 1}, {call_kind::make_graph, 5},     {call_kind::drop_graph, 1},
    {call_kind::clone_graph, 3},    {call_kind::make_parameter, 3}, {call_kind::update_parameter, 4},
    {call_kind::add, 22},           {call_kind::make_edge, 10},     {call_kind::begin_recording, 6},
    {call_kind::end_recording, 5},  {call_kind::submit, 26},        {call_kind::finalize, 7},
    {call_kind::drop_exec, 1},      {call_kind::launch, 14},        {call_kind::update_nodes, 5},
    {call_kind::update_whole, 4},   {call_kind::update_range, 8},   {call_kind::wait_queue, 3},
    {call_kind::wait_all, 3},       {call_kind::wait_event, 1},     {call_kind::print_graph, 1},
    {call_kind::misuse, 3},         {call_kind::make_group, 4},     {call_kind::add_group, 8},
    {call_kind::set_active, 5},
};
} // namespace

int call_generator::live_array(const session& s, int avoid) {
    std::vector<int> live;
    for (int a = 0; a < array_slots; ++a)
        if (s.array_live(a) && a != avoid) live.push_back(a);
    return live.empty() ? pick(array_slots) : live[pick(static_cast<int>(live.size()))];
}

int call_generator::live_graph(const session& s, int avoid) {
    std::vector<int> live;
    for (int g = 0; g < graph_slots; ++g)
        if (s.graph(g).uid >= 0 && g != avoid) live.push_back(g);
    return live.empty() ? -1 : live[pick(static_cast<int>(live.size()))];
}

int call_generator::empty_graph(const session& s) {
    std::vector<int> empty;
    for (int g = 0; g < graph_slots; ++g)
        if (s.graph(g).uid < 0) empty.push_back(g);
    return empty.empty() ? -1 : empty[pick(static_cast<int>(empty.size()))];
}

int call_generator::live_exec(const session& s) {
    std::vector<int> live;
    for (int e = 0; e < exec_slots; ++e)
        if (s.exec(e).uid >= 0) live.push_back(e);
    return live.empty() ? -1 : live[pick(static_cast<int>(live.size()))];
}

command_spec call_generator::command(const session& s, int graph, bool eager) {
    command_spec c;
    const int r = pick(100);
    c.kind = r < 10   ? command_kind::fill
             : r < 20 ? command_kind::copy
             : r < 35 ? command_kind::scale
             : r < 50 ? command_kind::accumulate
             : r < 65 ? command_kind::param_kernel
             : r < 76 ? command_kind::host_mix
             : r < 79 ? command_kind::host_throw
             : r < 82 ? command_kind::kernel_throw
             : r < 86 ? command_kind::empty
             : r < 93 ? command_kind::local_kernel
                      : command_kind::subgraph;
    c.dst = live_array(s);
    c.src = live_array(s, c.kind == command_kind::copy ? c.dst : -1);
    c.mul = static_cast<std::uint32_t>(random_()) | 1;
    c.add = static_cast<std::uint32_t>(random_() % 1000);
    c.count = chance(0.7) ? array_length : 1 + pick(array_length);
    c.tag = next_tag_++;
    if (c.kind == command_kind::subgraph) {
        c.exec = live_exec(s);
        if (c.exec < 0) c.kind = command_kind::scale;
    }
    if (c.kind == command_kind::param_kernel) {
        // Mostly the parameters of the graph the command goes into; now and then another graph's (refused),
        // and for eager work any graph's (refused).
        int from = graph;
        if (eager ? chance(0.05) : chance(0.04)) from = live_graph(s, graph);
        if (from >= 0) {
            const auto& parameters = s.graph(from).parameters;
            std::vector<int> pointers, scalars;
            for (int i = 0; i < static_cast<int>(parameters.size()); ++i)
                // A parameter made without a graph would join the other graph; local accessors take no value.
                if ((from == graph || !parameters[i].without_graph) && !parameters[i].local)
                    (parameters[i].pointer ? pointers : scalars).push_back(i);
            if ((eager || from != graph || chance(0.6)) && !pointers.empty())
                c.src_param = pointers[pick(static_cast<int>(pointers.size()))];
            if ((eager || from != graph || chance(0.6)) && !scalars.empty())
                c.mul_param = scalars[pick(static_cast<int>(scalars.size()))];
            if (c.src_param >= 0 || c.mul_param >= 0) c.param_graph = from;
        }
    }
    if (c.kind == command_kind::local_kernel) {
        // Mostly a dynamic_local_accessor of the graph's (eager work: refused), else a plain local_accessor.
        int from = graph;
        if (eager ? chance(0.05) : chance(0.04)) from = live_graph(s, graph);
        if (from >= 0 && (eager || from != graph || chance(0.7))) {
            const auto& parameters = s.graph(from).parameters;
            std::vector<int> locals;
            for (int i = 0; i < static_cast<int>(parameters.size()); ++i)
                if (parameters[i].local) locals.push_back(i);
            if (!locals.empty()) {
                c.local_param = locals[pick(static_cast<int>(locals.size()))];
                c.param_graph = from;
            }
        }
    }
    return c;
}

// The nodes of `graph` that touch an array the command writes, or write one it reads: depending on them keeps
// the graph free of races (most of the time; the model also copes with races the program makes).
std::vector<int> call_generator::conflicting_nodes(const session& s, int graph, const command_spec& c) {
    return conflicting_nodes(s, graph, c.kind, s.array_id(c.dst), s.array_id(c.src));
}

std::vector<int> call_generator::conflicting_nodes(const session& s, int graph, command_kind kind, alloc_id dst,
                                                   alloc_id src) {
    std::vector<int> out;
    const command_spec c{.kind = kind};
    const auto& nodes = s.graph(graph).nodes;
    for (int v = static_cast<int>(nodes.size()) - 1; v >= 0; --v) {
        const auto& n = nodes[v];
        const bool node_writes = writes_dst(n.spec.kind);
        const bool touches = (n.dst == dst && (writes_dst(c.kind) || node_writes)) ||
                             (n.src == dst && writes_dst(c.kind)) ||
                             (node_writes && n.dst == src && reads_src(c.kind)) ||
                             n.spec.kind == command_kind::subgraph || c.kind == command_kind::subgraph;
        if (touches && chance(0.9)) out.push_back(v);
    }
    return out;
}

call call_generator::next(const session& s) {
    // Too much unwaited work makes every later command depend on a long list: wait now and then.
    if (s.pending_count() > 48) return call{.kind = call_kind::wait_all};
    int total = 0;
    for (const auto& w : weights)
        total += w.weight;
    for (;;) {
        int r = pick(total);
        call c;
        for (const auto& w : weights) {
            if (r < w.weight) {
                c.kind = w.kind;
                break;
            }
            r -= w.weight;
        }
        if (fill(s, c)) return c;
    }
}

bool call_generator::fill(const session& s, call& c) {
    switch (c.kind) {
    case call_kind::allocate: {
        for (int a = 0; a < array_slots; ++a)
            if (!s.array_live(a)) {
                c.slot = a;
                return true;
            }
        return false;
    }
    case call_kind::free_array:
        c.slot = pick(array_slots);
        return s.array_live(c.slot);
    case call_kind::free_twice:
        c.index = pick(static_cast<int>(s.freed_count()));
        return s.freed_count() > 0;
    case call_kind::use_after_free:
        c.index = pick(static_cast<int>(s.freed_count()));
        c.queue = pick(queue_count);
        c.variant = pick(3);
        c.graph = live_graph(s);
        return s.freed_count() > 0 && (c.variant < 2 || c.graph >= 0);
    case call_kind::make_graph:
        c.graph = empty_graph(s);
        return c.graph >= 0;
    case call_kind::drop_graph:
        c.graph = live_graph(s);
        return c.graph >= 0;
    case call_kind::clone_graph:
        c.graph = live_graph(s);
        c.other_graph = empty_graph(s);
        c.value = static_cast<std::uint32_t>(random_());
        c.variant = chance(0.6) ? 0 : 1 + pick(3);
        c.command.tag = next_tag_++;
        return c.graph >= 0 && c.other_graph >= 0;
    case call_kind::make_parameter:
        c.graph = live_graph(s);
        c.flag = chance(0.5);
        c.variant = pick(4); // scalars: by value, as raw_kernel_arg bytes, made without a graph; 3: a local accessor
        c.slot = live_array(s);
        c.value = static_cast<std::uint32_t>(random_()) | 1;
        return c.graph >= 0;
    case call_kind::update_parameter:
        c.graph = live_graph(s);
        if (c.graph < 0 || s.graph(c.graph).parameters.empty()) return false;
        c.index = pick(static_cast<int>(s.graph(c.graph).parameters.size()));
        if (s.graph(c.graph).parameters[c.index].pointer) c.slot = live_array(s);
        c.value = static_cast<std::uint32_t>(random_()) | 1;
        return true;
    case call_kind::add: {
        c.graph = live_graph(s);
        if (c.graph < 0 || (!s.graph(c.graph).recorders.empty() && chance(0.85))) return false;
        c.command = command(s, c.graph, false);
        auto deps = conflicting_nodes(s, c.graph, c.command);
        const int size = static_cast<int>(s.graph(c.graph).nodes.size());
        if (size > 0 && chance(0.1)) deps.push_back(pick(size));
        std::sort(deps.begin(), deps.end());
        deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
        while (deps.size() > 4)
            deps.erase(deps.begin()); // the latest ones
        c.nodes = deps;
        if (chance(0.03)) {
            c.other_graph = live_graph(s, c.graph);
            if (c.other_graph >= 0) c.index = pick(static_cast<int>(s.graph(c.other_graph).nodes.size()));
            if (c.nodes.size() == 4) c.nodes.pop_back();
        }
        if (chance(0.06) && s.recorded_event_count() > 0)
            c.events.push_back(pick(static_cast<int>(s.recorded_event_count())));
        c.flag = chance(0.08);
        return true;
    }
    case call_kind::make_edge: {
        c.graph = live_graph(s);
        if (c.graph < 0) return false;
        const auto& g = s.graph(c.graph);
        const int size = static_cast<int>(g.nodes.size());
        if (size < 2 || (!g.recorders.empty() && chance(0.85))) return false;
        int a = pick(size), b = pick(size);
        const int r = pick(100);
        const bool has_predecessor = !g.nodes[a].predecessors.empty();
        if (r < 8)
            b = a; // a self edge
        else if (r < 12 && has_predecessor)
            b = a, a = *g.nodes[b].predecessors.begin(); // an edge that exists already
        else if (r < 16 && has_predecessor)
            b = *g.nodes[a].predecessors.begin(); // the reverse of an edge: a cycle
        else if (r < 20) {
            c.other_graph = live_graph(s, c.graph);
            if (c.other_graph >= 0 && !s.graph(c.other_graph).nodes.empty())
                c.index = pick(static_cast<int>(s.graph(c.other_graph).nodes.size()));
            else
                c.other_graph = -1;
        } else if (a > b)
            std::swap(a, b); // mostly forward edges, which are rarely cycles
        c.nodes = {a, b};
        return true;
    }
    case call_kind::begin_recording:
        c.graph = live_graph(s);
        c.queue = pick(queue_count);
        c.flag = chance(0.2);
        return c.graph >= 0;
    case call_kind::end_recording: {
        c.graph = live_graph(s);
        if (c.graph < 0 || (s.graph(c.graph).recorders.empty() && chance(0.8))) return false;
        c.queue = chance(0.5) ? -1 : pick(queue_count);
        c.flag = chance(0.2);
        return true;
    }
    case call_kind::submit: {
        c.queue = pick(queue_count);
        const int recording = s.queue_recording(c.queue);
        c.command = command(s, recording, recording < 0);
        if (recording >= 0) {
            // The events of the nodes it must follow (an in-order queue follows its own last node anyway).
            auto deps = conflicting_nodes(s, recording, c.command);
            for (std::size_t i = 0; i < s.recorded_event_count() && c.events.size() < 6; ++i)
                if (s.recorded_event_graph_slot(i) == recording &&
                    std::find(deps.begin(), deps.end(), s.recorded_event_node(i)) != deps.end())
                    c.events.push_back(static_cast<int>(i));
            if (chance(0.04) && s.recorded_event_count() > 0) // maybe of another graph
                c.events.push_back(pick(static_cast<int>(s.recorded_event_count())));
        } else if (chance(0.1) && s.recorded_event_count() > 0) {
            // Transitive recording: depend on a recorded event (joins its graph's recording, if it has one).
            c.events.push_back(pick(static_cast<int>(s.recorded_event_count())));
        }
        c.flag = chance(0.03) && s.pending_count() > 0;
        c.value = static_cast<std::uint32_t>(random_() % 1000);
        return true;
    }
    case call_kind::finalize:
        c.graph = live_graph(s);
        c.exec = pick(exec_slots);
        c.flag = chance(0.7);
        return c.graph >= 0;
    case call_kind::drop_exec:
        c.exec = live_exec(s);
        return c.exec >= 0;
    case call_kind::launch:
        c.exec = live_exec(s);
        c.queue = pick(queue_count);
        c.flag = chance(0.3);
        return c.exec >= 0;
    case call_kind::update_nodes: {
        c.exec = live_exec(s);
        if (c.exec < 0) return false;
        c.graph = -1;
        for (int g = 0; g < graph_slots; ++g)
            if (s.graph(g).uid == s.exec(c.exec).source_uid) c.graph = g;
        if (c.graph < 0 || chance(0.05)) c.graph = live_graph(s);
        if (c.graph < 0 || s.graph(c.graph).nodes.empty()) return false;
        const int size = static_cast<int>(s.graph(c.graph).nodes.size());
        for (int k = 1 + pick(3); k > 0; --k)
            c.nodes.push_back(pick(size));
        return true;
    }
    case call_kind::update_whole:
        c.exec = live_exec(s);
        c.graph = live_graph(s);
        return c.exec >= 0 && c.graph >= 0;
    case call_kind::update_range: {
        c.graph = live_graph(s);
        if (c.graph < 0 || s.graph(c.graph).nodes.empty()) return false;
        const auto& nodes = s.graph(c.graph).nodes;
        std::vector<int> kernels;
        for (int v = 0; v < static_cast<int>(nodes.size()); ++v)
            if (is_kernel(nodes[v].spec.kind)) kernels.push_back(v);
        const int v = !kernels.empty() && chance(0.85) ? kernels[pick(static_cast<int>(kernels.size()))]
                                                       : pick(static_cast<int>(nodes.size()));
        c.nodes = {v};
        c.value = 1 + pick(array_length);
        const int r = pick(100);
        c.variant = r < 60 ? 0 : r < 88 ? 2 : r < 94 ? 1 : 3;
        return true;
    }
    case call_kind::make_group: {
        c.graph = live_graph(s);
        if (c.graph < 0) return false;
        c.command = command(s, c.graph, false);
        if (c.command.kind != command_kind::param_kernel) {
            c.command.kind = command_kind::accumulate;
            c.command.param_graph = c.command.src_param = c.command.mul_param = -1;
        }
        c.variant = pick(2);
        c.value = static_cast<std::uint32_t>(random_() % 1000);
        return true;
    }
    case call_kind::add_group: {
        c.graph = live_graph(s);
        if (c.graph < 0 || s.graph(c.graph).groups.empty()) return false;
        const auto& g = s.graph(c.graph);
        if (!g.recorders.empty() && chance(0.85)) return false;
        c.index = pick(static_cast<int>(g.groups.size()));
        // Its command groups touch the same arrays: order it after the nodes that conflict with the first.
        const auto& member = g.groups[c.index].members[0];
        auto deps = conflicting_nodes(s, c.graph, member.spec.kind, member.dst, member.src);
        std::sort(deps.begin(), deps.end());
        deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
        while (deps.size() > 4)
            deps.erase(deps.begin());
        c.nodes = deps;
        c.flag = chance(0.08);
        return true;
    }
    case call_kind::set_active: {
        c.graph = live_graph(s);
        if (c.graph < 0 || s.graph(c.graph).groups.empty()) return false;
        c.index = pick(static_cast<int>(s.graph(c.graph).groups.size()));
        c.value = chance(0.95) ? pick(2) : 2; // 2: not a command group of it
        return true;
    }
    case call_kind::wait_queue:
        c.queue = pick(queue_count);
        return true;
    case call_kind::wait_all:
        return true;
    case call_kind::wait_event:
        c.flag = chance(0.5);
        c.index = pick(static_cast<int>(c.flag ? s.recorded_event_count() : s.pending_count()));
        return c.flag ? s.recorded_event_count() > 0 : s.pending_count() > 0;
    case call_kind::print_graph:
        c.graph = live_graph(s);
        c.flag = chance(0.5);
        c.variant = chance(0.1) ? 1 : 0;
        return c.graph >= 0;
    case call_kind::misuse:
        c.variant = pick(8);
        if (c.variant == 6) c.index = static_cast<int>(random_() % 100);
        c.queue = pick(queue_count);
        c.graph = live_graph(s);
        c.index = pick(static_cast<int>(s.recorded_event_count()));
        return true;
    }
    return false;
}

} // namespace fuzz
