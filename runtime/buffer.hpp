// encore::buffer — a memory object whose storage is host memory owned by the runtime.
//
// Copy commands (copy_command) move bytes between memory objects; the native backend reads and writes a
// buffer's host storage. The storage is zero-filled and 64-byte aligned, and lives as long as the buffer
// (commands hold shared_ptrs, so a buffer outlives every graph and submission that uses it).
//
//     auto a = std::make_shared<encore::buffer>(1024), b = std::make_shared<encore::buffer>(1024);
//     q.submit(encore::copy_command{a, 0, b, 0, 1024}).wait();
#pragma once

#include <cstddef>
#include <memory>

#include "encore/graph/command.hpp"

namespace encore {

class buffer final : public memory_object {
public:
    explicit buffer(std::size_t bytes);

    std::byte* data() noexcept { return data_; }
    const std::byte* data() const noexcept { return data_; }

private:
    std::unique_ptr<std::byte[]> storage_;
    std::byte* data_ = nullptr;
};

} // namespace encore
