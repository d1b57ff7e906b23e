// sycl_ext_oneapi_async_memory_alloc: async_malloc / async_free and memory pools. Graph-owned allocations
// (the same calls in a graph) are taken over in graph.cpp (graph_impl::add_locked).
#include "sycl/ext/oneapi/experimental/async_alloc/async_alloc.hpp"

#include <cstdio>
#include <string>
#include <unordered_map>

#include "sycl/detail/async_alloc_impl.hpp"

namespace sycl {
inline namespace _V1 {

namespace exp = ext::oneapi::experimental;

namespace detail {

namespace {
const char* name_of(usm::alloc kind) {
    switch (kind) {
    case usm::alloc::host:
        return "host";
    case usm::alloc::device:
        return "device";
    case usm::alloc::shared:
        return "shared";
    case usm::alloc::unknown:
        break;
    }
    return "unknown";
}

void* allocate(std::size_t bytes, const device& d, const context& c, usm::alloc kind, const char* call) {
    if (kind == usm::alloc::unknown)
        throw exception(errc::invalid, std::string(call) + ": usm::alloc::unknown");
    void* p = sycl::malloc(bytes, d, c, kind);
    if (!p && bytes)
        throw exception(errc::memory_allocation, std::string(call) + ": the device has no room for " +
                                                     std::to_string(bytes) + " bytes of " + name_of(kind) +
                                                     " memory");
    return p;
}

// Eager allocations that async_free has not freed yet, by pointer.
struct live_blocks {
    std::mutex mutex;
    std::unordered_map<void*, std::shared_ptr<async_block>> blocks;
};
// Never destroyed: blocks still live at exit are left to the operating system, not freed during static
// destruction (when the runtime that frees them may be gone).
live_blocks& live() {
    static auto* l = new live_blocks;
    return *l;
}
} // namespace

memory_pool_impl::~memory_pool_impl() {
    for (auto& [bytes, p] : kept_blocks)
        sycl::free(p, ctx);
}

void* memory_pool_impl::take(std::size_t bytes) {
    {
        std::lock_guard lock(mutex);
        if (auto it = kept_blocks.find(bytes); it != kept_blocks.end()) {
            void* p = it->second;
            kept_blocks.erase(it);
            kept -= bytes;
            used += bytes;
            return p;
        }
        if (settings.maximum && used + kept + bytes > settings.maximum)
            throw exception(errc::memory_allocation, "async_malloc_from_pool: " + std::to_string(bytes) +
                                                         " more bytes would take the pool past "
                                                         "its maximum_size of " +
                                                         std::to_string(settings.maximum) + " (" +
                                                         std::to_string(used) + " in use, " +
                                                         std::to_string(kept) + " kept)");
        used += bytes; // counted before the allocation, so that two threads cannot both pass the bound
    }
    try {
        return allocate(bytes, dev, ctx, kind, "async_malloc_from_pool");
    } catch (...) {
        std::lock_guard lock(mutex);
        used -= bytes;
        throw;
    }
}

void memory_pool_impl::give_back(void* pointer, std::size_t bytes) noexcept {
    {
        std::lock_guard lock(mutex);
        used -= bytes;
        if (kept + bytes <= settings.threshold) {
            kept_blocks.emplace(bytes, pointer);
            kept += bytes;
            return;
        }
    }
    try {
        sycl::free(pointer, ctx);
    } catch (const std::exception& e) { // the program freed it itself with sycl::free
        std::fprintf(stderr, "encore: async_free: %s\n", e.what());
    }
}

async_block::~async_block() {
    if (!pointer) return;
    if (pool) {
        pool->give_back(pointer, bytes);
        return;
    }
    try {
        sycl::free(pointer, ctx);
    } catch (const std::exception& e) { // the program freed it itself with sycl::free
        std::fprintf(stderr, "encore: async_free: %s\n", e.what());
    }
}

void prepare_eager_async(handler::collected& c) {
    if (c.allocation) {
        const auto& block = c.allocation;
        if (block->zero_init && block->bytes)
            c.command = encore::memset_command{block->pointer, 0, block->bytes};
        if (!block->pointer) return; // zero bytes
        std::lock_guard lock(live().mutex);
        live().blocks.emplace(block->pointer, std::move(c.allocation));
        return;
    }
    if (!c.frees || !c.freed) return;
    std::shared_ptr<async_block> block;
    {
        std::lock_guard lock(live().mutex);
        auto it = live().blocks.find(c.freed);
        if (it == live().blocks.end())
            throw exception(errc::invalid,
                            "async_free: the pointer was not allocated by async_malloc (or it was "
                            "freed already; memory a graph allocated is freed with its graph)");
        block = std::move(it->second);
        live().blocks.erase(it);
    }
    // The memory goes back once what the command group waits for has completed.
    c.command = encore::host_task_command{[block = std::move(block)]() mutable { block.reset(); }};
    c.command_name = "async_free";
}

} // namespace detail

void handler::set_async(std::shared_ptr<detail::async_block> allocation, void* freed, bool frees) {
    if (collected_.command || collected_.executable || collected_.allocation || collected_.frees)
        throw exception(errc::invalid,
                        std::string(frees ? "async_free" : "async_malloc") +
                            ": the command group already holds a command; an allocation or a free is "
                            "a command group of its own");
    collected_.allocation = std::move(allocation);
    collected_.freed = freed;
    collected_.frees = frees;
}

namespace ext::oneapi::experimental {

memory_pool::memory_pool(const context& c, const device& d, usm::alloc kind, settings s) {
    if (!c.contains(d))
        throw exception(errc::invalid, "memory_pool: the device does not belong to the context");
    if (kind == usm::alloc::unknown) throw exception(errc::invalid, "memory_pool: usm::alloc::unknown");
    if (s.maximum && s.threshold > s.maximum)
        throw exception(errc::invalid, "memory_pool: initial_threshold (" + std::to_string(s.threshold) +
                                           ") is larger than maximum_size (" + std::to_string(s.maximum) +
                                           ")");
    impl_ = std::make_shared<sycl::detail::memory_pool_impl>(c, d, kind, s);
}

context memory_pool::get_context() const {
    return impl_->ctx;
}
device memory_pool::get_device() const {
    return impl_->dev;
}
usm::alloc memory_pool::get_alloc_kind() const {
    return impl_->kind;
}
std::size_t memory_pool::get_threshold() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->settings.threshold;
}
std::size_t memory_pool::get_reserved_size_current() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->used + impl_->kept;
}
std::size_t memory_pool::get_used_size_current() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->used;
}
void memory_pool::increase_threshold_to(std::size_t bytes) {
    std::lock_guard lock(impl_->mutex);
    if (impl_->settings.maximum && bytes > impl_->settings.maximum)
        throw exception(errc::invalid, "memory_pool::increase_threshold_to: " + std::to_string(bytes) +
                                           " is larger than the pool's maximum_size (" +
                                           std::to_string(impl_->settings.maximum) + ")");
    if (bytes > impl_->settings.threshold) impl_->settings.threshold = bytes;
}

