// Happens-before annotations for ThreadSanitizer at the points where work crosses threads inside oneTBB. Not
// for you: used by the runtime and the native backend.
//
// Debian's libtbb is not built with TSan, so TSan cannot see the synchronisation inside it: data written
// before task_group::run, task_arena::enqueue or parallel_for and read by the task on another thread looks
// like a race. Each such hand-off in Encore releases an address before it and acquires the same address first
// thing in the task, which tells TSan exactly what oneTBB guarantees, and nothing more. The only reads left
// before the acquire are a task's reads of its own captured pointers, in the small trampolines named in
// tests/tsan.supp.
//
//     ENCORE_TSAN_RELEASE(&state);  arena.enqueue(trampoline{&state});
//     void trampoline::operator()() const { auto* s = state; ENCORE_TSAN_ACQUIRE(s); s->run(); }
#pragma once

#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#define ENCORE_TSAN_ACQUIRE(address)                                                                         \
    __tsan_acquire(const_cast<void*>(static_cast<const volatile void*>(address)))
#define ENCORE_TSAN_RELEASE(address)                                                                         \
    __tsan_release(const_cast<void*>(static_cast<const volatile void*>(address)))
#define ENCORE_TSAN_ENABLED 1
#else
#define ENCORE_TSAN_ACQUIRE(address) static_cast<void>(address)
#define ENCORE_TSAN_RELEASE(address) static_cast<void>(address)
#define ENCORE_TSAN_ENABLED 0
#endif

namespace encore::detail {
// Releases `address` when the scope ends, also when an exception leaves it (a kernel item that throws inside
// a parallel_for must still publish what its chunk did).
class tsan_release_on_exit {
public:
    explicit tsan_release_on_exit(const void* address) noexcept : address_(address) {}
    ~tsan_release_on_exit() { ENCORE_TSAN_RELEASE(address_); }
    tsan_release_on_exit(const tsan_release_on_exit&) = delete;
    tsan_release_on_exit& operator=(const tsan_release_on_exit&) = delete;

private:
    const void* address_;
};
// Acquires `address` when the scope ends, also by an exception: after a parallel_for, whether it returned or
// threw.
class tsan_acquire_on_exit {
public:
    explicit tsan_acquire_on_exit(const void* address) noexcept : address_(address) {}
    ~tsan_acquire_on_exit() { ENCORE_TSAN_ACQUIRE(address_); }
    tsan_acquire_on_exit(const tsan_acquire_on_exit&) = delete;
    tsan_acquire_on_exit& operator=(const tsan_acquire_on_exit&) = delete;

private:
    const void* address_;
};
} // namespace encore::detail

#if defined(__SANITIZE_ADDRESS__)
#define ENCORE_ASAN_ENABLED 1
#else
#define ENCORE_ASAN_ENABLED 0
#endif
