// Graph shapes for benchmarks, tests and samples: the DAG families engines are compared on.
//
// Each generator adds nodes in index order; `host_task_every = k` makes every k-th node (k-1, 2k-1, ...) a host
// task; `make_command` chooses every other node's command (an empty command by default). random_dag is
// deterministic for a given seed.
//
//     auto g = encore::shapes::random_dag(10'000, {.host_task_every = 100, .seed = 7});
#pragma once

#include <cstdint>
#include <functional>

#include "graph.hpp"

namespace encore::shapes {

struct options {
    std::uint32_t host_task_every = 0;                  // 0: no host tasks
    std::function<command(std::uint32_t)> make_command; // default: empty_command
    std::function<void()> host_task;                    // default: does nothing
    // random_dag only:
    std::uint32_t edges_per_node = 4; // predecessors per node (fewer near the start)
    std::uint32_t window = 1000;      // predecessors are drawn from the previous `window` nodes
    std::uint64_t seed = 1;
    bool check_cycles = false;        // shapes are acyclic by construction
};

graph chain(std::uint32_t nodes, const options& opts = {});
// One root, nodes - 2 independent middle nodes, one sink.
graph fan_out_in(std::uint32_t nodes, const options& opts = {});
graph random_dag(std::uint32_t nodes, const options& opts = {});
// A width x height grid; cell (i, j) depends on (i-1, j) and (i, j-1).
graph wavefront(std::uint32_t width, std::uint32_t height, const options& opts = {});

} // namespace encore::shapes