void* async_malloc(handler& h, usm::alloc kind, std::size_t bytes) {
    void* p = sycl::detail::allocate(bytes, h.encore_device(), h.encore_context(), kind, "async_malloc");
    auto block =
        std::make_shared<sycl::detail::async_block>(p, bytes, kind, h.encore_context(), nullptr, false);
    h.set_async(std::move(block), nullptr, false);
    return p;
}

void* async_malloc_from_pool(handler& h, std::size_t bytes, const memory_pool& pool) {
    const auto& impl = pool.impl();
    if (!(impl->dev == h.encore_device()) || !(impl->ctx == h.encore_context()))
        throw exception(errc::invalid,
                        "async_malloc_from_pool: the pool belongs to another device or context than "
                        "the command group");
    void* p = impl->take(bytes);
    auto block = std::make_shared<sycl::detail::async_block>(p, bytes, impl->kind, impl->ctx, impl,
                                                             impl->settings.zero_init);
    h.set_async(std::move(block), nullptr, false);
    return p;
}

void async_free(handler& h, void* pointer) {
    h.set_async(nullptr, pointer, true);
}

void* async_malloc(const queue& q, usm::alloc kind, std::size_t bytes) {
    void* p = nullptr;
    queue(q).submit([&](handler& h) { p = async_malloc(h, kind, bytes); });
    return p;
}

void* async_malloc_from_pool(const queue& q, std::size_t bytes, const memory_pool& pool) {
    void* p = nullptr;
    queue(q).submit([&](handler& h) { p = async_malloc_from_pool(h, bytes, pool); });
    return p;
}

void async_free(const queue& q, void* pointer) {
    queue(q).submit([&](handler& h) { async_free(h, pointer); });
}

} // namespace ext::oneapi::experimental
} // namespace _V1
} // namespace sycl
