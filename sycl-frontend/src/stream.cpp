// sycl::stream's construction (sycl/stream.hpp): the checks; kernels format and write the text themselves.
#include "sycl/stream.hpp"

#include <atomic>
#include <string>

#include "sycl/exception.hpp"
#include "sycl/handler.hpp"

namespace sycl {
inline namespace _V1 {

stream::stream(std::size_t totalBufferSize, std::size_t workItemBufferSize, handler& cgh, const property_list&)
    : total_(totalBufferSize), item_(workItemBufferSize) {
    if (totalBufferSize == 0 || workItemBufferSize == 0)
        throw exception(errc::invalid, "sycl::stream: a buffer size of 0");
    if (workItemBufferSize > totalBufferSize)
        throw exception(errc::invalid, "sycl::stream: the work-item buffer size (" + std::to_string(workItemBufferSize) +
                                           ") exceeds the total buffer size (" + std::to_string(totalBufferSize) + ")");
    if (cgh.ext_encore_in_graph())
        throw exception(errc::invalid, "sycl::stream: in a command group of a graph (sycl_ext_oneapi_graph allows no "
                                       "stream in a graph); write from an eager command group");
    static std::atomic<std::uint64_t> next{1};
    id_ = next.fetch_add(1, std::memory_order_relaxed);
}

} // namespace _V1
} // namespace sycl
