// An array of T for a test's kernels and commands that works on every device: shared USM where the queue's
// device has aspect::usm_shared_allocations, else device USM (NVIDIA's OpenCL: coarse-grain SVM only). The host
// reaches it only through write, fill and read: on shared memory they touch it directly (so the devices that have
// it keep exercising it), on device memory they copy through a queue of their own, which neither joins a graph
// recording nor orders the test's queues. Each waits; call them when no work on the array is in flight.
//
//     encore::testing::test_memory<int> v(q, n);
//     v.fill(1);                                                // or v.write(values), v.write({5, 6}, 2)
//     add_to.parallel_for(q, sycl::range<1>{n}, {}, v.get(), 2).wait();
//     CHECK(v.read()[5] == 3);
//
// Host code that needs the memory itself (a host task that dereferences it) still needs shared USM
// (support/sycl_host_usm.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include <sycl/sycl.hpp>

namespace encore::testing {

// What test_memory allocates on `d`; for the allocations a test makes itself (async_malloc, memory pools).
inline sycl::usm::alloc test_memory_kind(const sycl::device& d) {
    return d.has(sycl::aspect::usm_shared_allocations) ? sycl::usm::alloc::shared : sycl::usm::alloc::device;
}

template <typename T> class test_memory {
public:
    test_memory(const sycl::queue& q, std::size_t count)
        : copier_(q.get_context(), q.get_device()), kind_(test_memory_kind(q.get_device())), count_(count),
          data_(sycl::malloc<T>(count, q, kind_)) {
        if (!data_)
            throw sycl::exception(sycl::errc::memory_allocation,
                                  "test_memory: no " + std::to_string(count) + " elements of USM on the device");
    }
    ~test_memory() { sycl::free(data_, copier_); }
    test_memory(const test_memory&) = delete;
    test_memory& operator=(const test_memory&) = delete;

    T* get() const noexcept { return data_; }
    std::size_t size() const noexcept { return count_; }
    bool shared() const noexcept { return kind_ == sycl::usm::alloc::shared; }

    // Sets the elements from `first` on to `values`.
    void write(const std::vector<T>& values, std::size_t first = 0) const {
        if (first + values.size() > count_)
            throw sycl::exception(sycl::errc::invalid, "test_memory::write: the values reach past the array");
        if (shared())
            std::copy(values.begin(), values.end(), data_ + first);
        else
            copier_.memcpy(data_ + first, values.data(), values.size() * sizeof(T)).wait();
    }
    void fill(const T& value) const { write(std::vector<T>(count_, value)); }

    // Every element, as the device left it.
    std::vector<T> read() const {
        if (shared()) return std::vector<T>(data_, data_ + count_);
        std::vector<T> values(count_);
        copier_.memcpy(values.data(), data_, count_ * sizeof(T)).wait();
        return values;
    }

private:
    mutable sycl::queue copier_; // device memory's copies; its context frees the array
    sycl::usm::alloc kind_;
    std::size_t count_;
    T* data_;
};

} // namespace encore::testing
