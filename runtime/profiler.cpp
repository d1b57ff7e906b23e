#include "profiler.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <utility>

#include "encore/backends/detail/trace_recorder.hpp"
#include "encore/graph/dot_export.hpp"
#include "encore/graph/error.hpp"

namespace encore {

namespace {

struct profiler_state {
    std::mutex mutex;
    // Every session ever started: a worker may still append to one that stopped (trace_recorder.hpp).
    std::vector<std::unique_ptr<detail::trace_session>> sessions;
    detail::trace_session* current = nullptr;
    std::vector<detail::trace_record> taken; // records of `current` collected by snapshot()
};

// Never destroyed: threads of the backends (a GPU backend's completion watcher, a native worker) may still record
// into a session while the program's static objects are being destroyed, after the trace was written.
profiler_state& state() {
    static profiler_state* s = new profiler_state;
    return *s;
}

trace convert(detail::trace_data data, std::vector<detail::trace_record> earlier) {
    trace t;
    t.processes.reserve(data.processes.size());
    for (auto& p : data.processes)
        t.processes.push_back({p.process, 0, std::move(p.name), std::move(p.backend)});
    for (auto& g : data.graphs)
        t.graphs.push_back(
            {g.graph_id, std::move(g.flat), std::move(g.partition_of), g.partitions, g.process});
    for (const auto& l : data.launches)
        t.launches.push_back({l.launch, l.graph, l.submit_ns - data.start_ns});
    if (earlier.empty())
        earlier = std::move(data.records);
    else
        earlier.insert(earlier.end(), std::make_move_iterator(data.records.begin()),
                       std::make_move_iterator(data.records.end()));
    std::map<std::uint32_t, const detail::trace_track*> thread_names;
    for (const auto& th : data.threads)
        thread_names[th.thread] = &th;
    // Each graph node's name and category, once per graph rather than once per slice.
    struct node_names {
        std::vector<std::string> name, category;
    };
    std::vector<node_names> graph_names(t.graphs.size());
    for (std::size_t i = 0; i < t.graphs.size(); ++i) {
        const graph::storage& nodes = t.graphs[i].flat->boost_graph();
        for (std::size_t v = 0; v < t.graphs[i].flat->size(); ++v) {
            graph_names[i].name.push_back(detail::trace_name(nodes[v].command));
            graph_names[i].category.emplace_back(to_string(kind_of(nodes[v].command)));
        }
    }
    std::map<std::pair<std::uint32_t, std::uint32_t>, bool> seen_threads;
    std::pair<std::uint32_t, std::uint32_t> last_thread{0, 0};
    // Slices by start, then end (a partition before the nodes it encloses that start with it): a sort of
    // small keys, the slices then made in that order (sorting the slices themselves cost 3x as much).
    struct key {
        std::int64_t start, end;
        std::size_t index;
    };
    std::vector<key> order;
    order.reserve(earlier.size());
    for (std::size_t i = 0; i < earlier.size(); ++i)
        order.push_back({earlier[i].start_ns, earlier[i].end_ns, i});
    std::sort(order.begin(), order.end(), [](const key& a, const key& b) {
        return a.start != b.start ? a.start < b.start : a.end != b.end ? a.end > b.end : a.index < b.index;
    });
    t.slices.reserve(earlier.size());
    for (const key& k : order) {
        auto& r = earlier[k.index];
        trace_slice s;
        s.process = r.process;
        s.thread = r.thread;
        s.start_ns = r.start_ns - data.start_ns;
        s.end_ns = std::max(r.end_ns, r.start_ns) - data.start_ns;
        s.launch = r.launch;
        const trace_graph* g = nullptr;
        if (r.launch != 0 && r.launch <= t.launches.size()) {
            s.graph = t.launches[r.launch - 1].graph;
            g = &t.graphs[static_cast<std::size_t>(s.graph)];
        }
        switch (r.kind) {
        case detail::trace_record_kind::graph_node:
        case detail::trace_record_kind::host_task:
            if (g && r.launch != 0 && r.node < g->flat->size()) {
                const auto& names = graph_names[static_cast<std::size_t>(s.graph)];
                s.name = names.name[r.node];
                s.category = names.category[r.node];
                s.node = r.node;
                s.partition = g->partition_of[r.node];
            } else {
                s.name = r.name.empty() ? "host_task" : std::move(r.name);
                s.category = std::string(to_string(
                    r.kind == detail::trace_record_kind::host_task ? command_kind::host_task : r.command));
            }
            break;
        case detail::trace_record_kind::partition:
            s.name = "partition " + std::to_string(r.node);
            s.category = "partition";
            s.partition = r.node;
            break;
        case detail::trace_record_kind::eager:
            s.name = std::move(r.name);
            s.category = std::string(to_string(r.command));
            break;
        }
        if (std::pair{s.process, s.thread} == last_thread ||
            !seen_threads.emplace(std::pair{s.process, s.thread}, true).second) {
            last_thread = {s.process, s.thread};
            t.slices.push_back(std::move(s));
            continue;
        }
        last_thread = {s.process, s.thread};
        auto name = thread_names.find(s.thread);
        t.threads.push_back(
            {s.process,
             s.thread,
             name != thread_names.end() ? name->second->name : "thread " + std::to_string(s.thread),
             {}});
        t.slices.push_back(std::move(s));
    }
    return t;
}

detail::trace_session& require_current(profiler_state& s, const char* call) {
    if (!s.current)
        throw error(errc::invalid_argument, std::string("profiler::") + call +
                                                ": no trace is recording (start one with profiler::start)");
    return *s.current;
}

void write_json(const nlohmann::json& j, const std::string& path) {
    std::ofstream file(path);
    if (!file)
        throw error(errc::invalid_argument,
                    "cannot open '" + path + "' for writing: " + std::strerror(errno));
    file << j.dump() << '\n';
    file.close();
    if (!file) throw error(errc::invalid_argument, "writing '" + path + "' failed");
}

// ENCORE_PROFILE=FILE: records from the library's start-up, writes FILE when the program ends. Nothing here
// may throw or end the program: a problem is a line on stderr.
struct environment_profile {
    std::string path;
    environment_profile() {
        const char* value = std::getenv("ENCORE_PROFILE");
        if (!value || !*value) return;
        // "%p" becomes the process id: a program that starts others (or a test suite) gets one file per
        // process.
        std::string expanded = value;
        for (auto at = expanded.find("%p"); at != std::string::npos; at = expanded.find("%p", at))
            expanded.replace(at, 2, std::to_string(::getpid()));
        {
            std::ofstream probe(expanded); // fails now rather than after the whole run
            if (!probe) {
                std::fprintf(
                    stderr,
                    "encore: ENCORE_PROFILE='%s' cannot be opened for writing (%s); no trace is recorded\n",
                    expanded.c_str(), std::strerror(errno));
                return;
            }
        }
        try {
            profiler::start();
            path = std::move(expanded);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "encore: ENCORE_PROFILE: %s\n", e.what());
        }
    }
    ~environment_profile() {
        if (path.empty() || !profiler::active()) return; // stopped by the program itself
        try {
            write_chrome_trace(profiler::stop(), path);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "encore: ENCORE_PROFILE: the trace was not written: %s\n", e.what());
        }
    }
};
const environment_profile profile_from_environment;

} // namespace

