#include "sequence_minimizer.hpp"

#include "fuzz_runner.hpp"

namespace fuzz {

minimized minimize(std::vector<call> calls, const std::string& signature, std::size_t budget) {
    minimized out;
    auto still_fails = [&](const std::vector<call>& candidate) {
        ++out.candidate_runs;
        const auto r = run_sequence(candidate);
        return r.failed && failure_signature(candidate, r) == signature;
    };
    // Chunks of halving size; after the single-call pass, repeat it while it still removes something
    // (removing one call can make another removable).
    std::size_t chunk = calls.size() / 2;
    while (chunk >= 1 && out.candidate_runs < budget) {
        bool removed_singles = false;
        for (std::size_t start = 0; start < calls.size() && out.candidate_runs < budget;) {
            std::vector<call> candidate(calls.begin(), calls.begin() + static_cast<std::ptrdiff_t>(start));
            const std::size_t end = std::min(calls.size(), start + chunk);
            candidate.insert(candidate.end(), calls.begin() + static_cast<std::ptrdiff_t>(end), calls.end());
            if (still_fails(candidate)) {
                calls = std::move(candidate);
                removed_singles |= chunk == 1;
            } else
                start += chunk;
        }
        if (chunk > 1)
            chunk /= 2;
        else if (!removed_singles)
            break;
    }
    out.calls = std::move(calls);
    return out;
}

} // namespace fuzz
