#include "opencl_launch_plan.hpp"

#include <algorithm>

#include "encore/runtime/buffer.hpp"
#include "encore/backends/opencl/opencl_backend.hpp"
#include "encore/backends/opencl/opencl_queue.hpp"
#include "encore/graph/error.hpp"

namespace encore::opencl {

using detail::check;

launch_plan_executable::launch_plan_executable(opencl_backend& backend, std::uint32_t device, const graph& g,
                                               const partition& p)
    : backend_(backend), device_(device), partition_(p), plain_(std::make_shared<queue_link>()) {
    const auto count = static_cast<std::uint32_t>(p.nodes.size());
    local_of_.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i)
        local_of_.emplace_back(p.nodes[i], i);
    std::sort(local_of_.begin(), local_of_.end());
    steps_.reserve(count);
    const graph::storage& storage = g.boost_graph();
    for (std::uint32_t v : p.nodes) {
        try {
            steps_.push_back(prepare(storage[v].command));
        } catch (const error& e) {
            throw error(e.code(), "opencl lowering of " + g.describe(v) + ": " + e.what());
        }
    }
    find_last();
    plain_->queue = backend.new_queue(device, false, false);
    plain_->context = backend.state(device).context.get();
}

launch_plan_executable::step launch_plan_executable::prepare(const command& c) {
    check_for_graph(backend_, device_, c);
    step s;
    switch (kind_of(c)) {
    case command_kind::kernel: {
        const auto& k = std::get<kernel_command>(c);
        s.how = form::kernel;
        s.kernel = backend_.new_kernel_object(device_, *k.kernel);
        s.geometry = geometry_of(backend_, device_, k);
        set_arguments(backend_, device_, s.kernel.get(), k);
        break;
    }
    case command_kind::memcpy: {
        const auto& m = std::get<memcpy_command>(c);
        if (m.bytes == 0) break;
        s.how = form::memcpy;
        s.destination = m.destination;
        s.source = m.source;
        s.bytes = m.bytes;
        break;
    }
    case command_kind::copy: {
        const auto& k = std::get<copy_command>(c);
        if (k.bytes == 0) break;
        s.how = form::memcpy;
        s.destination = static_cast<buffer*>(k.destination.get())->data() + k.destination_offset; // checked
        s.source = static_cast<buffer*>(k.source.get())->data() + k.source_offset;
        s.bytes = k.bytes;
        break;
    }
    case command_kind::memset: {
        const auto& m = std::get<memset_command>(c);
        if (m.bytes == 0) break;
        s.how = form::fill;
        s.destination = m.destination;
        s.pattern[0] = static_cast<std::byte>(m.value);
        s.pattern_bytes = 1;
        s.bytes = m.bytes;
        break;
    }
    case command_kind::fill: {
        const auto& f = std::get<fill_command>(c);
        if (f.count == 0) break;
        s.how = form::fill;
        s.destination = f.destination;
        std::copy(f.pattern.begin(), f.pattern.end(), s.pattern.begin());
        s.pattern_bytes = f.pattern.size();
        s.bytes = f.pattern.size() * f.count;
        break;
    }
    default:
        break; // prefetch, mem_advise, barrier, empty: the in-order queue orders them away
    }
    if (s.how == form::fill && !backend_.find_allocation(s.destination, s.bytes))
        throw error(errc::invalid_argument,
                    "fill: the destination is not inside memory of the opencl backend");
    if (s.how == form::fill && !driver_fills(s.destination, s.pattern_bytes)) { // the fill kernel
        s.how = form::kernel;
        s.kernel = backend_.new_fill_kernel(device_);
        s.geometry = prepare_fill_kernel(backend_, device_, s.kernel.get(), s.destination,
                                         {s.pattern.data(), s.pattern_bytes}, s.bytes);
    }
    return s;
}