void profiler::start() {
    auto& s = state();
    std::lock_guard lock(s.mutex);
    if (s.current)
        throw error(errc::invalid_argument,
                    "profiler::start: a trace is already recording (profiler::start was "
                    "called before, or ENCORE_PROFILE is set); stop it first");
    s.current = s.sessions.emplace_back(std::make_unique<detail::trace_session>()).get();
    s.taken.clear();
    detail::active_trace_session.session.store(s.current, std::memory_order_release);
}

trace profiler::stop() {
    auto& s = state();
    std::lock_guard lock(s.mutex);
    auto& session = require_current(s, "stop");
    detail::active_trace_session.session.store(nullptr, std::memory_order_release);
    s.current = nullptr;
    return convert(session.collect(true), std::exchange(s.taken, {}));
}

bool profiler::active() noexcept {
    return detail::tracing() != nullptr;
}

trace profiler::snapshot() {
    auto& s = state();
    std::lock_guard lock(s.mutex);
    auto data = require_current(s, "snapshot").collect(false);
    s.taken.insert(s.taken.end(), data.records.begin(), data.records.end());
    data.records.clear();
    return convert(std::move(data), s.taken);
}

nlohmann::json to_chrome_trace(const trace& t) {
    using nlohmann::json;
    json events = json::array();
    auto us = [](std::int64_t ns) { return static_cast<double>(ns) / 1e3; };
    for (const auto& p : t.processes) {
        events.push_back(
            {{"ph", "M"}, {"name", "process_name"}, {"pid", p.process}, {"args", {{"name", p.name}}}});
        events.push_back(
            {{"ph", "M"}, {"name", "process_labels"}, {"pid", p.process}, {"args", {{"labels", p.backend}}}});
        events.push_back({{"ph", "M"},
                          {"name", "thread_name"},
                          {"pid", p.process},
                          {"tid", 0},
                          {"args", {{"name", p.process == 1 ? "host tasks" : "graph launches"}}}});
    }
    for (const auto& th : t.threads)
        events.push_back({{"ph", "M"},
                          {"name", "thread_name"},
                          {"pid", th.process},
                          {"tid", th.thread},
                          {"args", {{"name", th.name}}}});
    for (const auto& l : t.launches) {
        const auto& g = t.graphs[l.graph];
        events.push_back(
            {{"ph", "i"},
             {"s", "p"},
             {"name", "launch " + std::to_string(l.number) + " of graph " + std::to_string(g.id)},
             {"cat", "launch"},
             {"pid", g.process},
             {"tid", 0},
             {"ts", us(l.submit_ns)},
             {"args",
              {{"graph", g.id},
               {"launch", l.number},
               {"nodes", g.flat->size()},
               {"partitions", g.partitions}}}});
    }
    // Where each node of each launch ran, for the arrows.
    std::map<std::pair<std::uint64_t, std::int64_t>, const trace_slice*> node_slices;
    for (const auto& s : t.slices) {
        json args = json::object();
        if (s.launch) {
            args["graph"] = t.graphs[static_cast<std::size_t>(s.graph)].id;
            args["launch"] = s.launch;
        }
        if (s.node >= 0) args["node"] = s.node;
        if (s.partition >= 0) args["partition"] = s.partition;
        events.push_back({{"ph", "X"},
                          {"name", s.name},
                          {"cat", s.category},
                          {"pid", s.process},
                          {"tid", s.thread},
                          {"ts", us(s.start_ns)},
                          {"dur", us(s.end_ns - s.start_ns)},
                          {"args", std::move(args)}});
        if (s.launch && s.node >= 0) node_slices[{s.launch, s.node}] = &s;
    }
    // Flow arrows along the edges, from the predecessor's slice to the successor's: "s" and "f" (with
    // "bp":"e") bind to the slice that encloses their time on their thread, so both sit in the middle of
    // their slice, where no boundary of a neighbour or of the enclosing partition can be mistaken for it.
    auto middle = [](const trace_slice& s) { return s.start_ns + (s.end_ns - s.start_ns) / 2; };
    std::uint64_t flow = 0;
    for (const auto& l : t.launches) {
        const auto& g = *t.graphs[l.graph].flat;
        const auto& s = g.boost_graph();
        for (auto e : boost::make_iterator_range(boost::edges(s))) {
            auto from = node_slices.find({l.number, static_cast<std::int64_t>(boost::source(e, s))});
            auto to = node_slices.find({l.number, static_cast<std::int64_t>(boost::target(e, s))});
            if (from == node_slices.end() || to == node_slices.end()) continue;
            ++flow;
            events.push_back({{"ph", "s"},
                              {"id", flow},
                              {"name", "dependency"},
                              {"cat", "dependency"},
                              {"pid", from->second->process},
                              {"tid", from->second->thread},
                              {"ts", us(middle(*from->second))}});
            events.push_back({{"ph", "f"},
                              {"bp", "e"},
                              {"id", flow},
                              {"name", "dependency"},
                              {"cat", "dependency"},
                              {"pid", to->second->process},
                              {"tid", to->second->thread},
                              {"ts", us(middle(*to->second))}});
        }
    }
    json graphs = json::array();
    for (const auto& g : t.graphs)
        graphs.push_back({{"id", g.id},
                          {"nodes", g.flat->size()},
                          {"partitions", g.partitions},
                          {"device", t.processes[g.process - 1].name},
                          {"backend", t.processes[g.process - 1].backend}});
    return {{"traceEvents", std::move(events)},
            {"displayTimeUnit", "ns"},
            {"otherData",
             {{"producer", "Encore"},
              {"clock", "steady_clock, microseconds since the trace started"},
              {"graphs", std::move(graphs)}}}};
}

