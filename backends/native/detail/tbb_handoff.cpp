#include "tbb_handoff.hpp"

#include "encore/backends/detail/sanitizer_annotations.hpp"

namespace encore::native::detail {

// Each body: read the fields, acquire the hand-off, do the work (see tbb_handoff.hpp for why exactly this).

[[gnu::noinline]] void eager_task::operator()() const {
    eager_work* w = work;
    ENCORE_TSAN_ACQUIRE(w);
    run_eager(*w);
}

[[gnu::noinline]] void launch_task::operator()() const {
    launch_claim* c = claim;
    ENCORE_TSAN_ACQUIRE(c);
    run_launch(*c);
}

[[gnu::noinline]] void help_task::operator()() const {
    launch_claim* c = claim;
    ENCORE_TSAN_ACQUIRE(c);
    // The waiting thread goes on when execute() returns, which oneTBB signals out of TSan's sight.
    const encore::detail::tsan_release_on_exit publish(c);
    run_helped(*c);
}

[[gnu::noinline]] void ready_task::operator()() const {
    task_list* l = list;
    const std::uint32_t* f = first;
    const std::uint32_t c = count, g = grain;
    ENCORE_TSAN_ACQUIRE(f);
    run_ready(*l, f, c, g);
}

[[gnu::noinline]] void range_chunk::operator()(const tbb::blocked_range<std::size_t>& chunk) const {
    const launch_shape* s = shape;
    const std::size_t b = chunk.begin(), e = chunk.end();
    ENCORE_TSAN_ACQUIRE(s);
    const encore::detail::tsan_release_on_exit publish(s);
    run_range_chunk(*s, b, e);
}

[[gnu::noinline]] void group_chunk::operator()(const tbb::blocked_range<std::size_t>& chunk) const {
    const launch_shape* s = shape;
    const std::size_t b = chunk.begin(), e = chunk.end();
    ENCORE_TSAN_ACQUIRE(s);
    const encore::detail::tsan_release_on_exit publish(s);
    run_group_chunk(*s, b, e);
}

} // namespace encore::native::detail