void launch_plan_executable::find_last() {
    first_ = steps_.size();
    last_ = 0;
    for (std::size_t i = 0; i < steps_.size(); ++i)
        if (steps_[i].how != form::nothing) {
            first_ = std::min(first_, i);
            last_ = i;
        }
}

cl_int launch_plan_executable::enqueue(cl_command_queue q, const step& s, cl_uint waits,
                                       const cl_event* wait_list, cl_event* event) const {
    const auto& cl = backend_.cl();
    const auto& state = backend_.state(device_);
    const bool intel = state.capabilities.usm == detail::usm_mode::intel;
    switch (s.how) {
    case form::kernel:
        return cl.clEnqueueNDRangeKernel(q, s.kernel.get(), s.geometry.dimensions,
                                         s.geometry.offset_or_null(), s.geometry.global.data(),
                                         s.geometry.local_or_null(), waits, wait_list, event);
    case form::memcpy:
        return intel ? state.intel_usm.memcpy(q, CL_FALSE, s.destination, s.source, s.bytes, waits, wait_list,
                                              event)
                     : cl.clEnqueueSVMMemcpy(q, CL_FALSE, s.destination, s.source, s.bytes, waits, wait_list,
                                             event);
    case form::fill:
        return intel ? state.intel_usm.fill(q, s.destination, s.pattern.data(), s.pattern_bytes, s.bytes,
                                            waits, wait_list, event)
                     : cl.clEnqueueSVMMemFill(q, s.destination, s.pattern.data(), s.pattern_bytes, s.bytes,
                                              waits, wait_list, event);
    case form::nothing:
        break;
    }
    return cl.clEnqueueMarkerWithWaitList(q, waits, wait_list, event);
}

event_ptr launch_plan_executable::launch(backend_queue& queue, std::span<const event_ptr> wait_list) {
    opencl_queue& q =
        as_opencl_queue(queue, backend_, device_, "an executable graph finalized for an opencl device");
    if (q.profiling() && !profiled_) {
        auto made = std::make_shared<queue_link>();
        made->queue = backend_.new_queue(device_, false, true);
        made->context = plain_->context;
        profiled_ = std::move(made);
    }
    const std::shared_ptr<queue_link>& link = q.profiling() ? profiled_ : plain_;
    wait_list_events waits(backend_.cl(), link->context, wait_list);
    const auto events = waits.events();
    const auto n = static_cast<cl_uint>(events.size());
    const cl_event* list = events.empty() ? nullptr : events.data();
    cl_event done = nullptr;
    // The launch's event is its last command's: its start and end are measured from that command's queueing.
    const std::uint64_t handed = q.profiling_now();
    std::uint64_t last_queued = handed;
    if (first_ > last_) { // no work: a marker after the wait list (and the queue's earlier launches)
        check(backend_.cl().clEnqueueMarkerWithWaitList(link->queue.get(), n, list, &done),
              "clEnqueueMarkerWithWaitList");
    } else {
        for (std::size_t i = first_; i <= last_; ++i) {
            const step& s = steps_[i];
            if (s.how == form::nothing) continue;
            const bool first = i == first_, last = i == last_;
            if (last && handed) last_queued = q.profiling_now();
            check(
                enqueue(link->queue.get(), s, first ? n : 0, first ? list : nullptr, last ? &done : nullptr),
                "opencl launch plan");
        }
    }
    check(backend_.cl().clFlush(link->queue.get()), "clFlush");
    return q.wrap(done, link, handed, last_queued);
}

void launch_plan_executable::update(std::uint32_t node, const command& c) {
    auto it = std::lower_bound(local_of_.begin(), local_of_.end(), std::pair{node, std::uint32_t{0}});
    if (it == local_of_.end() || it->first != node)
        throw error(errc::invalid_argument,
                    "opencl update: node " + std::to_string(node) + " is not in this partition");
    steps_[it->second] = prepare(c); // throws before anything changed
    find_last();
}

} // namespace encore::opencl
