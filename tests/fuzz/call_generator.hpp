// Picks the API fuzzer's next call from a seeded random stream, looking at the session's model so that most
// calls are meaningful (they name objects that exist, their dependencies mostly order the work that
// conflicts) and a share of them are misuses the model knows the answer to (cycles, self and duplicate edges,
// foreign nodes and events, recording conflicts, updates of the wrong kind, freed memory...).
#pragma once

#include <random>

#include "fuzz_session.hpp"

namespace fuzz {

class call_generator {
public:
    explicit call_generator(std::uint64_t seed) : random_(seed) {}
    call next(const session& s);

private:
    int pick(int n) { return n <= 0 ? 0 : static_cast<int>(random_() % static_cast<unsigned>(n)); }
    bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(random_) < p; }
    int live_array(const session& s, int avoid = -1);
    int live_graph(const session& s, int avoid = -1);
    int empty_graph(const session& s);
    int live_exec(const session& s);
    command_spec command(const session& s, int graph, bool eager);
    std::vector<int> conflicting_nodes(const session& s, int graph, const command_spec& c);
    std::vector<int> conflicting_nodes(const session& s, int graph, command_kind kind, alloc_id dst, alloc_id src);
    bool fill(const session& s, call& c); // false: this kind makes no sense now

    std::mt19937_64 random_;
    int next_tag_ = 1;
};

} // namespace fuzz
