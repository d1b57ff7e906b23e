// encore::detail::submission_thread — runs tasks in the order they were submitted, on a thread of its own
// while submissions come in bursts, and on the submitting thread otherwise.
//
// Why: a driver call that puts work on a GPU stream (cuLaunchKernel: 2.5-4 µs of CPU on the H100 machine) is
// most of the cost of an eager submission. A submitter that hands the call to this thread returns as soon as the
// task is queued, and the thread makes the calls back to back, as a hand-written loop would; the submitter's own
// bookkeeping then overlaps the driver's instead of adding to it. For a submission that comes alone (submit, then
// wait) a handoff would only add latency, so a task submitted while nothing is queued or running runs right away
// on the submitting thread, unless the previous task run that way ended less than `burst_gap` ago: then the
// submissions come back to back, and the thread (woken if it sleeps) takes them. It spins for `linger` after its
// last task before it sleeps again. A task submitted as `cheap` (it costs less than a handoff) runs on the
// submitting thread whenever nothing is queued or running, burst or not.
//
// Order: tasks run one at a time, in submission order, whichever thread runs them. `in_order(task)`, passed to
// submit(), runs under the submitter's lock at the task's place in that order (a queue records there what the
// task's position implies, e.g. "the last work on this stream"). A task that throws: on the submitting thread the
// exception leaves submit(); on the thread, `task.fail(std::current_exception())` is called.
//
// Back pressure: submit() waits (polling) while `capacity` tasks are unfinished, queued or running, except on a
// thread that is running tasks of this submitter (a task's callback that submits more): that one never waits, so
// the thread cannot wait on itself; a task submitted by a task runs after it. drain() returns once every task
// submitted before the call has run.
//
// How: submitters take a mutex among themselves (it also makes `in_order` and the push one step); the thread
// never takes it. Tasks are built in place in chunks of slots, each slot published by a release store of its
// `ready` flag, so a handoff moves only the cache lines of the task itself. The thread only runs tasks;
// submitters destroy the ones it finished on their next push (and reuse the chunks), so what a task frees is
// freed by the thread that allocated it (no malloc arena shared between the two threads) and the thread does
// nothing but the calls. The thread sleeps on an atomic flag (futex) after `linger`; a submitter wakes it only
// when that flag says it sleeps (Dekker-style, seq_cst).
//
//     encore::detail::submission_thread<launch_task> launcher;
//     launcher.submit(std::move(task), [&](launch_task& t) { stream.last = t.event.get(); });
//     launcher.drain(); // e.g. before memory the tasks use is freed
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include "encore/graph/error.hpp"

