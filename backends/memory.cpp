#include "memory.hpp"

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

} // namespace encore
