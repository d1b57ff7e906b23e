#include "memory.hpp"

#include <string>

#include "encore/graph/error.hpp"

namespace encore {

std::string_view to_string(memory_kind kind) noexcept {
    switch (kind) {
    case memory_kind::device:
        return "device";
    case memory_kind::host:
        return "host";
    case memory_kind::shared:
        return "shared";
    }
    return "unknown";
}

void* malloc(std::size_t bytes, const device& d, memory_kind kind, std::size_t alignment) {
    return d.owner().allocate(d.index(), kind, bytes, alignment);
}

void* malloc_device(std::size_t bytes, const device& d) {
    return malloc(bytes, d, memory_kind::device);
}
void* malloc_host(std::size_t bytes, const device& d) {
    return malloc(bytes, d, memory_kind::host);
}
void* malloc_shared(std::size_t bytes, const device& d) {
    return malloc(bytes, d, memory_kind::shared);
}
void* malloc_device(std::size_t bytes, const queue& q) {
    return malloc_device(bytes, q.get_device());
}
void* malloc_host(std::size_t bytes, const queue& q) {
    return malloc_host(bytes, q.get_device());
}
void* malloc_shared(std::size_t bytes, const queue& q) {
    return malloc_shared(bytes, q.get_device());
}

void free(void* pointer, const device& d) {
    d.owner().deallocate(d.index(), pointer);
}
void free(void* pointer, const queue& q) {
    free(pointer, q.get_device());
}

void backend::map_for_host(std::uint32_t device, void*, std::size_t) {
    throw error(errc::feature_not_supported, "map_for_host: " + properties(device).name + " (" + std::string(name()) +
                                                 ") has no device memory the host maps; its shared memory is "
                                                 "the host's in place");
}
void backend::unmap_for_host(std::uint32_t device, void*, std::size_t) {
    throw error(errc::feature_not_supported, "unmap_for_host: " + properties(device).name + " (" +
                                                 std::string(name()) + ") has no device memory the host maps");
}

void map_for_host(void* pointer, std::size_t bytes, const device& d) {
    d.owner().map_for_host(d.index(), pointer, bytes);
}
void unmap_for_host(void* pointer, std::size_t bytes, const device& d) {
    d.owner().unmap_for_host(d.index(), pointer, bytes);
}

} // namespace encore