namespace encore::detail {

struct submission_thread_options {
    std::chrono::nanoseconds burst_gap{2'000}; // a submission sooner than this after the last one is part of a burst
    std::chrono::nanoseconds linger{100'000};  // how long the thread spins for more work before it sleeps
    std::size_t capacity = 1024;               // unfinished tasks before submit() waits
};

// Task: movable, `void operator()()` (may throw), `void fail(std::exception_ptr) noexcept`.
template <typename Task>
class submission_thread {
public:
    using clock = std::chrono::steady_clock;

    explicit submission_thread(submission_thread_options options = {})
        : options_(options), last_inline_end_(clock::now() - options.burst_gap), head_(new chunk), tail_(head_),
          reclaim_(head_), thread_([this] { run(); }) {}

    // Runs every task submitted so far, then stops the thread. Nothing may be submitted meanwhile.
    ~submission_thread() {
        stop_.store(true, std::memory_order_seq_cst);
        wake();
        thread_.join();
        released_.store(slots_pushed_); // the thread is gone, and it ran every slot
        reclaim();
        for (chunk* c = reclaim_; c;) {
            chunk* next = c->next.load(std::memory_order_relaxed);
            delete c;
            c = next;
        }
        for (chunk* c : spare_)
            delete c;
    }

    submission_thread(const submission_thread&) = delete;
    submission_thread& operator=(const submission_thread&) = delete;

    // `cheap`: the task costs less than a handoff; it runs here whenever nothing is queued or running, burst or
    // not.
    template <typename InOrder>
    void submit(Task&& task, const InOrder& in_order, bool cheap = false) {
        if (inline_here_ == this) { // a task run in place submits: it goes after that task (the lock is held)
            in_order(task);
            after_inline_.push_back(std::move(task));
            return;
        }
        const bool on_thread = thread_here_ == this;
        if (!on_thread) wait_for_room();
        std::unique_lock lock(mutex_);
        if (!on_thread && done_.load(std::memory_order_acquire) == pushed_.load(std::memory_order_relaxed) &&
            (cheap || clock::now() - last_inline_end_ >= options_.burst_gap)) {
            // Nothing queued or running, and not part of a burst: run it here, in order, holding the lock.
            in_order(task);
            pushed_.store(pushed_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
            run_here(task);
            return;
        }
        in_order(task);
        push(std::move(task));
    }

    void submit(Task&& task) {
        submit(std::move(task), [](Task&) {});
    }

    // Returns once every task submitted before the call has run. Refused on a thread running this submitter's
    // tasks: they are behind the one it runs.
    void drain() {
        if (running_here())
            throw error(errc::invalid_argument, "submission_thread: drain() from one of its own tasks would wait forever");
        const std::uint64_t ticket = pushed_.load(std::memory_order_acquire);
        while (done_.load(std::memory_order_acquire) < ticket)
            std::this_thread::sleep_for(std::chrono::microseconds(10));
    }

    // True while the calling thread runs this submitter's tasks (its thread, or a submitter running one in place).
    bool running_here() const noexcept { return thread_here_ == this || inline_here_ == this; }

private:
    static constexpr std::size_t slots_per_chunk = 64;
    struct alignas(64) slot {
        std::atomic<bool> ready{false};
        alignas(Task) std::byte storage[sizeof(Task)];
        Task& task() noexcept { return *std::launder(reinterpret_cast<Task*>(storage)); }
    };
    struct chunk {
        slot slots[slots_per_chunk];
        std::atomic<chunk*> next{nullptr};
    };

    // Back pressure by polling: with `capacity` tasks of driver calls queued (about 1 ms on a GPU), a sleep of
    // tens of µs never starves the thread, costs it nothing (no wake-up to send), and lets the submitter refill
    // a few slots at a time instead of in bursts that compete with the thread for the caches.
    void wait_for_room() const {
        while (pushed_.load(std::memory_order_acquire) - done_.load(std::memory_order_acquire) >= options_.capacity)
            std::this_thread::sleep_for(std::chrono::microseconds(20));
    }

    // Under mutex_: destroys the tasks the thread is done with; a chunk all done goes to spare_.
    void reclaim() noexcept {
        for (const std::uint64_t released = released_.load(std::memory_order_acquire); reclaimed_ < released;
             ++reclaimed_) {
            if (reclaim_index_ == slots_per_chunk) {
                chunk* done = reclaim_;
                reclaim_ = done->next.load(std::memory_order_relaxed);
                reclaim_index_ = 0;
                spare_.push_back(done); // at most capacity/64 + 2 chunks ever exist
            }
            reclaim_->slots[reclaim_index_++].task().~Task();
        }
    }

    // Under mutex_: builds the task in the next slot and publishes it.
    void push(Task&& task) {
        reclaim();
        if (tail_index_ == slots_per_chunk) {
            chunk* c = nullptr;
            if (spare_.empty()) {
                c = new chunk;
            } else {
                c = spare_.back();
                spare_.pop_back();
                for (auto& s : c->slots)
                    s.ready.store(false, std::memory_order_relaxed);
                c->next.store(nullptr, std::memory_order_relaxed);
            }
            tail_->next.store(c, std::memory_order_release); // publishes the reset flags too
            tail_ = c;
            tail_index_ = 0;
        }
        slot& s = tail_->slots[tail_index_++];
        ++slots_pushed_;
        ::new (static_cast<void*>(s.storage)) Task(std::move(task));
        pushed_.store(pushed_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
        s.ready.store(true, std::memory_order_seq_cst);
        if (sleeping_.load(std::memory_order_seq_cst)) wake();
    }

    void wake() {
        sleeping_.store(false, std::memory_order_seq_cst);
        sleeping_.notify_one();
    }

    // The task in place, under mutex_; its exception propagates. What it submitted is queued after it.
    void run_here(Task& task) {
        struct finish {
            submission_thread& self;
            ~finish() {
                inline_here_ = nullptr;
                self.done_.store(self.done_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
                self.last_inline_end_ = clock::now();
                for (auto& t : self.after_inline_)
                    self.push(std::move(t));
                self.after_inline_.clear();
            }
        } finish{*this};
        inline_here_ = this;
        task();
    }

    // The next published slot, or nullptr.
    slot* next_ready() noexcept {
        if (head_index_ == slots_per_chunk) {
            chunk* next = head_->next.load(std::memory_order_acquire);
            if (!next) return nullptr;
            head_ = next;
            head_index_ = 0;
            released_.store(slots_run_, std::memory_order_release); // it left the chunk
        }
        slot& s = head_->slots[head_index_];
        return s.ready.load(std::memory_order_acquire) ? &s : nullptr;
    }

    void run() {
        thread_here_ = this;
        for (;;) {
            slot* s = next_ready();
            if (!s) {
                // Spin a while for the next task of a burst: a sleep and a wake-up cost more than a launch.
                const auto until = clock::now() + options_.linger;
                for (unsigned spins = 0; !(s = next_ready()); ++spins) {
                    if (stop_.load(std::memory_order_acquire)) return;
                    pause();
                    if (spins % 64 == 0 && clock::now() >= until) break;
                }
                if (!s) {
                    sleeping_.store(true, std::memory_order_seq_cst);
                    std::atomic_thread_fence(std::memory_order_seq_cst); // the re-check below pairs with push()'s
                    if (!(s = next_ready()) && !stop_.load(std::memory_order_seq_cst))
                        sleeping_.wait(true, std::memory_order_seq_cst);
                    sleeping_.store(false, std::memory_order_relaxed);
                    continue;
                }
            }
            prefetch_ahead();
            Task& task = s->task();
            try {
                task();
            } catch (...) {
                task.fail(std::current_exception());
            }
            done_.store(done_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
            ++slots_run_;
            // The last slot of a chunk is left only once the thread has read the chunk's `next`.
            if (++head_index_ < slots_per_chunk) released_.store(slots_run_, std::memory_order_release);
        }
    }

    // While a task runs (a driver call: microseconds), the cache lines of the next ones come over from the
    // submitters' caches: the slot after next, and what the next task says it will touch (Task::prefetch(),
    // optional). Only published slots are read.
    void prefetch_ahead() noexcept {
        if (head_index_ + 1 < slots_per_chunk) {
            slot& next = head_->slots[head_index_ + 1];
            if constexpr (requires(Task& t) { t.prefetch(); })
                if (next.ready.load(std::memory_order_acquire)) next.task().prefetch();
        }
        if (head_index_ + 2 < slots_per_chunk) {
            const char* after = reinterpret_cast<const char*>(&head_->slots[head_index_ + 2]);
            for (std::size_t line = 0; line < 4 * 64 && line < sizeof(slot); line += 64)
                __builtin_prefetch(after + line, 0, 3);
        }
    }

    static void pause() noexcept {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        asm volatile("yield");
#endif
    }

    static inline thread_local const submission_thread* thread_here_ = nullptr; // this is the submitter's thread
    static inline thread_local const submission_thread* inline_here_ = nullptr; // running a task in place

    const submission_thread_options options_;
    std::mutex mutex_;                  // among submitters; never taken by the thread
    clock::time_point last_inline_end_; // under mutex_: when the last task run in place ended
    std::vector<Task> after_inline_;    // under mutex_: submitted by the task running in place
    chunk* head_; // the thread's: the next slot it runs
    std::size_t head_index_ = 0;
    std::uint64_t slots_run_ = 0;
    chunk* tail_; // under mutex_: the next slot to fill
    std::size_t tail_index_ = 0;
    std::uint64_t slots_pushed_ = 0;
    chunk* reclaim_; // under mutex_: the next slot to destroy
    std::size_t reclaim_index_ = 0;
    std::uint64_t reclaimed_ = 0;
    std::vector<chunk*> spare_; // under mutex_: done chunks, for the next ones to reuse
    alignas(64) std::atomic<std::uint64_t> pushed_{0}; // tasks submitted (run in place included)
    alignas(64) std::atomic<std::uint64_t> done_{0};   // tasks finished, in order
    std::atomic<std::uint64_t> released_{0};           // slots the thread will not touch again: reclaim up to here
    alignas(64) std::atomic<bool> sleeping_{false};
    std::atomic<bool> stop_{false};
    std::thread thread_; // last: starts when everything above is ready
};

} // namespace encore::detail
