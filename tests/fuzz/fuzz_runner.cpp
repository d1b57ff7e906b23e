#include "fuzz_runner.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <thread>

#include "call_generator.hpp"
#include "fuzz_session.hpp"
#include "sequence_minimizer.hpp"

namespace fuzz {

namespace {
// What the watchdog prints if a call never returns.
std::atomic<std::uint64_t> progress{0};
std::mutex current_mutex;
std::string current_call;

void note_call(const std::string& text) {
    std::lock_guard lock(current_mutex);
    current_call = text;
    ++progress;
}

std::string describe_failure(const std::exception& e) {
    return e.what();
}
} // namespace

void start_watchdog(int seconds) {
    static std::once_flag once;
    std::call_once(once, [seconds] {
        std::thread([seconds] {
            std::uint64_t last = progress.load();
            int idle = 0;
            for (;;) {
                std::this_thread::sleep_for(std::chrono::seconds(1));
                const auto now = progress.load();
                idle = now == last ? idle + 1 : 0;
                last = now;
                if (idle >= seconds) {
                    std::lock_guard lock(current_mutex);
                    std::fprintf(stderr,
                                 "fuzz: no call returned for %d s (a hang); the call in progress: %s\n",
                                 seconds, current_call.c_str());
                    std::fflush(stderr);
                    std::abort();
                }
            }
        }).detach();
    });
}

sequence_result run_sequence(const std::vector<call>& calls) {
    sequence_result r;
    try {
        session s;
        for (std::size_t i = 0; i < calls.size(); ++i) {
            note_call("replaying call " + std::to_string(i) + ": " + describe(calls[i]));
            r.failing_call = i;
            r.outcomes.push_back(s.run(calls[i]));
        }
        note_call("replaying: final checks");
        r.failing_call = calls.size();
        s.finish();
    } catch (const check_failure& e) {
        r.failed = true;
        r.message = describe_failure(e);
    } catch (const std::exception& e) {
        r.failed = true;
        r.message = std::string("unexpected exception: ") + e.what();
    }
    return r;
}

std::string failure_signature(const std::vector<call>& calls, const sequence_result& r) {
    std::string text = r.failing_call < calls.size() ? to_string(calls[r.failing_call].kind) : "final checks";
    text += "|";
    for (char ch : r.message)
        if (ch < '0' || ch > '9') text += ch;
    return text;
}

std::optional<std::string> fuzz_seed(std::uint64_t seed, std::size_t length, fuzz_statistics& statistics,
                                     bool verbose) {
    std::vector<call> calls;
    sequence_result first;
    {
        call_generator generator(seed);
        try {
            session s;
            for (std::size_t i = 0; i < length; ++i) {
                calls.push_back(generator.next(s));
                note_call("seed " + std::to_string(seed) + ", call " + std::to_string(i) + ": " +
                          describe(calls.back()));
                first.failing_call = i;
                const auto outcome = s.run(calls.back());
                if (verbose)
                    std::printf("  [%zu] %s  -> %s\n", i, describe(calls.back()).c_str(), outcome.c_str());
                if (outcome == "skipped") {
                    ++statistics.skipped;
                    continue;
                }
                ++statistics.calls;
                statistics.invalid += outcome.starts_with("invalid");
                statistics.recorded += outcome == "ok (recorded)";
                statistics.eager += outcome == "ok (eager)";
                statistics.launches += calls.back().kind == call_kind::launch && outcome == "ok";
            }
            note_call("seed " + std::to_string(seed) + ": final checks");
            first.failing_call = calls.size();
            s.finish();
            statistics.arrays_compared += s.arrays_compared();
            statistics.arrays_unknown += s.arrays_unknown();
        } catch (const check_failure& e) {
            first.failed = true;
            first.message = describe_failure(e);
        } catch (const std::exception& e) {
            first.failed = true;
            first.message = std::string("unexpected exception: ") + e.what();
        }
    }
    ++statistics.sequences;
    if (!first.failed) return std::nullopt;

    std::ostringstream report;
    report << "fuzz: seed " << seed << " failed at "
           << (first.failing_call < calls.size() ? "call " + std::to_string(first.failing_call) + " (" +
                                                       describe(calls[first.failing_call]) + ")"
                                                 : std::string("the final checks"))
           << ":\n  " << first.message << "\n";
    if (first.failing_call < calls.size()) calls.resize(first.failing_call + 1);
    const auto signature = failure_signature(calls, first);
    const auto check = run_sequence(calls);
    if (!check.failed || failure_signature(calls, check) != signature) {
        report << "  replaying the sequence from scratch does not fail the same way (" << check.message
               << "): the failure depends on timing; the generated sequence:\n";
    } else {
        auto shortest = minimize(calls, signature);
        report << "  shortest sequence that fails the same way (" << shortest.calls.size() << " of "
               << calls.size() << " calls, " << shortest.candidate_runs << " candidate runs):\n";
        calls = std::move(shortest.calls);
    }
    const auto last = run_sequence(calls);
    for (std::size_t i = 0; i < calls.size(); ++i) {
        report << "    [" << i << "] " << describe(calls[i]);
        if (i < last.outcomes.size()) report << "    // expected: " << last.outcomes[i];
        if (last.failed && last.failing_call == i) report << "  <-- FAILS: " << last.message;
        report << "\n";
    }
    if (last.failed && last.failing_call == calls.size())
        report << "    final checks  <-- FAIL: " << last.message << "\n";
    report << "  reproduce: ENCORE_BACKENDS=native build/tests/fuzz/fuzz_api_test --seed " << seed
           << " --iterations 1 --calls " << length << "\n";
    return report.str();
}

} // namespace fuzz
