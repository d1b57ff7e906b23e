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
    const bool has_local_memory = std::any_of(arguments.begin(), arguments.end(), [](const encore::kernel_argument& a) {
        return a.type == encore::kernel_argument::kind::local_memory;
    });
    if (has_local_memory && !r.has_local_size())
        throw exception(errc::kernel_argument, "kernel '" + k->name() +
                                                   "': local_accessor (work-group local memory) needs an nd_range "
                                                   "parallel_for; single_task and range kernels have no work-groups");
    if (r.has_local_size()) detail::check_work_groups(r, device_, "parallel_for");
    set_command(encore::kernel_command{std::move(k), std::move(arguments), r}, "kernel");
}

void handler::store_argument(int index, encore::kernel_argument a) {
    if (index < 0) throw exception(errc::kernel_argument, "set_arg: the index " + std::to_string(index) + " is negative");
    if (static_cast<std::size_t>(index) >= arguments_.size()) arguments_.resize(index + 1);
    arguments_[index] = std::move(a);
}

void handler::set_lambda_kernel(std::shared_ptr<const encore::kernel> k, encore::nd_range r) {
    if (!arguments_.empty()) {
        const auto first = std::find_if(arguments_.begin(), arguments_.end(), [](const auto& a) { return a.has_value(); });
        throw exception(errc::invalid,
                        "set_arg(" + std::to_string(first - arguments_.begin()) + "): kernel '" + k->name() +
                            "' is a lambda (or function object): its arguments are its captures, and this program "
                            "was not built by encore++, which decomposes them; build it with encore++, or launch a "
                            "kernel object (sycl::kernel) with set_arg");
    }
    set_kernel(std::move(k), r, locals_);
}

void handler::set_kernel_object(const kernel& k, encore::nd_range r) {
    if (const auto count = k.engine()->argument_count(); count && arguments_.size() > *count) {
        const auto last = arguments_.size() - 1; // the highest index set (store_argument grows to it)
        const std::string has = *count == 0 ? "takes no arguments"
                                            : "has " + std::to_string(*count) + " argument" + (*count == 1 ? "" : "s") +
                                                  " (indices 0 to " + std::to_string(*count - 1) + ")";
        throw exception(errc::invalid,
                        "set_arg(" + std::to_string(last) + "): kernel '" + k.engine()->name() + "' " + has);
    }
    std::vector<encore::kernel_argument> arguments;
    if (const auto count = k.engine()->argument_count(); count && arguments_.size() < *count)
        arguments_.resize(*count); // the arguments never set are reported below
    for (std::size_t i = 0; i < arguments_.size(); ++i) {
        if (!arguments_[i])
            throw exception(errc::kernel_argument, "kernel '" + k.engine()->name() + "': argument " + std::to_string(i) +
                                                       " was not set (set_arg)");
        arguments.push_back(*arguments_[i]);
    }
    set_kernel(k.engine(), r, std::move(arguments));
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
