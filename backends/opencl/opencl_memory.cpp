#include "opencl_memory.hpp"

namespace encore::opencl {

void allocation_table::insert(void* p, allocation a) {
    std::lock_guard lock(mutex_);
    by_address_[reinterpret_cast<std::uintptr_t>(p)] = a;
}

std::optional<allocation> allocation_table::erase(void* p) {
    std::lock_guard lock(mutex_);
    auto it = by_address_.find(reinterpret_cast<std::uintptr_t>(p));
    if (it == by_address_.end()) return std::nullopt;
    allocation a = it->second;
    by_address_.erase(it);
    return a;
}

// The last allocation starting at or before p, if it covers the range: O(log n).
std::map<std::uintptr_t, allocation>::const_iterator allocation_table::holding(const void* p,
                                                                               std::size_t bytes) const {
    const auto address = reinterpret_cast<std::uintptr_t>(p);
    auto it = by_address_.upper_bound(address);
    if (it == by_address_.begin()) return by_address_.end();
    --it;
    const std::uintptr_t begin = it->first;
    const std::uintptr_t end = begin + it->second.bytes;
    if (address < begin || address >= end || bytes > end - address) return by_address_.end();
    return it;
}

std::optional<allocation> allocation_table::find(const void* p, std::size_t bytes) const {
    std::lock_guard lock(mutex_);
    auto it = holding(p, bytes);
    if (it == by_address_.end()) return std::nullopt;
    return it->second;
}

std::optional<std::pair<cl_mem, std::size_t>>
allocation_table::view_of(const void* p, std::size_t bytes,
                          const std::function<cl_mem(const allocation&)>& make) {
    std::lock_guard lock(mutex_);
    auto it = holding(p, bytes);
    if (it == by_address_.end()) return std::nullopt;
    auto& a = by_address_.at(it->first);
    if (!a.view) a.view = make(a);
    return std::pair{a.view, reinterpret_cast<std::uintptr_t>(p) - reinterpret_cast<std::uintptr_t>(a.base)};
}

std::vector<allocation> allocation_table::take_all() {
    std::lock_guard lock(mutex_);
    std::vector<allocation> all;
    for (auto& [address, a] : by_address_)
        all.push_back(a);
    by_address_.clear();
    return all;
}

bool intel_usm_functions::load(cl_platform_id platform) {
    const auto& cl = detail::api::get();
    auto get = [&](const char* name) { return cl.clGetExtensionFunctionAddressForPlatform(platform, name); };
    host_alloc = reinterpret_cast<clHostMemAllocINTEL_fn>(get("clHostMemAllocINTEL"));
    device_alloc = reinterpret_cast<clDeviceMemAllocINTEL_fn>(get("clDeviceMemAllocINTEL"));
    shared_alloc = reinterpret_cast<clSharedMemAllocINTEL_fn>(get("clSharedMemAllocINTEL"));
    blocking_free = reinterpret_cast<clMemBlockingFreeINTEL_fn>(get("clMemBlockingFreeINTEL"));
    set_kernel_arg = reinterpret_cast<clSetKernelArgMemPointerINTEL_fn>(get("clSetKernelArgMemPointerINTEL"));
    memcpy = reinterpret_cast<clEnqueueMemcpyINTEL_fn>(get("clEnqueueMemcpyINTEL"));
    fill = reinterpret_cast<clEnqueueMemFillINTEL_fn>(get("clEnqueueMemFillINTEL"));
    return host_alloc && device_alloc && shared_alloc && blocking_free && set_kernel_arg && memcpy && fill;
}

} // namespace encore::opencl
