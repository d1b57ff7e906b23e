// Encore's partitioning: group device nodes by the set of host tasks they depend on.
//
// A device partition starts only when every host task any of its nodes depends on has finished. So a node waits
// for no host task it does not depend on exactly when all nodes of its partition depend on the same host tasks;
// grouping by that set is the coarsest partitioning without false waits. Edges only ever lead to equal or larger
// sets (and strictly larger across a host task), so the partitions form a DAG.
//
// The set is kept in canonical form: its maximal elements (the host tasks not already implied by another one in
// the set), interned in a hash table so a node's key is one integer. One pass in topological order: O(V+E) plus,
// where several keys meet at a node, O(k^2) bit tests over the k host tasks that meet there. Host-task ancestry
// bitsets take H^2/8 bytes; above `max_exact_host_tasks` host tasks the keys stay unpruned (the nearest host
// tasks on every path), which keeps the no-false-wait guarantee and may split a few partitions that could merge.
#include <algorithm>
#include <limits>
#include <unordered_map>

#include <boost/container_hash/hash.hpp>

#include "partition.hpp"

namespace encore::detail {

namespace {

constexpr std::uint32_t max_exact_host_tasks = 16384; // 32 MiB of ancestry bits at most
constexpr auto none = std::numeric_limits<std::uint32_t>::max();

struct key_hash {
    std::size_t operator()(const std::vector<std::uint32_t>& key) const noexcept {
        return boost::hash_range(key.begin(), key.end());
    }
};

class ancestry_keys {
public:
    explicit ancestry_keys(std::uint32_t host_tasks)
        : exact_(host_tasks <= max_exact_host_tasks), words_((host_tasks + 63) / 64) {
        if (exact_) ancestor_bits_.resize(std::size_t(host_tasks) * words_);
        intern({}); // key 0: depends on no host task
    }

    std::uint32_t intern(const std::vector<std::uint32_t>& elements) {
        auto it = ids_.find(elements);
        if (it != ids_.end()) return it->second;
        auto id = static_cast<std::uint32_t>(keys_.size());
        keys_.push_back(elements);
        ids_.emplace(elements, id);
        return id;
    }
    const std::vector<std::uint32_t>& elements(std::uint32_t key) const { return keys_[key]; }
    std::uint32_t count() const { return static_cast<std::uint32_t>(keys_.size()); }

    // Drops every host task that is an ancestor of another one in the (sorted, unique) set.
    void keep_maximal(std::vector<std::uint32_t>& set) const {
        if (!exact_ || set.size() < 2) return;
        std::erase_if(set, [&](std::uint32_t x) {
            return std::any_of(set.begin(), set.end(), [&](std::uint32_t y) { return y != x && is_ancestor(x, y); });
        });
    }
    // Records host task h's ancestors: the elements of its key and their ancestors.
    void record_host_task(std::uint32_t h, const std::vector<std::uint32_t>& key_elements) {
        if (!exact_) return;
        std::uint64_t* bits = &ancestor_bits_[std::size_t(h) * words_];
        for (auto e : key_elements) {
            const std::uint64_t* inherited = &ancestor_bits_[std::size_t(e) * words_];
            for (std::size_t w = 0; w < words_; ++w) bits[w] |= inherited[w];
            bits[e / 64] |= std::uint64_t(1) << (e % 64);
        }
    }

private:
    bool is_ancestor(std::uint32_t x, std::uint32_t y) const {
        return (ancestor_bits_[std::size_t(y) * words_ + x / 64] >> (x % 64)) & 1;
    }

    bool exact_;
    std::size_t words_;
    std::vector<std::uint64_t> ancestor_bits_;
    std::vector<std::vector<std::uint32_t>> keys_;
    std::unordered_map<std::vector<std::uint32_t>, std::uint32_t, key_hash> ids_;
};

} // namespace

std::vector<std::uint32_t> group_by_host_task_ancestry(const graph& g, std::span<const std::uint32_t> order) {
    const graph::storage& s = g.boost_graph();
    std::vector<std::uint32_t> host_task_number(g.size(), none);
    std::uint32_t host_tasks = 0;
    for (auto v : order)
        if (is_host_task(s, v)) host_task_number[v] = host_tasks++;

    ancestry_keys keys(host_tasks);
    std::vector<std::uint32_t> key(g.size(), 0); // for a host task: the key of what it depends on
    std::vector<std::uint32_t> scratch;
    for (auto v : order) {
        // Fast path: every predecessor is a device node with one and the same key.
        std::uint32_t shared = none;
        bool uniform = true;
        for (auto u : boost::make_iterator_range(boost::inv_adjacent_vertices(v, s))) {
            if (host_task_number[u] != none || (shared != none && key[u] != shared)) {
                uniform = false;
                break;
            }
            shared = key[u];
        }
        if (uniform) {
            key[v] = shared == none ? 0 : shared;
        } else {
            scratch.clear();
            for (auto u : boost::make_iterator_range(boost::inv_adjacent_vertices(v, s))) {
                if (host_task_number[u] != none) {
                    scratch.push_back(host_task_number[u]);
                } else {
                    const auto& inherited = keys.elements(key[u]);
                    scratch.insert(scratch.end(), inherited.begin(), inherited.end());
                }
            }
            std::sort(scratch.begin(), scratch.end());
            scratch.erase(std::unique(scratch.begin(), scratch.end()), scratch.end());
            keys.keep_maximal(scratch);
            key[v] = keys.intern(scratch);
        }
        if (host_task_number[v] != none) keys.record_host_task(host_task_number[v], keys.elements(key[v]));
    }

    // Device nodes are labelled by key; each host task gets a label of its own after all keys.
    std::vector<std::uint32_t> group(g.size());
    for (std::uint32_t v = 0; v < g.size(); ++v)
        group[v] = host_task_number[v] == none ? key[v] : keys.count() + host_task_number[v];
    return group;
}

} // namespace encore::detail
