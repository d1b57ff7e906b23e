// What every benchmark in bench/ times with: seconds since a steady-clock point, and the median of repeated
// measurements (the upper one of the middle two for an even count, as the tables have always reported; 0 for none).
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

namespace bench {

inline double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

inline double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace bench
