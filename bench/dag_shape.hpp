// The DAG shapes the driver benchmarks (cuda_replay, opencl_replay) build by hand and through Encore alike, and
// their clock. A shape is each node's predecessors, nodes numbered in a topological order.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace bench {

inline double now_ns() {
    return static_cast<double>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
}

struct shape {
    std::string name;
    std::vector<std::vector<int>> predecessors;
};

// n nodes, each after the one before.
inline shape chain(int n) {
    shape s{"chain", {}};
    for (int i = 0; i < n; ++i)
        s.predecessors.push_back(i == 0 ? std::vector<int>{} : std::vector<int>{i - 1});
    return s;
}

// A root, `width` independent nodes after it, and a join after all of them.
inline shape fan_out_in(int width) {
    shape s{"fan_out_in", {{}}};
    std::vector<int> middle;
    for (int i = 0; i < width; ++i) {
        s.predecessors.push_back({0});
        middle.push_back(i + 1);
    }
    s.predecessors.push_back(middle);
    return s;
}

} // namespace bench
