// A USM array of one device, freed on destruction: the runtime and CUDA tests' shared test helper.
#pragma once

#include <cstddef>
#include <vector>

#include "encore/backends/memory.hpp"

namespace encore::testing {

template <typename T> class usm_array {
public:
    // Elements start as T{} when the host can write them: every kind but device memory of a device whose memory
    // the host cannot reach (`host_writable` false).
    usm_array(std::size_t count, const device& d, memory_kind kind = memory_kind::shared, bool host_writable = true)
        : device_(d), data_(static_cast<T*>(encore::malloc(count * sizeof(T), d, kind, alignof(T)))),
          count_(count) {
        if (kind != memory_kind::device || host_writable)
            for (std::size_t i = 0; i < count; ++i)
                data_[i] = T{};
    }
    ~usm_array() { encore::free(data_, device_); }
    usm_array(const usm_array&) = delete;
    usm_array& operator=(const usm_array&) = delete;

    T* data() const noexcept { return data_; }
    T& operator[](std::size_t i) const noexcept { return data_[i]; }
    std::size_t size() const noexcept { return count_; }
    std::vector<T> values() const { return std::vector<T>(data_, data_ + count_); }

private:
    device device_;
    T* data_;
    std::size_t count_;
};

} // namespace encore::testing
