#include "sycl/handler.hpp"

#include <algorithm>

#include "sycl/detail/engine_error.hpp"
#include "sycl/detail/queue_impl.hpp"
#include "sycl/usm.hpp"

namespace sycl {
inline namespace _V1 {

namespace detail {
void handler_access::require(handler& h, buffer_state& state, access_mode mode) {
    h.collected_.requirements.push_back({&state, mode});
}
std::uint32_t handler_access::add_local(handler& h, std::size_t bytes) {
    if (bytes == 0) throw exception(errc::invalid, "local_accessor: the range must hold at least one element");
    h.locals_.push_back(encore::kernel_argument::local(bytes));
    return static_cast<std::uint32_t>(h.locals_.size() - 1);
}
void handler_access::add_dynamic_local(handler& h, std::uint32_t index, std::shared_ptr<dynamic_parameter_impl> p) {
    h.collected_.dynamic_arguments.emplace_back(static_cast<int>(index), std::move(p));
}
std::uint32_t handler_access::dynamic_local(handler& h, const std::shared_ptr<dynamic_parameter_impl>& p,
                                            std::size_t bytes) {
    // A kernel object is copied more than once while it is made (into the engine kernel, then moved): one
    // allocation for the parameter.
    for (const auto& [index, parameter] : h.collected_.dynamic_arguments)
        if (parameter == p) return static_cast<std::uint32_t>(index);
    const std::uint32_t index = add_local(h, bytes);
    add_dynamic_local(h, index, p);
    return index;
}
} // namespace detail

namespace detail {
capture_bytes lambda_capture(const std::string& kernel, const encore::compiler::kernel_descriptor* d,
                             std::size_t object_size, int index, const encore::kernel_argument& value) {
    using encore::compiler::param_kind;
    const std::string call = "set_arg(" + std::to_string(index) + "): lambda kernel '" + kernel + "'";
    if (!d)
        throw exception(errc::invalid, call + " has no description of its captures: build the program with "
                                              "encore++ (which decomposes lambda kernels), or launch a kernel object "
                                              "(sycl::kernel) with set_arg");
    if (d->size != object_size)
        throw exception(errc::invalid, call + ": the host compiler laid the kernel out in " +
                                           std::to_string(object_size) + " bytes, encore-outliner in " +
                                           std::to_string(d->size) +
                                           " (a constant of the enclosing function captured by one compiler only; "
                                           "declare it outside the function or capture it explicitly)");
    // DPC++'s numbering: four indices for an accessor or a local_accessor, one for anything else.
    std::size_t next = 0;
    for (const auto& p : d->parameters()) {
        const bool four = p.kind == param_kind::accessor || p.kind == param_kind::local_accessor;
        const std::size_t width = four ? 4 : 1;
        if (static_cast<std::size_t>(index) < next + width) {
            const std::string what = std::string(four ? (p.kind == param_kind::accessor ? "accessor" : "local_accessor")
                                                      : "capture") +
                                     " '" + p.name + "'";
            if (static_cast<std::size_t>(index) != next)
                throw exception(errc::invalid, call + ": index " + std::to_string(index) + " is inside " + what +
                                                   ", which takes indices " + std::to_string(next) + " to " +
                                                   std::to_string(next + 3));
            if (p.kind == param_kind::local_accessor)
                throw exception(errc::invalid, call + ": argument " + std::to_string(index) + " is " + what +
                                                   "; set_arg on a lambda's local_accessor captures is not built "
                                                   "(its pointer, scalar, struct and accessor captures take it)");
            if (p.kind == param_kind::accessor) {
                if (value.type != encore::kernel_argument::kind::pointer)
                    throw exception(errc::invalid, call + ": argument " + std::to_string(index) + " is " + what +
                                                       ", which takes a buffer's memory (an accessor, or a "
                                                       "dynamic_parameter of one)");
                return {p.offset + accessor_pointer_offset, sizeof(void*)};
            }
            if (value.type == encore::kernel_argument::kind::local_memory || value.bytes.size() != p.size)
                throw exception(errc::invalid, call + ": argument " + std::to_string(index) + " is " + what + " of " +
                                                   std::to_string(p.size) + " bytes; the value set has " +
                                                   std::to_string(value.bytes.size()));
            return {p.offset, p.size};
        }
        next += width;
    }
    throw exception(errc::invalid, call + " has " + std::to_string(next) + " argument" + (next == 1 ? "" : "s") +
                                       " after decomposition" +
                                       (next ? " (indices 0 to " + std::to_string(next - 1) + ")" : std::string()));
}
} // namespace detail

handler::handler(device d, context c, std::shared_ptr<detail::queue_impl> queue)
    : device_(std::move(d)), context_(std::move(c)), queue_(std::move(queue)) {}

void handler::set_command(encore::command c, const char* name) {
    if (collected_.allocation || collected_.frees)
        throw exception(errc::invalid, std::string("handler::") + name + ": the command group is an " +
                                           (collected_.frees ? "async_free" : "async_malloc") +
                                           ", which is a command group of its own");
    if (collected_.command || collected_.executable)
        throw exception(errc::invalid, std::string("handler::") + name + ": the command group already holds a " +
                                           (collected_.command_name ? collected_.command_name : "command") +
                                           "; a command group submits one command");
    collected_.command = std::move(c);
    collected_.command_name = name;
}

namespace detail {
void check_work_groups(const encore::nd_range& r, const device& d, const char* call) {
    std::size_t group = 1;
    for (int dim = 0; dim < r.dimensions; ++dim) {
        if (r.global[dim] % r.local[dim] != 0)
            throw exception(errc::nd_range, std::string(call) + ": the global range " + std::to_string(r.global[dim]) +
                                                " is not a multiple of the local range " + std::to_string(r.local[dim]) +
                                                " in dimension " + std::to_string(dim));
        group *= r.local[dim];
    }
    const auto limit = d.engine().properties().max_work_group_size;
    if (group > limit)
        throw exception(errc::nd_range, std::string(call) + ": a work-group of " + std::to_string(group) +
                                            " work-items exceeds the device's maximum of " + std::to_string(limit));
}
} // namespace detail

void handler::set_kernel(std::shared_ptr<const encore::kernel> k, encore::nd_range r,
                         std::vector<encore::kernel_argument> arguments) {
    if (r.global_count() == 0) {
        // SYCL allows an empty range: the kernel runs for no work-item.
        set_command(encore::empty_command{}, "parallel_for");
        return;
    }
    // work_group_scratch_size: the scratch memory is the launch's last local allocation
    // (get_work_group_scratch_memory, sycl/ext/oneapi/work_group_scratch_memory.hpp).
    if (extras_.scratch_bytes) arguments.push_back(encore::kernel_argument::local(*extras_.scratch_bytes));
    std::size_t local_bytes = 0;
    for (const auto& a : arguments)
        if (a.type == encore::kernel_argument::kind::local_memory) local_bytes += a.local_bytes;
    const bool has_local_memory = std::any_of(arguments.begin(), arguments.end(), [](const encore::kernel_argument& a) {
        return a.type == encore::kernel_argument::kind::local_memory;
    });
    if (has_local_memory && !r.has_local_size())
        throw exception(errc::kernel_argument, "kernel '" + k->name() +
                                                   "': local_accessor (work-group local memory) needs an nd_range "
                                                   "parallel_for; single_task and range kernels have no work-groups");
    if (const std::size_t limit = device_.engine().properties().local_memory_bytes; local_bytes > limit)
        throw exception(errc::memory_allocation,
                        "kernel '" + k->name() + "' asks for " + std::to_string(local_bytes) +
                            " bytes of work-group local memory (local accessors, work-group memory and scratch); "
                            "device '" + device_.engine().properties().name + "' has " + std::to_string(limit) +
                            " per work-group");
    if (r.has_local_size()) detail::check_work_groups(r, device_, "parallel_for");
    set_command(encore::kernel_command{std::move(k), std::move(arguments), r}, "kernel");
}

void handler::store_argument(int index, encore::kernel_argument a) {
    if (index < 0) throw exception(errc::kernel_argument, "set_arg: the index " + std::to_string(index) + " is negative");
    if (static_cast<std::size_t>(index) >= arguments_.size()) arguments_.resize(index + 1);
    arguments_[index] = std::move(a);
}

void handler::set_lambda_kernel(std::shared_ptr<const encore::kernel> k, encore::nd_range r) {
    // set_arg on a lambda kernel replaces captures (encore++ builds describe them): each value set, a dynamic
    // parameter's current one included, goes into a copy of the kernel. The graph registers the dynamic parameters
    // (collected_.dynamic_arguments) by the same index.
    for (std::size_t i = 0; i < arguments_.size(); ++i) {
        if (!arguments_[i]) continue;
        const auto* lambda = dynamic_cast<const detail::lambda_arguments*>(k.get());
        if (!lambda)
            throw exception(errc::invalid, "set_arg(" + std::to_string(i) + "): kernel '" + k->name() +
                                               "' takes no set_arg: Encore replaces the captures of plain lambda "
                                               "kernels only (not of kernels with reductions, nor of nvcc "
                                               "single-source kernels); launch a kernel object (sycl::kernel) with "
                                               "set_arg");
        k = lambda->with_argument(static_cast<int>(i), *arguments_[i]);
    }
    set_kernel(std::move(k), r, std::move(locals_)); // one command per group: the locals are used once
}

void handler::set_kernel_object(const kernel& k, encore::nd_range r) {
    if (dynamic_cast<const detail::lambda_kernel_reference*>(k.engine().get()))
        throw exception(errc::invalid, "kernel '" + k.engine()->name() +
                                           "' is a lambda or function-object kernel: its arguments are its captures, "
                                           "so it is launched as one (bind its bundle with use_kernel_bundle)");
    const auto count = k.engine()->argument_count();
    if (count && arguments_.size() > *count) {
        const auto last = arguments_.size() - 1; // the highest index set (store_argument grows to it)
        const std::string has = *count == 0 ? "takes no arguments"
                                            : "has " + std::to_string(*count) + " argument" + (*count == 1 ? "" : "s") +
                                                  " (indices 0 to " + std::to_string(*count - 1) + ")";
        throw exception(errc::invalid,
                        "set_arg(" + std::to_string(last) + "): kernel '" + k.engine()->name() + "' " + has);
    }
    std::vector<encore::kernel_argument> arguments;
    if (count && arguments_.size() < *count) arguments_.resize(*count); // the arguments never set are reported below
    for (std::size_t i = 0; i < arguments_.size(); ++i) {
        if (!arguments_[i])
            throw exception(errc::kernel_argument, "kernel '" + k.engine()->name() + "': argument " + std::to_string(i) +
                                                       " was not set (set_arg)");
        arguments.push_back(*arguments_[i]);
    }
    if (const auto* typed = dynamic_cast<const detail::typed_kernel*>(k.engine().get()))
        typed->check_arguments(arguments);
    set_kernel(k.engine(), r, std::move(arguments));
}

void handler::use_kernel_bundle(const kernel_bundle<bundle_state::executable>& bundle) {
    if (spec_set_)
        throw exception(errc::invalid, "handler::use_kernel_bundle: this command group set specialization constants; "
                                       "set them on the (input) bundle instead");
    if (!(bundle.get_context() == context_))
        throw exception(errc::invalid, "handler::use_kernel_bundle: the bundle's context is not the queue's");
    const auto devices = bundle.get_devices();
    if (std::find(devices.begin(), devices.end(), device_) == devices.end())
        throw exception(errc::invalid, "handler::use_kernel_bundle: the bundle is not for the queue's device '" +
                                           device_.engine().properties().name + "'");
    bundle_ = bundle.ext_encore_impl();
    spec_values_ = bundle.ext_encore_values();
}

void handler::check_bundle(const kernel_id& id) const {
    if (!detail::bundle_has_kernel(*bundle_, id, &device_))
        throw exception(errc::kernel_not_supported,
                        std::string("kernel '") + id.get_name() +
                            "' is not in the kernel bundle bound to the command group (use_kernel_bundle)" +
                            (detail::bundle_has_kernel(*bundle_, id, nullptr) ? " for the queue's device" : ""));
}

bool handler::ext_encore_in_graph() const {
    if (!queue_) return true;
    std::lock_guard guard(queue_->mutex);
    return queue_->recording != nullptr;
}

void handler::check_no_bundle(const char* call) const {
    if (bundle_)
        throw exception(errc::invalid, std::string("handler::") + call +
                                           ": a kernel bundle is bound to this command group (use_kernel_bundle): "
                                           "its specialization constants are the group's");
}

void handler::check_usm(const void* pointer, std::size_t bytes, const char* call, const char* what) const {
    if (bytes == 0) return;
    if (!pointer)
        throw exception(errc::invalid, std::string("handler::") + call + ": the " + what + " is null");
    detail::check_usm_range(pointer, bytes, context_, call, what);
}

void handler::memcpy(void* destination, const void* source, std::size_t bytes) {
    check_usm(destination, bytes, "memcpy", "destination");
    check_usm(source, bytes, "memcpy", "source");
    copy_bytes(destination, source, bytes);
}

void handler::copy_bytes(void* destination, const void* source, std::size_t bytes) {
    if (bytes == 0) return set_command(encore::empty_command{}, "memcpy");
    set_command(encore::memcpy_command{destination, source, bytes}, "memcpy");
}

void handler::memset(void* destination, int value, std::size_t bytes) {
    check_usm(destination, bytes, "memset", "destination");
    if (bytes == 0) return set_command(encore::empty_command{}, "memset");
    set_command(encore::memset_command{destination, value, bytes}, "memset");
}

void handler::fill_bytes(void* destination, std::vector<std::byte> pattern, std::size_t count) {
    check_usm(destination, count * pattern.size(), "fill", "destination");
    if (count == 0) return set_command(encore::empty_command{}, "fill");
    set_command(encore::fill_command{destination, std::move(pattern), count}, "fill");
}

void handler::prefetch(const void* pointer, std::size_t bytes) {
    check_usm(pointer, bytes, "prefetch", "pointer");
    if (bytes == 0) return set_command(encore::empty_command{}, "prefetch");
    set_command(encore::prefetch_command{pointer, bytes}, "prefetch");
}

void handler::mem_advise(const void* pointer, std::size_t bytes, int advice) {
    check_usm(pointer, bytes, "mem_advise", "pointer");
    if (bytes == 0) return set_command(encore::empty_command{}, "mem_advise");
    set_command(encore::mem_advise_command{pointer, bytes, advice}, "mem_advise");
}

void handler::ext_oneapi_barrier() {
    set_command(encore::barrier_command{}, "ext_oneapi_barrier");
    collected_.barrier_on_everything = true;
}

void handler::ext_oneapi_barrier(const std::vector<event>& events) {
    set_command(encore::barrier_command{}, "ext_oneapi_barrier");
    depends_on(events);
}

} // namespace _V1
} // namespace sycl
