// Cuts a failing call sequence down to a short one that fails the same way: greedy removal of chunks of calls
// (halves, then quarters, ... then single calls), each candidate replayed from scratch; a removal is kept
// when the candidate still fails with the same signature. A simplified delta debugging (Zeller's ddmin
// without the complement tests): O(n log n) candidate runs for a sequence of n calls in the usual case.
#pragma once

#include <vector>

#include "fuzz_call.hpp"

namespace fuzz {

struct minimized {
    std::vector<call> calls;
    std::size_t candidate_runs = 0;
};

// `signature` is the failure_signature of the full sequence; at most `budget` candidates are run.
minimized minimize(std::vector<call> calls, const std::string& signature, std::size_t budget = 3000);

} // namespace fuzz
