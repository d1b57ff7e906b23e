#include "gpu_commands.hpp"

#include <cstring>

#include "encore/runtime/buffer.hpp"
#include "encore/backends/gpu/gpu_backend.hpp"
#include "encore/backends/gpu/gpu_recording.hpp"
#include "encore/graph/error.hpp"

namespace encore::gpu {

void host_copy::run(void* self) {
    auto& c = *static_cast<host_copy*>(self);
    auto* from = static_cast<buffer*>(c.source.get());
    auto* to = static_cast<buffer*>(c.destination.get());
    std::memmove(to->data() + c.destination_offset, from->data() + c.source_offset, c.bytes);
}

void host_copy::run_once(void* self) {
    std::unique_ptr<host_copy> owned(static_cast<host_copy*>(self));
    run(owned.get());
}

namespace {

void apply_advice(gpu_backend& backend, std::uint32_t device, const mem_advise_command& a) {
    if (backend.kind_of(a.pointer) != memory_kind::shared) return; // only managed memory takes advice
    context_scope scope(backend.api(), backend.context(device));
    static_cast<void>(backend.api().advise(a.pointer, a.bytes, a.advice, device)); // unknown advice: ignored
}

} // namespace

driver_command driver_command::from(gpu_backend& backend, std::uint32_t device, const kernel_command& k) {
    driver_command d;
    d.form_ = form::kernel;
    d.launch_ = prepare_kernel_launch(backend, device, k);
    return d;
}

driver_command driver_command::from(gpu_backend& backend, std::uint32_t device, const command& c, bool in_graph) {
    driver_command d;
    switch (kind_of(c)) {
    case command_kind::kernel:
        return from(backend, device, std::get<kernel_command>(c));
    case command_kind::memcpy: {
        const auto& m = std::get<memcpy_command>(c);
        d.form_ = form::memcpy;
        d.copy_ = {m.destination, m.source, m.bytes};
        if (m.bytes == 0) d.form_ = form::nothing;
        else backend.reach_peers(device, m.destination, m.source); // a copy between devices: a peer copy
        break;
    }
    case command_kind::memset: {
        const auto& m = std::get<memset_command>(c);
        if (m.bytes == 0) break;
        if (backend.kind_of(m.destination) == memory_kind::host) {
            const std::byte value{static_cast<unsigned char>(m.value)};
            d.form_ = form::kernel;
            d.launch_ = prepare_fill_launch(backend, device, m.destination, {&value, 1}, m.bytes);
        } else {
            d.form_ = form::memset;
            d.memset_ = {m.destination, static_cast<unsigned char>(m.value), 1, m.bytes};
        }
        break;
    }
    case command_kind::fill: {
        const auto& f = std::get<fill_command>(c);
        if (f.count == 0) break;
        const std::size_t size = f.pattern.size();
        const bool element = size == 1 || size == 2 || size == 4;
        const bool aligned = reinterpret_cast<std::uintptr_t>(f.destination) % size == 0;
        if (element && aligned && backend.kind_of(f.destination) != memory_kind::host) {
            unsigned value = 0;
            std::memcpy(&value, f.pattern.data(), size); // little-endian: the pattern's bytes in memory order
            d.form_ = form::memset;
            d.memset_ = {f.destination, value, static_cast<unsigned>(size), f.count};
        } else {
            d.form_ = form::kernel;
            d.launch_ = prepare_fill_launch(backend, device, f.destination, f.pattern, f.count);
        }
        break;
    }
    case command_kind::copy: {
        const auto& k = std::get<copy_command>(c);
        if (!dynamic_cast<buffer*>(k.source.get()) || !dynamic_cast<buffer*>(k.destination.get()))
            throw error(errc::feature_not_supported,
                        "copy: the " + std::string(backend.name()) + " backend copies between encore::buffers only (memory objects with "
                        "runtime-owned host storage)");
        d.form_ = form::host_copy;
        d.host_copy_ = std::make_unique<host_copy>(
            host_copy{k.source, k.destination, k.source_offset, k.destination_offset, k.bytes});
        break;
    }
    case command_kind::prefetch: {
        const auto& p = std::get<prefetch_command>(c);
        if (!in_graph && p.bytes && backend.kind_of(p.pointer) == memory_kind::shared) {
            d.form_ = form::prefetch;
            d.pointer_ = p.pointer;
            d.bytes_ = p.bytes;
        }
        break;
    }
    case command_kind::mem_advise:
        apply_advice(backend, device, std::get<mem_advise_command>(c)); // now, eagerly and in graphs alike
        break;
    case command_kind::barrier:
    case command_kind::empty:
        break;
    case command_kind::native_graph: {
        const auto& n = std::get<native_graph_command>(c);
        const auto* captured = dynamic_cast<const gpu_native_graph*>(n.graph.get());
        const std::string name(backend.name());
        if (!captured || n.graph->backend() != backend.name())
            throw error(errc::feature_not_supported, name + " backend: a graph captured natively by the " +
                                                         std::string(n.graph->backend()) +
                                                         " backend runs only on that backend");
        if (captured->device() != device)
            throw error(errc::feature_not_supported, name + " backend: a graph captured on " + name + " device " +
                                                         std::to_string(captured->device()) +
                                                         " runs only there, not on device " + std::to_string(device));
        if (!in_graph)
            throw error(errc::feature_not_supported, name + " backend: a natively captured graph runs as a node "
                                                     "of a graph, not as an eager command");
        d.form_ = form::child_graph;
        d.child_ = std::static_pointer_cast<const gpu_native_graph>(n.graph);
        break;
    }
    case command_kind::host_task:
    case command_kind::subgraph:
        throw error(errc::invalid_argument, std::string(backend.name()) + " backend: a " + std::string(to_string(kind_of(c))) +
                                                " command reached the backend; the runtime runs host tasks and "
                                                "inlines subgraphs");
    }
    return d;
}

namespace {

// The kernel and its finishing launch, if any.
void launch_with_finisher(driver& d, driver_stream s, const kernel_launch& launch) {
    d.launch_kernel(s, launch.params());
    if (launch.finisher) d.launch_kernel(s, launch.finisher->params());
}

// A launch's own scratch, stream-ordered: taken before the launch, zeroed, given back after it.
void launch_with_scratch(driver& d, driver_stream s, kernel_launch& launch) {
    void* scratch = d.allocate_async(s, launch.scratch_bytes);
    try {
        if (launch.scratch_zero_bytes != 0) d.set(s, {scratch, 0, 1, launch.scratch_zero_bytes});
        launch.set_scratch(scratch);
        launch_with_finisher(d, s, launch);
    } catch (...) {
        d.free_async(s, scratch);
        throw;
    }
    d.free_async(s, scratch);
}

} // namespace

std::shared_ptr<void> driver_command::own_scratch(driver& d, driver_context c) {
    if (form_ != form::kernel || launch_.scratch_bytes == 0) return nullptr;
    if (launch_.owned_scratch) return launch_.owned_scratch;
    void* scratch = d.allocate(memory_kind::device, launch_.scratch_bytes, "kernel scratch");
    launch_.owned_scratch = std::shared_ptr<void>(scratch, [&d, c](void* p) {
        try {
            context_scope scope(d, c);
            d.free(memory_kind::device, p);
        } catch (...) { // a destructor path: a broken driver reports at its next call
        }
    });
    if (launch_.scratch_zero_bytes != 0) d.zero(scratch, launch_.scratch_zero_bytes);
    launch_.set_scratch(scratch);
    return launch_.owned_scratch;
}

void driver_command::enqueue(driver& d, driver_stream s, std::uint32_t device) {
    switch (form_) {
    case form::kernel:
        for (const memset_params& m : launch_.zero_first)
            d.set(s, m);
        if (launch_.scratch_bytes != 0 && !launch_.owned_scratch)
            launch_with_scratch(d, s, launch_);
        else
            launch_with_finisher(d, s, launch_);
        break;
    case form::memcpy:
        d.copy(s, copy_);
        break;
    case form::memset:
        d.set(s, memset_);
        break;
    case form::host_copy:
        d.launch_host_function(s, &host_copy::run_once, host_copy_.get());
        static_cast<void>(host_copy_.release()); // run_once owns it now
        break;
    case form::prefetch:
        d.prefetch(s, pointer_, bytes_, device);
        break;
    case form::advise:
    case form::nothing:
    case form::child_graph: // from() refuses it eagerly
        break;
    }
}

driver_graph_node driver_command::add_to(driver& d, driver_graph g, std::span<const driver_graph_node> dependencies,
                                         driver_context c) {
    switch (form_) {
    case form::kernel: {
        own_scratch(d, c);
        boost::container::small_vector<driver_graph_node, 2> zeroed;
        for (const memset_params& m : launch_.zero_first)
            zeroed.push_back(d.add_set_node(g, dependencies, m, c));
        driver_graph_node node =
            d.add_kernel_node(g, zeroed.empty() ? dependencies : std::span<const driver_graph_node>(zeroed.data(), zeroed.size()),
                              launch_.params());
        if (launch_.finisher) node = d.add_kernel_node(g, {&node, 1}, launch_.finisher->params()); // stands for both
        return node;
    }
    case form::memcpy:
        return d.add_copy_node(g, dependencies, copy_, c);
    case form::memset:
        return d.add_set_node(g, dependencies, memset_, c);
    case form::host_copy:
        return d.add_host_node(g, dependencies, &host_copy::run, host_copy_.get());
    case form::child_graph:
        return child_->add_to(d, g, dependencies);
    case form::prefetch:
    case form::advise:
    case form::nothing:
        break;
    }
    return d.add_empty_node(g, dependencies);
}

bool driver_command::set_in(driver& d, driver_graph_node node, driver_graph_exec exec, driver_context c) {
    switch (form_) {
    case form::kernel:
        own_scratch(d, c);
        return d.set_kernel_node(node, exec, launch_.params());
    case form::memcpy:
        return d.set_copy_node(node, exec, copy_, c);
    case form::memset:
        return d.set_set_node(node, exec, memset_, c);
    case form::host_copy:
        return d.set_host_node(node, exec, &host_copy::run, host_copy_.get());
    case form::prefetch:
    case form::advise:
    case form::nothing:
        return true;
    case form::child_graph:
        return false;
    }
    return true;
}

} // namespace encore::gpu
