#include "buffer.hpp"

#include <cstdint>

namespace encore {

namespace {
constexpr std::size_t alignment = 64;
}

buffer::buffer(std::size_t bytes)
    : memory_object(bytes), storage_(std::make_unique<std::byte[]>(bytes + alignment)) { // zero-filled
    auto base = reinterpret_cast<std::uintptr_t>(storage_.get());
    data_ = storage_.get() + ((base + alignment - 1) / alignment * alignment - base);
}

} // namespace encore
