// Runs the API fuzzer: one sequence per seed, each from a fresh session (new queues, arrays, graphs),
// generated call by call while it runs; on a failure the sequence is cut down (sequence_minimizer.hpp) and
// the shortest one that still fails is printed with what the model expected of each call.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fuzz_call.hpp"

namespace fuzz {

struct fuzz_statistics {
    std::uint64_t sequences = 0;
    std::uint64_t calls = 0;    // calls made (not skipped)
    std::uint64_t invalid = 0;  // of which misuses that threw as specified
    std::uint64_t recorded = 0; // submissions recorded into graphs
    std::uint64_t eager = 0;    // eager submissions
    std::uint64_t launches = 0; // executable graphs submitted (eager replays)
    std::uint64_t skipped = 0;
    std::uint64_t arrays_compared = 0; // array read-backs compared with the model
    std::uint64_t arrays_unknown = 0;  // not compared: the sequence made a race on the array
};

// The result of running a fixed sequence from scratch.
struct sequence_result {
    bool failed = false;
    std::size_t failing_call = 0; // == calls.size(): the final checks (finish) failed
    std::string message;
    std::vector<std::string> outcomes; // per call: what the model expected ("ok", "invalid", "skipped", ...)
};
sequence_result run_sequence(const std::vector<call>& calls);

// What makes two failures "the same" for the minimizer: the kind of the failing call and the message without
// numbers (so "A2[5] is 7" and "A1[0] is 9" match).
std::string failure_signature(const std::vector<call>& calls, const sequence_result& r);

// Generates and runs `length` calls from `seed`; returns the printed report of a failure, with the shortest
// failing sequence found.
std::optional<std::string> fuzz_seed(std::uint64_t seed, std::size_t length, fuzz_statistics& statistics,
                                     bool verbose = false);

// Aborts the process with the seed and the call in progress when no call completes for `seconds` (a hang).
void start_watchdog(int seconds);

} // namespace fuzz
