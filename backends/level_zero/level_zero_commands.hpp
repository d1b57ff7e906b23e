// encore::level_zero::append_command — one Encore command as Level Zero commands on a command list: the one
// place that turns kernels, copies, fills and the rest into zeCommandListAppend* calls, for eager queues
// (immediate lists) and graph lowering (regular lists) alike.
//
// Each command signals `signal` when it is done and starts after `waits`. Kernels: arguments and group size
// are set on the device's shared ze_kernel and the launch appended under its lock. Fills whose pattern is not
// a power of two of at most 256 bytes become a copy from a host staging buffer (returned: keep it until the
// command ran). Prefetches and memory advice are hints that the command orders like a barrier over its waits.
//
//     auto staging = append_command(backend, device, list, c, signal_event, waits);
#pragma once

#include <level_zero/ze_api.h>

#include <cstdint>
#include <memory>
#include <span>

#include "encore/graph/command.hpp"

namespace encore::level_zero {

class level_zero_backend;

// Throws errc::feature_not_supported for what Level Zero cannot run here (host tasks, subgraphs and native
// graphs, memory-object kernel arguments, global offsets), errc::kernel_not_supported for kernels without
// Level Zero code.
std::shared_ptr<void> append_command(level_zero_backend& backend, std::uint32_t device,
                                     ze_command_list_handle_t list, const command& c,
                                     ze_event_handle_t signal, std::span<ze_event_handle_t> waits);

} // namespace encore::level_zero
