// What the copies of one sycl::buffer (and its sub-buffers) share: the storage and the dependency tracking of
// the command groups that access it. Not for you: use sycl::buffer and the accessors.
//
// Storage is one allocation of USM shared memory on the default device, made when the buffer is made: the host
// (host accessors, write-back) and every device of the default device's backend use it in place, and on the
// native backend it is plain host memory. A device without shared memory whose device memory the host maps
// (OpenCL coarse-grain SVM: NVIDIA's OpenCL) keeps it in device memory instead, mapped while the host uses it
// (begin_host_use/end_host_use: construction, write-back, host accessors, host tasks). Tracking follows SYCL's
// rules: a command that reads waits for the last writer; a command that writes waits for the last writer and every
// reader since.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "encore/runtime/device.hpp"
#include "encore/runtime/event.hpp"

namespace sycl {
inline namespace _V1 {

enum class access_mode { read, write, read_write, discard_write, discard_read_write, atomic };

namespace detail {

constexpr bool writes(access_mode m) noexcept { return m != access_mode::read; }

// The engine events one eager command group waits for: a few, so they stay on the submitting thread's stack.
using wait_events = boost::container::small_vector<encore::event, 4>;

class buffer_state : public std::enable_shared_from_this<buffer_state> {
public:
    // Copies `bytes` from `initial` when it is not null; otherwise the contents start zeroed. Throws
    // errc::memory_allocation when the storage cannot be allocated.
    buffer_state(std::size_t bytes, const void* initial);
    // Waits for every command that uses the buffer, writes back (unless release_by_user did), frees the storage.
    ~buffer_state();
    buffer_state(const buffer_state&) = delete;
    buffer_state& operator=(const buffer_state&) = delete;

    std::size_t bytes() const noexcept { return bytes_; }
    std::byte* data() const noexcept { return storage_; }
    const encore::device& storage_device() const noexcept { return device_; }

    // The end of the buffer's life for the program (its last sycl::buffer went): waits for every command that
    // uses it, then copies the contents to the final data (if any and write-back is on), once. Graphs that use
    // the buffer keep the storage alive after this and may still run.
    void release_by_user();

    void set_final_data(void* destination);
    // Instead of a pointer: `write` receives the contents at the end (a weak_ptr that may have expired, an output
    // iterator, a shared_ptr the buffer co-owns). Replaced by the next set_final_data or set_final_writer.
    using final_writer = std::function<void(const std::byte* contents, std::size_t bytes)>;
    void set_final_writer(final_writer write);
    void set_write_back(bool on);
    // property::buffer::use_mutex: locked while the buffer writes the user's host memory.
    void set_user_mutex(std::mutex* m);

    // The events a new command accessing the buffer with `mode` must wait for, appended to `out`.
    void dependencies(access_mode mode, wait_events& out);
    // The new command's event, for the commands after it.
    void record(access_mode mode, const encore::event& e);
    // Blocks until the commands that a host access with `mode` must wait for have completed.
    void wait_for_host(access_mode mode);
    // Commands submitted from now on wait for `hold` as well (a live host accessor); host accesses do not.
    void add_host_hold(const encore::event& hold);
    // The host reads or writes the storage between these (counted: host accessors and host tasks overlap). Where
    // the storage is mapped device memory, the first begin maps it and the last end gives it back to the device;
    // elsewhere they do nothing. begin throws errc::runtime when the mapping fails.
    void begin_host_use();
    void end_host_use() noexcept;
    bool mapped_storage() const noexcept { return mapped_; }

    // How many graphs that are being recorded use this buffer (host accessors are forbidden meanwhile).
    void add_recording_use(int delta) noexcept { recording_uses_ += delta; }
    int recording_uses() const noexcept { return recording_uses_; }

private:
    void write_back();

    std::mutex mutex_;
    std::size_t bytes_;
    encore::device device_;
    std::byte* storage_ = nullptr;
    bool mapped_ = false;     // storage_ is device memory the host maps (see the top)
    std::mutex host_use_mutex_;
    int host_uses_ = 0;       // under host_use_mutex_
    void* final_data_ = nullptr;
    final_writer final_writer_;
    bool write_back_ = true;
    std::mutex* user_mutex_ = nullptr;
    encore::event last_write_;
    std::vector<encore::event> reads_; // since last_write_
    std::vector<encore::event> host_holds_;
    std::atomic<int> recording_uses_{0};
};

// What every sycl::buffer of one buffer (copies and sub-buffers) shares: when the last goes, release_by_user()
// ends the buffer's life for the program, as SYCL's buffer destructor does, while graphs that still hold the
// buffer_state keep its storage.
class buffer_user {
public:
    explicit buffer_user(std::shared_ptr<buffer_state> state) : state_(std::move(state)) {}
    ~buffer_user() { state_->release_by_user(); }
    buffer_user(const buffer_user&) = delete;
    buffer_user& operator=(const buffer_user&) = delete;

private:
    std::shared_ptr<buffer_state> state_;
};

// Waits as a host access with `mode` must, then holds later commands on the buffer back until the returned
// handle (and its copies) are gone. The handle keeps the buffer's state alive.
std::shared_ptr<void> begin_host_access(const std::shared_ptr<buffer_state>& state, access_mode mode);

// A host task's body that maps the buffers it uses, where any of them is mapped device memory (host tasks touch
// buffers in place); `task` itself otherwise.
std::function<void()> with_host_use(std::function<void()> task, const std::vector<buffer_state*>& buffers);

} // namespace detail
} // namespace _V1
} // namespace sycl
