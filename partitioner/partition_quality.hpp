// Checks and measures of a partitioning, for tests and bench/partition_quality.
//
// check_partition_rules() verifies every rule listed in partition.hpp and throws std::logic_error naming the
// first one broken (O(V+E)). count_false_waits() counts the (node, host task) pairs where the node's partition
// waits, directly or through other partitions, for a host task the node does not depend on: the concurrency a
// partitioning gives away. It keeps a bitset of host tasks per node and partition, O((V+P)·H/64).
//
//     encore::check_partition_rules(g, parts);
//     std::printf("%llu false waits\n", (unsigned long long)encore::count_false_waits(g, parts));
#pragma once

#include <cstdint>

#include "partition.hpp"

namespace encore {

void check_partition_rules(const graph& g, const partitioning& parts);
std::uint64_t count_false_waits(const graph& g, const partitioning& parts);

} // namespace encore
