// Queue properties (DPC++'s <sycl/properties/queue_properties.hpp>): SYCL 2020's in_order and enable_profiling
// (sycl/property_list.hpp), and the vendor properties DPC++ programs commonly pass to queues. Encore accepts
// each of these; those listed as no-ops change nothing here, and docs/sycl-frontend.md says why for each.
//
//     sycl::queue q{sycl::property_list{sycl::property::queue::in_order{},
//                                       sycl::ext::intel::property::queue::no_immediate_command_list{}}};
#pragma once

#include "sycl/property_list.hpp"

namespace sycl {
inline namespace _V1 {

namespace ext::oneapi::property::queue {
// No-op: events of such a queue stay valid and can be waited on (a superset of what the property allows).
struct discard_events {};
// No-ops: Encore's backends run every queue at one priority.
struct priority_normal {};
struct priority_low {};
struct priority_high {};
} // namespace ext::oneapi::property::queue

namespace ext::intel::property::queue {
// No-ops: Level Zero command-list and submission-mode choices; Encore's backends choose their own.
struct no_immediate_command_list {};
struct immediate_command_list {};
struct no_immediate_submission {};
struct immediate_submission {};
// No-op: a Level Zero compute engine index; Encore keeps the index (get_index()) and submits as usual.
class compute_index {
public:
    explicit compute_index(int index) : index_(index) {}
    int get_index() const noexcept { return index_; }

private:
    int index_;
};
} // namespace ext::intel::property::queue

namespace ext::oneapi::cuda::property::queue {
// No-op: Encore's CUDA queues are streams of their own (never the legacy default stream).
struct use_default_stream {};
} // namespace ext::oneapi::cuda::property::queue

namespace property::queue::cuda {
// DPC++'s deprecated name of ext::oneapi::cuda::property::queue::use_default_stream.
using use_default_stream = ext::oneapi::cuda::property::queue::use_default_stream;
} // namespace property::queue::cuda

template <> struct is_property<ext::oneapi::property::queue::discard_events> : std::true_type {};
template <> struct is_property<ext::oneapi::property::queue::priority_normal> : std::true_type {};
template <> struct is_property<ext::oneapi::property::queue::priority_low> : std::true_type {};
template <> struct is_property<ext::oneapi::property::queue::priority_high> : std::true_type {};
template <> struct is_property<ext::intel::property::queue::no_immediate_command_list> : std::true_type {};
template <> struct is_property<ext::intel::property::queue::immediate_command_list> : std::true_type {};
template <> struct is_property<ext::intel::property::queue::no_immediate_submission> : std::true_type {};
template <> struct is_property<ext::intel::property::queue::immediate_submission> : std::true_type {};
template <> struct is_property<ext::intel::property::queue::compute_index> : std::true_type {};
template <> struct is_property<ext::oneapi::cuda::property::queue::use_default_stream> : std::true_type {};

} // namespace _V1
} // namespace sycl
