#include "trace_recorder.hpp"

#include <chrono>
#include <utility>

#include "encore/graph/error.hpp"
#include "encore/graph/kernel.hpp"

namespace encore::detail {

trace_switch active_trace_session;

std::int64_t trace_clock_ns() noexcept {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

namespace {
thread_local const trace_launch_label* current_label = nullptr;

// The calling thread's buffer in the session it last recorded into. Sessions are never destroyed (header), so
// the address identifies the session.
struct thread_cache {
    const trace_session* session = nullptr;
    void* buffer = nullptr;
};
thread_local thread_cache cache;
} // namespace

trace_session::trace_session() : start_ns_(trace_clock_ns()) {
    processes_.push_back({host_process, 0, "host tasks", "host"});
}

std::uint32_t trace_session::device_process(std::string_view backend, std::uint32_t device,
                                            std::string_view device_name) {
    std::lock_guard lock(mutex_);
    const std::string name =
        std::string(backend) + ":" + std::to_string(device) + " " + std::string(device_name);
    for (const auto& p : processes_)
        if (p.name == name && p.backend == backend) return p.process;
    const auto process = static_cast<std::uint32_t>(processes_.size()) + 1;
    processes_.push_back({process, 0, name, std::string(backend)});
    return process;
}

std::uint32_t trace_session::queue_thread(std::uint32_t process, const void* queue, std::string_view name,
                                          std::uint32_t lane) {
    std::lock_guard lock(mutex_);
    for (const auto& t : queue_threads_)
        if (t.queue == queue && t.lane == lane) return t.thread;
    const std::uint32_t thread = next_thread_++;
    queue_threads_.push_back({queue, lane, thread});
    threads_.push_back({process, thread, std::string(name), {}});
    return thread;
}

trace_session::thread_buffer& trace_session::buffer_of_this_thread(const char* role) {
    if (cache.session == this) return *static_cast<thread_buffer*>(cache.buffer);
    std::lock_guard lock(mutex_);
    auto& b = *buffers_.emplace_back(std::make_unique<thread_buffer>());
    b.thread = next_thread_++;
    // The process of a thread's track is set per record; the name says what the thread does.
    threads_.push_back({0, b.thread, std::string(role) + " " + std::to_string(b.thread), {}});
    cache = {this, &b};
    return b;
}

void trace_session::record(trace_record r, const char* role) {
    auto& b = buffer_of_this_thread(role);
    std::lock_guard lock(b.mutex);
    constexpr std::uint32_t no_name = ~std::uint32_t{0};
    std::uint32_t name = no_name;
    if (!r.name.empty()) {
        name = static_cast<std::uint32_t>(b.names.size());
        b.names.push_back(std::move(r.name));
    }
    if (b.count == b.chunks.size() * thread_buffer::chunk_records)
        b.chunks.push_back(std::make_unique_for_overwrite<stored_record[]>(thread_buffer::chunk_records));
    b.chunks[b.count / thread_buffer::chunk_records][b.count % thread_buffer::chunk_records] = {
        r.start_ns, r.end_ns, r.launch, r.process, r.thread ? r.thread : b.thread,
        r.node,     name,     r.kind,   r.command};
    ++b.count;
}

std::uint32_t trace_session::add_graph(trace_graph_record g) {
    std::lock_guard lock(mutex_);
    graphs_.push_back(std::move(g));
    return static_cast<std::uint32_t>(graphs_.size() - 1);
}

std::uint64_t trace_session::new_launch(std::uint32_t graph) {
    const auto now = trace_clock_ns();
    std::lock_guard lock(mutex_);
    const std::uint64_t launch = launches_.size() + 1;
    launches_.push_back({launch, graph, now});
    return launch;
}

std::uint64_t trace_session::announce_callback(std::shared_ptr<backend_event> e) {
    std::lock_guard lock(callbacks_mutex_);
    const std::uint64_t ticket = next_ticket_++;
    callbacks_.emplace(ticket, std::move(e));
    return ticket;
}

void trace_session::callback_ran(std::uint64_t ticket) noexcept {
    std::shared_ptr<backend_event> done; // released outside the lock (its destructor may call a driver)
    {
        std::lock_guard lock(callbacks_mutex_);
        auto it = callbacks_.find(ticket);
        if (it == callbacks_.end()) return;
        done = std::move(it->second);
        callbacks_.erase(it);
    }
    callback_done_.notify_all();
}

trace_data trace_session::collect(bool release) {
    // The callbacks of work that is complete run soon (a backend's completion thread is on its way): wait for
    // them. Statuses are asked outside the lock: asking may run callbacks on this thread, which report here.
    std::vector<std::pair<std::uint64_t, std::shared_ptr<backend_event>>> pending;
    {
        std::lock_guard lock(callbacks_mutex_);
        pending.assign(callbacks_.begin(), callbacks_.end());
    }
    std::vector<std::uint64_t> due;
    for (const auto& [ticket, e] : pending)
        if (e->status() == event_status::complete) due.push_back(ticket);
    pending.clear();
    {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        std::unique_lock lock(callbacks_mutex_);
        for (const std::uint64_t ticket : due)
            if (!callback_done_.wait_until(lock, deadline, [&] { return !callbacks_.contains(ticket); })) break;
    }
    trace_data out;
    out.start_ns = start_ns_;
    std::lock_guard lock(mutex_);
    out.processes = processes_;
    out.threads = threads_;
    out.graphs = graphs_;
    out.launches = launches_;
    for (auto& b : buffers_) {
        std::lock_guard buffer_lock(b->mutex);
        out.records.reserve(out.records.size() + b->count);
        for (std::size_t i = 0; i < b->count; ++i) {
            const stored_record& s =
                b->chunks[i / thread_buffer::chunk_records][i % thread_buffer::chunk_records];
            trace_record& r = out.records.emplace_back();
            r.kind = s.kind;
            r.process = s.process;
            r.thread = s.thread;
            r.node = s.node;
            r.launch = s.launch;
            r.start_ns = s.start_ns;
            r.end_ns = s.end_ns;
            r.command = s.command;
            if (s.name < b->names.size()) r.name = std::move(b->names[s.name]);
        }
        b->count = 0;
        b->names.clear();
        if (release) {
            b->chunks.clear();
            b->chunks.shrink_to_fit();
            b->names.shrink_to_fit();
        }
    }
    return out;
}

const trace_launch_label* current_trace_launch() noexcept {
    return current_label;
}

trace_launch_scope::trace_launch_scope(const trace_launch_label* label) noexcept : previous_(current_label) {
    current_label = label;
}

trace_launch_scope::~trace_launch_scope() {
    current_label = previous_;
}

bool backend_times_nodes(std::string_view backend) noexcept {
    return backend == "native";
}

void trace_from_event(trace_session& session, const std::shared_ptr<backend_event>& e, trace_record r,
                      const void* queue, std::string_view backend) {
    if (!e || !e->has_profiling()) return;
    r.thread = session.queue_thread(r.process, queue, std::string(backend) + " queue");
    const std::int64_t submitted = trace_clock_ns();
    // The callback holds the event: the queue may drop it before its completion is seen (an in-order queue keeps
    // only its last command's event), and the timestamps are read from it. Backends destroy a callback once it
    // has run, which ends the cycle.
    on_complete_traced(session, e, [&session, event = e, r = std::move(r), submitted]() mutable {
        try {
            const profiling_timestamps t = event->timestamps();
            std::int64_t offset = submitted - static_cast<std::int64_t>(t.submit);
            if (offset > -10'000'000 && offset < 10'000'000) offset = 0; // already the trace's clock
            r.start_ns = static_cast<std::int64_t>(t.start) + offset;
            r.end_ns = static_cast<std::int64_t>(t.end) + offset;
            session.record(std::move(r), "event callbacks");
        } catch (...) {
            // No timestamps after all (a backend that cannot read them): no slice, never an error of the
            // work.
        }
    });
}

void trace_from_event(trace_session& session, const std::shared_ptr<backend_event>& e,
                      const trace_launch_label& label, const void* queue, std::string_view backend) {
    trace_record r;
    r.kind = trace_record_kind::partition;
    r.process = label.process;
    r.node = label.partition;
    r.launch = label.launch;
    trace_from_event(session, e, std::move(r), queue, backend);
}

namespace {
// A kernel that only has a name: what a trace keeps of a kernel.
class stand_in_kernel final : public kernel {
public:
    using kernel::kernel;
    void run(const work_item&, std::span<const kernel_argument>) const override {
        throw error(errc::feature_not_supported,
                    "kernel '" + name() + "' as a trace keeps it (a name) cannot run");
    }
};

// A natively captured graph as a trace keeps it: its backend's name and size, not the backend's object (whose
// destruction calls that backend's driver, which may be gone when a trace is destroyed at the program's exit).
class stand_in_native_graph final : public native_graph {
public:
    explicit stand_in_native_graph(const native_graph& g) : backend_(g.backend()), size_(g.size()) {}
    std::string_view backend() const noexcept override { return backend_; }
    std::size_t size() const noexcept override { return size_; }

private:
    std::string backend_;
    std::size_t size_;
};

command stand_in(const command& c) {
    switch (kind_of(c)) {
    case command_kind::kernel: {
        const auto& k = std::get<kernel_command>(c);
        return kernel_command{std::make_shared<stand_in_kernel>(k.kernel->name()), {}, k.range};
    }
    case command_kind::memcpy:
        return memcpy_command{};
    case command_kind::copy: {
        auto nothing = std::make_shared<memory_object>(0);
        return copy_command{nothing, 0, nothing, 0, 0};
    }
    case command_kind::fill:
        return fill_command{nullptr, {std::byte{0}}, 0};
    case command_kind::memset:
        return memset_command{};
    case command_kind::prefetch:
        return prefetch_command{};
    case command_kind::mem_advise:
        return mem_advise_command{};
    case command_kind::host_task:
        return host_task_command{[] {}};
    case command_kind::barrier:
        return barrier_command{};
    case command_kind::empty:
        return empty_command{};
    case command_kind::native_graph:
        return native_graph_command{
            std::make_shared<stand_in_native_graph>(*std::get<native_graph_command>(c).graph)};
    case command_kind::subgraph: // inlined before a graph is lowered: not in a traced graph
        break;
    }
    return c;
}
} // namespace

std::shared_ptr<const graph> trace_snapshot(const graph& g) {
    auto copy = std::make_shared<graph>(graph_options{.check_cycles = false});
    const graph::storage& s = g.boost_graph();
    copy->reserve(g.size());
    for (std::uint32_t v = 0; v < g.size(); ++v)
        copy->add(stand_in(s[v].command));
    for (auto e : boost::make_iterator_range(boost::edges(s)))
        copy->make_edge(copy->node_at(static_cast<std::uint32_t>(boost::source(e, s))),
                        copy->node_at(static_cast<std::uint32_t>(boost::target(e, s))));
    return copy;
}

std::string trace_name(const command& c) {
    if (const auto* k = std::get_if<kernel_command>(&c); k && k->kernel) return k->kernel->name();
    return std::string(to_string(kind_of(c)));
}

} // namespace encore::detail