void write_chrome_trace(const trace& t, const std::string& path) {
    write_json(to_chrome_trace(t), path);
}

std::vector<double> node_durations(const trace& t, std::uint64_t graph_id) {
    const trace_graph* graph = nullptr;
    for (const auto& g : t.graphs)
        if (g.id == graph_id) {
            graph = &g;
            break;
        }
    if (!graph)
        throw error(errc::invalid_argument,
                    "node_durations: the trace holds no launch of graph " + std::to_string(graph_id));
    const std::size_t count = graph->flat->size();
    std::vector<double> sum(count, 0);
    std::vector<std::uint32_t> runs(count, 0);
    for (const auto& s : t.slices) {
        if (s.node < 0 || t.graphs[static_cast<std::size_t>(s.graph)].id != graph_id) continue;
        if (static_cast<std::size_t>(s.node) >= count) continue;
        sum[static_cast<std::size_t>(s.node)] += static_cast<double>(s.end_ns - s.start_ns);
        ++runs[static_cast<std::size_t>(s.node)];
    }
    for (std::size_t v = 0; v < count; ++v)
        sum[v] = runs[v] ? sum[v] / runs[v] : -1;
    return sum;
}

void write_timed_dot(const trace& t, std::uint64_t graph_id, const std::string& path) {
    const auto ns = node_durations(t, graph_id); // throws for an unknown graph
    for (const auto& g : t.graphs)
        if (g.id == graph_id) return write_timed_dot_file(*g.flat, path, ns);
}

} // namespace encore
