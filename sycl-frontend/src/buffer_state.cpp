#include "sycl/detail/buffer_state.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <utility>

#include "encore/backends/detail/completion_event.hpp"
#include "encore/runtime/memory.hpp"
#include "sycl/detail/engine_error.hpp"
#include "sycl/exception.hpp"

namespace sycl {
inline namespace _V1 {
namespace detail {

bool buffers_on_backend(std::string_view backend) {
    try {
        return encore::device::default_device().backend_name() == backend; // where buffer_state allocates
    } catch (const encore::error&) {
        return false; // no device at all
    }
}

buffer_state::buffer_state(std::size_t bytes, const void* initial)
    : bytes_(bytes), device_(translate_errors([] { return encore::device::default_device(); })) {
    const auto& p = device_.properties();
    mapped_ = !p.shared_memory && p.mapped_device_memory;
    try {
        storage_ = static_cast<std::byte*>(mapped_ ? encore::malloc_device(bytes, device_)
                                                   : encore::malloc_shared(bytes, device_));
    } catch (const encore::error& e) {
        throw exception(errc::memory_allocation,
                        "sycl::buffer: cannot allocate " + std::to_string(bytes) + " bytes: " + e.what());
    }
    if (!storage_) return; // zero bytes
    try {
        begin_host_use();
    } catch (...) {
        encore::free(storage_, device_);
        throw;
    }
    if (initial)
        std::memcpy(storage_, initial, bytes);
    else
        std::memset(storage_, 0, bytes);
    end_host_use();
}

void buffer_state::begin_host_use() {
    std::lock_guard lock(host_use_mutex_);
    if (mapped_ && host_uses_ == 0 && storage_)
        translate_errors([&] { encore::map_for_host(storage_, bytes_, device_); });
    ++host_uses_;
}

void buffer_state::end_host_use() noexcept {
    std::lock_guard lock(host_use_mutex_);
    if (--host_uses_ > 0 || !mapped_ || !storage_) return;
    try {
        encore::unmap_for_host(storage_, bytes_, device_);
    } catch (const encore::error& e) {
        // Not reachable for memory this object mapped; a failing driver leaves the range mapped, and says so.
        std::fprintf(stderr, "sycl::buffer: giving %zu bytes back to the device failed: %s\n", bytes_, e.what());
    }
}

buffer_state::~buffer_state() {
    release_by_user(); // a no-op write-back if the program's last buffer did it already
    try {
        encore::free(storage_, device_);
    } catch (const encore::error&) {
        // Cannot happen for memory this object allocated; a destructor must not throw either way.
    }
}

void buffer_state::write_back() {
    void* destination = nullptr;
    final_writer writer;
    {
        std::lock_guard lock(mutex_);
        if (write_back_) destination = std::exchange(final_data_, nullptr); // once
        if (write_back_) writer = std::exchange(final_writer_, nullptr);
    }
    if (!writer && !destination) return;
    try {
        begin_host_use();
    } catch (const std::exception& e) { // from a destructor (release_by_user): say so rather than terminate
        std::fprintf(stderr, "sycl::buffer: the contents (%zu bytes) could not be written back: %s\n", bytes_,
                     e.what());
        return;
    }
    struct give_back {
        buffer_state* state;
        ~give_back() { state->end_host_use(); }
    } after{this};
    std::unique_lock<std::mutex> user_lock;
    if (user_mutex_) user_lock = std::unique_lock(*user_mutex_);
    if (writer)
        writer(storage_, bytes_);
    else
        std::memcpy(destination, storage_, bytes_);
}

void buffer_state::release_by_user() {
    wait_for_host(access_mode::read_write); // every command that reads or writes the buffer
    write_back();
}

void buffer_state::set_final_data(void* destination) {
    final_writer previous; // released outside the lock: it may own the program's memory
    std::lock_guard lock(mutex_);
    final_data_ = destination;
    previous = std::exchange(final_writer_, nullptr);
}

void buffer_state::set_final_writer(final_writer write) {
    final_writer previous;
    std::lock_guard lock(mutex_);
    final_data_ = nullptr;
    previous = std::exchange(final_writer_, std::move(write));
}

void buffer_state::set_user_mutex(std::mutex* m) {
    std::lock_guard lock(mutex_);
    user_mutex_ = m;
}

void buffer_state::set_write_back(bool on) {
    std::lock_guard lock(mutex_);
    write_back_ = on;
}

void buffer_state::dependencies(access_mode mode, wait_events& out) {
    std::lock_guard lock(mutex_);
    std::erase_if(host_holds_, [](const encore::event& h) { return h.is_complete(); });
    out.insert(out.end(), host_holds_.begin(), host_holds_.end());
    if (last_write_.state()) out.push_back(last_write_);
    if (writes(mode)) out.insert(out.end(), reads_.begin(), reads_.end());
}

void buffer_state::record(access_mode mode, const encore::event& e) {
    std::lock_guard lock(mutex_);
    if (writes(mode)) {
        last_write_ = e;
        reads_.clear();
        return;
    }
    std::erase_if(reads_, [](const encore::event& r) { return r.is_complete(); });
    reads_.push_back(e);
}

void buffer_state::wait_for_host(access_mode mode) {
    std::vector<encore::event> pending;
    {
        std::lock_guard lock(mutex_);
        if (last_write_.state()) pending.push_back(last_write_);
        if (writes(mode)) pending.insert(pending.end(), reads_.begin(), reads_.end());
    }
    for (const auto& e : pending) e.wait();
}

void buffer_state::add_host_hold(const encore::event& hold) {
    std::lock_guard lock(mutex_);
    host_holds_.push_back(hold);
}

std::shared_ptr<void> begin_host_access(const std::shared_ptr<buffer_state>& state, access_mode mode) {
    if (state->recording_uses() > 0)
        throw exception(errc::invalid, "host_accessor: the buffer is used by a graph that a queue is recording; "
                                       "end the recording first");
    state->wait_for_host(mode);
    auto hold = std::make_shared<encore::detail::completion_event>(false);
    state->begin_host_use();
    state->add_host_hold(encore::event(hold));
    // The deleter runs when the last copy of the host accessor goes: the storage goes back to the device, and the
    // held-back commands may start.
    return std::shared_ptr<void>(nullptr, [state, hold](void*) {
        state->end_host_use();
        hold->complete();
    });
}

std::function<void()> with_host_use(std::function<void()> task, const std::vector<buffer_state*>& buffers) {
    std::vector<std::shared_ptr<buffer_state>> mapped;
    for (auto* b : buffers)
        if (b && b->mapped_storage()) mapped.push_back(b->shared_from_this());
    if (mapped.empty()) return task;
    return [task = std::move(task), mapped = std::move(mapped)] {
        std::size_t begun = 0;
        struct give_back {
            const std::vector<std::shared_ptr<buffer_state>>& buffers;
            const std::size_t& count;
            ~give_back() {
                for (std::size_t i = 0; i < count; ++i) buffers[i]->end_host_use();
            }
        } after{mapped, begun};
        for (; begun < mapped.size(); ++begun) mapped[begun]->begin_host_use();
        task();
    };
}

} // namespace detail
} // namespace _V1
} // namespace sycl
