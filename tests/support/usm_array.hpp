// A USM array of one device, freed on destruction: the runtime and GPU tests' shared test helper.
//
// Element access from the host goes through element_ref. On a device with shared memory (every device but
// OpenCL devices with coarse-grain SVM only, such as NVIDIA's: device_properties::shared_memory) it reads and
// writes the memory itself. On a device without, a shared array is device memory instead, and each host access
// is a blocking copy through a queue of its own, so the behaviour suites run there with their host checks
// (`mirrored()` says which; such an access is as racy as one of shared memory while device work is in flight).
// Host code that needs the memory itself (a host task writing through a pointer) needs shared memory.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <sstream>
#include <vector>

#include <doctest/doctest.h>

#include "encore/runtime/memory.hpp"
#include "encore/runtime/queue.hpp"
#include "encore/graph/error.hpp"

namespace encore::testing {

template <typename T> class element_ref {
public:
    element_ref(T* address, queue* copier) : address_(address), copier_(copier) {}
    operator T() const { return value(); }
    T value() const {
        if (!copier_) return *address_;
        T value{};
        copier_->memcpy(&value, address_, sizeof(T)).wait();
        return value;
    }
    const element_ref& operator=(const T& value) const {
        if (!copier_)
            *address_ = value;
        else
            copier_->memcpy(address_, &value, sizeof(T)).wait();
        return *this;
    }
    const element_ref& operator=(const element_ref& other) const { return *this = static_cast<T>(other); }
    const element_ref& operator+=(const T& v) const { return *this = static_cast<T>(*this) + v; }
    const element_ref& operator-=(const T& v) const { return *this = static_cast<T>(*this) - v; }
    const element_ref& operator*=(const T& v) const { return *this = static_cast<T>(*this) * v; }
    const element_ref& operator++() const { return *this += T(1); }
    T operator++(int) const {
        T old = *this;
        *this = old + T(1);
        return old;
    }

private:
    T* address_;
    queue* copier_; // null: the host reaches the memory
};

template <typename T> class usm_array {
public:
    // Elements start as T{} when the host can write them: every kind but device memory of a device whose memory
    // the host cannot reach (`host_writable` false).
    usm_array(std::size_t count, const device& d, memory_kind kind = memory_kind::shared, bool host_writable = true)
        : device_(d), count_(count) {
        const auto& p = d.properties();
        if ((kind == memory_kind::shared && !p.shared_memory) || (kind == memory_kind::host && !p.host_memory)) {
            kind = memory_kind::device; // reached by copies
            copier_ = std::make_unique<queue>(d);
        } else if (kind == memory_kind::device && !p.shared_memory) {
            copier_ = std::make_unique<queue>(d); // no memory of the device is the host's
        }
        data_ = static_cast<T*>(encore::malloc(count * sizeof(T), d, kind, alignof(T)));
        if (copier_) {
            const std::vector<T> zeros(count);
            copier_->memcpy(data_, zeros.data(), count * sizeof(T)).wait();
        } else if (kind != memory_kind::device || host_writable) {
            for (std::size_t i = 0; i < count; ++i)
                data_[i] = T{};
        }
    }
    ~usm_array() { encore::free(data_, device_); }
    usm_array(const usm_array&) = delete;
    usm_array& operator=(const usm_array&) = delete;

    T* data() const noexcept { return data_; }
    element_ref<T> operator[](std::size_t i) const noexcept { return {data_ + i, copier_.get()}; }
    std::size_t size() const noexcept { return count_; }
    bool mirrored() const noexcept { return copier_ != nullptr; }
    // Sets every element (count values).
    void assign(const std::vector<T>& v) const {
        if (copier_)
            copier_->memcpy(data_, v.data(), count_ * sizeof(T)).wait();
        else
            std::copy(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(count_), data_);
    }
    std::vector<T> values() const {
        std::vector<T> v(count_);
        if (copier_)
            copier_->memcpy(v.data(), data_, count_ * sizeof(T)).wait();
        else
            v.assign(data_, data_ + count_);
        return v;
    }

private:
    device device_;
    T* data_ = nullptr;
    std::size_t count_;
    std::unique_ptr<queue> copier_; // mirrored: host accesses are copies through it
};

} // namespace encore::testing

// doctest prints what an element holds.
template <typename T> struct doctest::StringMaker<encore::testing::element_ref<T>> {
    static doctest::String convert(const encore::testing::element_ref<T>& e) {
        if constexpr (requires(std::ostream& o, const T& v) { o << v; }) {
            std::ostringstream out;
            out << +e.value();
            return out.str().c_str();
        } else {
            return "{?}";
        }
    }
};
