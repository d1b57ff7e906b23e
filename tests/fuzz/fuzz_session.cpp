// The fuzz session's setup and teardown, and the commands it puts in command groups (with the model's view of
// each). Its checks: session_checks.cpp; the calls: graph_calls.cpp (building and recording graphs),
// exec_calls.cpp (finalize, launch, update), memory_and_wait_calls.cpp (USM, waits, print_graph, misuses).
#include "fuzz_session.hpp"

#include <algorithm>

#include "encore/runtime/kernel_function.hpp"

namespace fuzz {

// The kernel object of param_kernel: its source and factor can be dynamic parameters (set_arg needs a kernel
// object). One object for every node, so whole-graph update sees the same kernel.
sycl::kernel param_kernel_object() {
    static const sycl::kernel k = sycl::ext::encore::make_kernel(encore::make_kernel(
        "fuzz_param_kernel", 3, [](const encore::work_item& it, std::span<const encore::kernel_argument> args) {
            auto* dst = static_cast<std::uint32_t*>(args[0].pointer());
            const auto* src = static_cast<const std::uint32_t*>(args[1].pointer());
            const auto i = static_cast<std::uint32_t>(it.global_id[0]);
            dst[i] = param_value(dst[i], src[i], args[2].scalar<std::uint32_t>(), i);
        }));
    return k;
}

// Writes every element of its work-group's local memory (ASan sees a size that is not the memory's), then adds
// how many there are to dst[i].
sycl::kernel local_kernel_object() {
    static const sycl::kernel k = sycl::ext::encore::make_kernel(encore::make_kernel(
        "fuzz_local_kernel", 2, [](const encore::work_item& it, std::span<const encore::kernel_argument> args) {
            auto* dst = static_cast<std::uint32_t*>(args[0].pointer());
            const auto elements = static_cast<std::uint32_t>(args[1].local_bytes / sizeof(std::uint32_t));
            auto* local = reinterpret_cast<std::uint32_t*>(it.local_memory[0]);
            for (std::uint32_t e = 0; e < elements; ++e)
                local[e] = e;
            const auto i = it.global_id[0];
            dst[i] = local_value(dst[i], local[elements - 1] + 1);
        }));
    return k;
}

namespace {
std::string tag_text(int tag) {
    return "fuzz-tag-" + std::to_string(tag);
}

} // namespace

std::string errc_name(const std::error_code& code) {
    return code.category() == sycl::sycl_category()
               ? "errc " + std::to_string(code.value()) + " (" + code.message() + ")"
               : code.message();
}

session::session() : received_(queue_count), expected_(queue_count) {
    for (int q = 0; q < queue_count; ++q) {
        auto handler = [this, q](sycl::exception_list errors) {
            for (const auto& error : errors) {
                std::string text;
                bool runtime = false;
                try {
                    std::rethrow_exception(error);
                } catch (const sycl::exception& e) {
                    text = e.what();
                    runtime = e.code() == sycl::errc::runtime;
                } catch (const std::exception& e) {
                    text = std::string("not a sycl::exception: ") + e.what();
                } catch (...) {
                    text = "not a std::exception";
                }
                std::lock_guard lock(errors_mutex_);
                const auto at = text.find("fuzz-tag-");
                if (!runtime || at == std::string::npos)
                    strange_errors_.push_back("q" + std::to_string(q) + ": " + text);
                else
                    received_[q].insert(std::stoi(text.substr(at + 9)));
            }
        };
        sycl::property_list properties;
        if (is_in_order(q)) properties = sycl::property_list{sycl::property::queue::in_order{}};
        queues_.emplace_back(handler, properties);
    }
    check_queue_.emplace(queues_[0].get_context(), queues_[0].get_device());
    // Every run starts with its four arrays allocated (free_array and allocate change that).
    for (int a = 0; a < array_slots; ++a)
        allocate(call{.kind = call_kind::allocate, .slot = a});
}

session::~session() {
    // Never throws: a failed run is torn down here too. Ends recordings, waits for all work, drains async
    // errors, then lets the objects go, the queues last (their handlers write into this object).
    for (auto& g : graphs_)
        if (g.graph) g.graph->end_recording(); // does not throw
    for (auto& q : queues_) {
        try {
            q.wait_and_throw();
        } catch (...) {
        }
    }
    pending_.clear();
    events_.clear();
    for (auto& e : execs_)
        e.graph.reset();
    for (auto& g : graphs_) {
        g.parameters.clear();
        g.nodes.clear();
        g.graph.reset();
    }
    for (auto& a : arrays_)
        if (a.pointer) sycl::free(a.pointer, queues_[0]);
    queues_.clear();
}

int session::queue_recording(int queue) const {
    for (int s = 0; s < graph_slots; ++s)
        if (graphs_[s].model.recorders.contains(queue)) return s;
    return -1;
}

int session::slot_of_graph(int uid) const {
    for (int s = 0; s < graph_slots; ++s)
        if (graphs_[s].model.uid == uid) return s;
    return -1;
}

int session::recorded_event_graph_slot(std::size_t index) const {
    return slot_of_graph(events_[index].graph_uid);
}

bool session::graph_alive(int uid) const {
    if (slot_of_graph(uid) >= 0) return true;
    return std::any_of(execs_.begin(), execs_.end(),
                       [&](const exec_slot& e) { return e.model.source_uid == uid; });
}

std::string session::run(const call& c) {
    // Calls name slots; a hand-written or damaged sequence may name none where one is needed.
    const bool needs_graph = c.kind == call_kind::make_graph || c.kind == call_kind::drop_graph ||
                             c.kind == call_kind::clone_graph || c.kind == call_kind::make_parameter ||
                             c.kind == call_kind::update_parameter || c.kind == call_kind::add ||
                             c.kind == call_kind::make_edge || c.kind == call_kind::begin_recording ||
                             c.kind == call_kind::end_recording || c.kind == call_kind::finalize ||
                             c.kind == call_kind::update_nodes || c.kind == call_kind::update_whole ||
                             c.kind == call_kind::update_range || c.kind == call_kind::print_graph;
    const bool needs_exec = c.kind == call_kind::finalize || c.kind == call_kind::drop_exec ||
                            c.kind == call_kind::launch || c.kind == call_kind::update_nodes ||
                            c.kind == call_kind::update_whole;
    const bool needs_queue = c.kind == call_kind::begin_recording || c.kind == call_kind::submit ||
                             c.kind == call_kind::launch || c.kind == call_kind::wait_queue ||
                             c.kind == call_kind::use_after_free || c.kind == call_kind::misuse;
    if ((needs_graph && c.graph < 0) || (needs_exec && c.exec < 0) || (needs_queue && c.queue < 0) ||
        c.graph >= graph_slots || c.other_graph >= graph_slots || c.exec >= exec_slots ||
        c.queue >= queue_count || c.slot >= array_slots ||
        (c.kind == call_kind::clone_graph && c.other_graph < 0) ||
        ((c.kind == call_kind::allocate || c.kind == call_kind::free_array) && c.slot < 0))
        return "skipped";
    std::string outcome;
    switch (c.kind) {
    case call_kind::allocate:
        outcome = allocate(c);
        break;
    case call_kind::free_array:
        outcome = free_array(c);
        break;
    case call_kind::free_twice:
        outcome = free_twice(c);
        break;
    case call_kind::use_after_free:
        outcome = use_after_free(c);
        break;
    case call_kind::make_graph:
        outcome = make_graph(c);
        break;
    case call_kind::drop_graph:
        outcome = drop_graph(c);
        break;
    case call_kind::clone_graph:
        outcome = clone_graph(c);
        break;
    case call_kind::make_parameter:
        outcome = make_parameter(c);
        break;
    case call_kind::update_parameter:
        outcome = update_parameter(c);
        break;
    case call_kind::make_group:
        outcome = make_group(c);
        break;
    case call_kind::add_group:
        outcome = add_group(c);
        break;
    case call_kind::set_active:
        outcome = set_active(c);
        break;
    case call_kind::add:
        outcome = add(c);
        break;
    case call_kind::make_edge:
        outcome = make_edge(c);
        break;
    case call_kind::begin_recording:
        outcome = begin_recording(c);
        break;
    case call_kind::end_recording:
        outcome = end_recording(c);
        break;
    case call_kind::submit:
        outcome = submit(c);
        break;
    case call_kind::finalize:
        outcome = finalize(c);
        break;
    case call_kind::drop_exec:
        outcome = drop_exec(c);
        break;
    case call_kind::launch:
        outcome = launch(c);
        break;
    case call_kind::update_nodes:
        outcome = update_nodes(c);
        break;
    case call_kind::update_whole:
        outcome = update_whole(c);
        break;
    case call_kind::update_range:
        outcome = update_range(c);
        break;
    case call_kind::wait_queue:
        outcome = wait_queue(c);
        break;
    case call_kind::wait_all:
        outcome = wait_all();
        break;
    case call_kind::wait_event:
        outcome = wait_event(c);
        break;
    case call_kind::print_graph:
        outcome = print_graph(c);
        break;
    case call_kind::misuse:
        outcome = misuse(c);
        break;
    }
    // Every call, valid or not, must leave the graphs and queues as the model has them.
    if (outcome != "skipped") check_structure();
    return outcome;
}

void session::finish() {
    for (int s = 0; s < graph_slots; ++s)
        if (graphs_[s].graph && !graphs_[s].model.recorders.empty()) {
            expect_ok("end_recording", [&] { return graphs_[s].graph->end_recording(); });
            graphs_[s].model.recorders.clear();
        }
    wait_all();
}

// ---------------------------------------------------------------------------------------------------------------
// Commands.

std::optional<session::prepared> session::prepare(const command_spec& s) {
    prepared p;
    p.node.spec = s;
    auto& m = p.model;
    m.kind = s.kind;
    m.mul = s.mul;
    m.add = s.add;
    m.count = s.count;
    m.tag = s.tag;
    if (writes_dst(s.kind)) {
        if (!array_live(s.dst)) return std::nullopt;
        p.dst = arrays_[s.dst].pointer;
        m.dst = p.node.dst = arrays_[s.dst].id;
    }
    if (s.kind == command_kind::param_kernel && s.param_graph >= 0 &&
        (s.src_param >= 0 || s.mul_param >= 0)) {
        auto& g = graphs_[s.param_graph];
        if (!g.graph) return std::nullopt;
        p.param_graph_uid = g.model.uid;
        const auto& parameters = g.model.parameters;
        if (s.src_param >= 0) {
            if (s.src_param >= static_cast<int>(parameters.size()) || !parameters[s.src_param].pointer ||
                !memory_.alive(parameters[s.src_param].array))
                return std::nullopt;
            p.src_param = &std::get<0>(g.parameters[s.src_param]);
            m.src = parameters[s.src_param].array;
        }
        if (s.mul_param >= 0) {
            if (s.mul_param >= static_cast<int>(parameters.size()) || parameters[s.mul_param].pointer)
                return std::nullopt;
            if (parameters[s.mul_param].raw)
                p.mul_raw_param = &std::get<2>(g.parameters[s.mul_param]);
            else
                p.mul_param = &std::get<1>(g.parameters[s.mul_param]);
            m.mul = parameters[s.mul_param].value;
        }
    } else if (s.kind == command_kind::local_kernel && s.param_graph >= 0 && s.local_param >= 0) {
        auto& g = graphs_[s.param_graph];
        if (!g.graph) return std::nullopt;
        const auto& parameters = g.model.parameters;
        if (s.local_param >= static_cast<int>(parameters.size()) || !parameters[s.local_param].local)
            return std::nullopt;
        p.param_graph_uid = g.model.uid;
        p.local_param = &std::get<3>(g.parameters[s.local_param]);
        m.local = parameters[s.local_param].value;
        p.node.spec.src_param = p.node.spec.mul_param = -1;
    } else {
        p.node.spec.src_param = p.node.spec.mul_param = p.node.spec.local_param = p.node.spec.param_graph = -1;
        if (s.kind == command_kind::local_kernel) m.local = static_local_elements(s.add);
    }
    if (reads_src(s.kind) && !p.src_param) {
        if (!array_live(s.src)) return std::nullopt;
        p.src = arrays_[s.src].pointer;
        m.src = p.node.src = arrays_[s.src].id;
    }
    if (s.kind == command_kind::copy && m.src == m.dst) return std::nullopt; // memcpy of overlapping memory
    if (s.kind == command_kind::subgraph) {
        if (s.exec < 0 || !execs_[s.exec].graph) return std::nullopt;
        if (inlined_size(execs_[s.exec].model.commands) > max_inlined_nodes) return std::nullopt;
        p.exec = &*execs_[s.exec].graph;
        m.child = p.node.child = std::make_shared<const snapshot>(execs_[s.exec].model.commands);
    }
    return p;
}

// One command group's command. One lambda per kind, so that whole-graph update sees the same kernels.
void session::emit(sycl::handler& h, const prepared& p) const {
    const auto& m = p.model;
    std::uint32_t* d = p.dst;
    const std::uint32_t* s = p.src;
    const std::uint32_t mul = m.mul, add = m.add, count = m.count;
    const int tag = m.tag;
    switch (m.kind) {
    case command_kind::fill:
        h.fill(d, add, count);
        break;
    case command_kind::copy:
        h.memcpy(d, s, count * sizeof(std::uint32_t));
        break;
    case command_kind::scale:
        h.parallel_for(sycl::range<1>{count}, [=](sycl::id<1> i) { d[i] = scale_value(d[i], mul, add); });
        break;
    case command_kind::accumulate:
        h.parallel_for(sycl::range<1>{count},
                       [=](sycl::id<1> i) { d[i] = accumulate_value(d[i], s[i], mul, add); });
        break;
    case command_kind::param_kernel:
        h.set_arg(0, d);
        if (p.src_param)
            h.set_arg(1, *p.src_param);
        else
            h.set_arg(1, const_cast<std::uint32_t*>(s));
        if (p.mul_param)
            h.set_arg(2, *p.mul_param);
        else if (p.mul_raw_param)
            h.set_arg(2, *p.mul_raw_param);
        else
            h.set_arg(2, mul);
        h.parallel_for(sycl::range<1>{count}, param_kernel_object());
        break;
    case command_kind::host_mix:
        h.host_task([=] {
            for (std::uint32_t i = 0; i < count; ++i)
                d[i] = host_mix_value(d[i], s[i], add);
        });
        break;
    case command_kind::host_throw:
        h.host_task([=] { throw std::runtime_error(tag_text(tag)); });
        break;
    case command_kind::kernel_throw:
        h.parallel_for(sycl::range<1>{count}, [=](sycl::id<1> i) {
            if (i[0] == 0) throw std::runtime_error(tag_text(tag));
        });
        break;
    case command_kind::empty:
        break;
    case command_kind::subgraph:
        h.ext_oneapi_graph(*p.exec);
        break;
    case command_kind::local_kernel:
        h.set_arg(0, d);
        if (p.local_param)
            h.set_arg(1, *p.local_param);
        else
            h.set_arg(1, sycl::local_accessor<std::uint32_t, 1>(sycl::range<1>{m.local}, h));
        h.parallel_for(sycl::nd_range<1>{{count}, {1}}, local_kernel_object());
        break;
    }
}

resolved_command session::resolve(const graph_model& g, const graph_model::node& n) const {
    resolved_command r;
    r.kind = n.spec.kind;
    r.dst = n.dst;
    r.src = n.src;
    r.mul = n.spec.mul;
    r.add = n.spec.add;
    r.count = n.spec.count;
    r.tag = n.spec.tag;
    r.child = n.child;
    // A node's dynamic parameters hold their latest value in the modifiable graph
    // (dynamic_parameter::update).
    if (n.spec.src_param >= 0) r.src = g.parameters[n.spec.src_param].array;
    if (n.spec.mul_param >= 0) r.mul = g.parameters[n.spec.mul_param].value;
    if (n.spec.kind == command_kind::local_kernel)
        r.local = n.spec.local_param >= 0 ? g.parameters[n.spec.local_param].value : static_local_elements(n.spec.add);
    return r;
}

snapshot session::resolve_all(const graph_model& g) const {
    snapshot s;
    for (const auto& n : g.nodes) {
        s.commands.push_back(resolve(g, n));
        s.predecessors.emplace_back(n.predecessors.begin(), n.predecessors.end());
    }
    return s;
}

std::vector<sycl::event> session::eager_dependencies(const resolved_command& c, int queue,
                                                     int exec_uid) const {
    std::vector<alloc_id> reads, writes;
    c.reads(reads);
    c.writes(writes);
    auto meets = [](const std::vector<alloc_id>& a, const std::vector<alloc_id>& b) {
        return std::any_of(a.begin(), a.end(),
                           [&](alloc_id x) { return std::find(b.begin(), b.end(), x) != b.end(); });
    };
    std::vector<sycl::event> deps;
    for (const auto& p : pending_) {
        // Left to the runtime, and so checked: an in-order queue orders its own work, and launches of one
        // executable graph are ordered.
        if (p.queue == queue && is_in_order(queue)) continue;
        if (exec_uid >= 0 && p.exec_uid == exec_uid) continue;
        if (meets(writes, p.reads) || meets(writes, p.writes) || meets(reads, p.writes))
            deps.push_back(p.event);
    }
    return deps;
}

void session::track(sycl::event e, int queue, int exec_uid, const resolved_command& c) {
    pending_work w{std::move(e), queue, exec_uid, {}, {}};
    c.reads(w.reads);
    c.writes(w.writes);
    pending_.push_back(std::move(w));
}

sycl::event session::run_eager(int queue, const prepared& p, const std::vector<sycl::event>& extra) {
    auto deps = eager_dependencies(p.model, queue, -1);
    deps.insert(deps.end(), extra.begin(), extra.end());
    auto e = expect_ok("eager submit", [&] {
        return queues_[queue].submit([&](sycl::handler& h) {
            h.depends_on(deps);
            emit(h, p);
        });
    });
    std::vector<int> thrown;
    memory_.apply(p.model, thrown);
    {
        std::lock_guard lock(errors_mutex_);
        expected_[queue].insert(thrown.begin(), thrown.end());
    }
    track(e, queue, -1, p.model);
    return e;
}

} // namespace fuzz
