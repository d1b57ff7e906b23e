// encore::native_recording — commands captured by a device's backend itself, into its native graph form
// (sycl_ext_oneapi_graph's property::graph::enable_native_recording; on CUDA a stream capture).
//
// Where an encore::graph keeps plain commands and lowers them at finalize, a native recording hands each
// command to the driver as it comes, and the driver builds its graph. The result is one native_graph_command:
// a node of an encore::graph that only the capturing backend can run (as a child graph of the partition it
// falls in). Captured commands cannot be updated one by one; the node as a whole can be replaced by another
// capture.
//
// What can be captured: kernels, memcpy, memset, fill, prefetch and mem_advise (both kept as no work, as in a
// lowered graph), barriers and empty commands. Host tasks, subgraphs and copies between buffers are refused
// (encore::error(feature_not_supported)): they need the runtime, which a driver graph replays without.
//
//     encore::native_recording r(gpu);                       // feature_not_supported where the backend has
//     none auto a = r.capture(encore::memset_command{p, 0, n}); auto b = r.capture(kernel, std::array{a});
//     encore::graph g;
//     g.add(r.end());                                        // one node
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "encore/runtime/device.hpp"
#include "encore/graph/command.hpp"

namespace encore {

class native_recording {
public:
    // Starts capturing on `d`. Throws error(feature_not_supported) when its backend cannot (its
    // device_properties::native_recording is false).
    explicit native_recording(const device& d);
    ~native_recording(); // a recording not ended is dropped with what it captured
    native_recording(const native_recording&) = delete;
    native_recording& operator=(const native_recording&) = delete;

    const device& get_device() const noexcept { return device_; }

    // Captures `c` after the captured commands `after` (numbers this object returned); returns the number of
    // `c`. Throws error(invalid_argument) for an invalid command or a number not returned yet, and
    // error(feature_not_supported) for what cannot be captured. A refused command leaves the recording as it
    // was.
    std::uint32_t capture(command c, std::span<const std::uint32_t> after = {});
    std::uint32_t size() const noexcept { return count_; }
    // Ends the recording: the captured work as one command (invalid_argument when called twice).
    native_graph_command end();

private:
    device device_;
    std::unique_ptr<backend_recording> backend_;
    std::uint32_t count_ = 0;
};

} // namespace encore
