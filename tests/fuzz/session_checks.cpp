// The fuzz session's checks: graph structure and queue states against the model (after every call), array
// contents against the model's computation, and async errors against the tags the model expects per queue.
#include <algorithm>
#include <sstream>

#include "fuzz_session.hpp"

namespace fuzz {
void session::check_structure() const {
    for (int s = 0; s < graph_slots; ++s) {
        const auto& g = graphs_[s];
        if (!g.graph) continue;
        const auto name = "g" + std::to_string(s);
        const auto nodes = g.graph->get_nodes();
        if (nodes.size() != g.model.nodes.size())
            throw check_failure(name + ".get_nodes(): " + std::to_string(nodes.size()) +
                                " nodes, the model has " + std::to_string(g.model.nodes.size()));
        std::vector<std::set<int>> successors(nodes.size());
        std::size_t roots = 0;
        for (std::size_t v = 0; v < nodes.size(); ++v) {
            if (!(nodes[v] == g.nodes[v]))
                throw check_failure(name + ".get_nodes()[" + std::to_string(v) +
                                    "] is not the node add returned");
            for (int p : g.model.nodes[v].predecessors)
                successors[p].insert(static_cast<int>(v));
            roots += g.model.nodes[v].predecessors.empty();
        }
        for (std::size_t v = 0; v < nodes.size(); ++v) {
            std::set<int> actual;
            for (const auto& n : nodes[v].get_successors()) {
                auto it = std::find(g.nodes.begin(), g.nodes.end(), n);
                if (it == g.nodes.end())
                    throw check_failure(name + ".n[" + std::to_string(v) +
                                        "] has a successor of another graph");
                actual.insert(static_cast<int>(it - g.nodes.begin()));
            }
            if (actual != successors[v]) {
                std::ostringstream text;
                text << name << ".n[" << v << "].get_successors(): {";
                for (int a : actual)
                    text << ' ' << a;
                text << " }, the model has {";
                for (int a : successors[v])
                    text << ' ' << a;
                text << " }";
                throw check_failure(text.str());
            }
            const auto kind = g.model.nodes[v].spec.kind;
            const auto expected = kind == command_kind::fill   ? sx::node_type::memfill
                                  : kind == command_kind::copy ? sx::node_type::memcpy
                                  : is_kernel(kind)            ? sx::node_type::kernel
                                  : kind == command_kind::host_mix || kind == command_kind::host_throw
                                      ? sx::node_type::host_task
                                  : kind == command_kind::subgraph ? sx::node_type::subgraph
                                                                   : sx::node_type::empty;
            if (nodes[v].get_type() != expected)
                throw check_failure(name + ".n[" + std::to_string(v) + "].get_type() is not " +
                                    to_string(kind));
        }
        if (g.graph->get_root_nodes().size() != roots)
            throw check_failure(name + ".get_root_nodes(): not the model's " + std::to_string(roots) +
                                " roots");
        if (g.graph->empty() != g.model.nodes.empty()) throw check_failure(name + ".empty() is wrong");
    }
    for (int q = 0; q < queue_count; ++q) {
        const int recording = queue_recording(q);
        const auto state = queues_[q].ext_oneapi_get_state();
        const auto name = "q" + std::to_string(q);
        if ((state == sx::queue_state::recording) != (recording >= 0))
            throw check_failure(name + ".ext_oneapi_get_state() is " +
                                (state == sx::queue_state::recording ? "recording" : "executing") +
                                "; the model has it " +
                                (recording >= 0 ? "recording g" + std::to_string(recording) : "executing"));
        if (recording >= 0 && !(queues_[q].ext_oneapi_get_graph() == *graphs_[recording].graph))
            throw check_failure(name + ".ext_oneapi_get_graph() is not g" + std::to_string(recording));
    }
}

void session::check_arrays(bool all) {
    for (int s = 0; s < array_slots; ++s) {
        const auto id = arrays_[s].id;
        if (id < 0) continue;
        if (!memory_.at(id).known) {
            ++arrays_unknown_;
            continue;
        }
        const bool busy = std::any_of(pending_.begin(), pending_.end(), [&](const pending_work& p) {
            return std::find(p.reads.begin(), p.reads.end(), id) != p.reads.end() ||
                   std::find(p.writes.begin(), p.writes.end(), id) != p.writes.end();
        });
        if (busy && !all) continue;
        std::vector<std::uint32_t> actual(array_length);
        expect_ok("read back", [&] {
            check_queue_->memcpy(actual.data(), arrays_[s].pointer, array_length * sizeof(std::uint32_t))
                .wait();
        });
        ++arrays_compared_;
        const auto& expected = memory_.at(id).data;
        for (std::uint32_t i = 0; i < array_length; ++i)
            if (actual[i] != expected[i])
                throw check_failure("A" + std::to_string(s) + "[" + std::to_string(i) + "] is " +
                                    std::to_string(actual[i]) + "; the model computes " +
                                    std::to_string(expected[i]));
    }
}

void session::check_errors(int queue) {
    std::lock_guard lock(errors_mutex_);
    if (!strange_errors_.empty())
        throw check_failure("an async error that no command of the sequence throws: " +
                            strange_errors_.front());
    if (received_[queue] != expected_[queue]) {
        std::ostringstream text;
        text << "q" << queue << "'s async handler received tags {";
        for (int t : received_[queue])
            text << ' ' << t;
        text << " }; the model expects {";
        for (int t : expected_[queue])
            text << ' ' << t;
        text << " } (each once per run of its command)";
        throw check_failure(text.str());
    }
    received_[queue].clear();
    expected_[queue].clear();
}

void session::wait_pending(const std::function<bool(const pending_work&)>& which) {
    std::vector<pending_work> left;
    for (auto& p : pending_) {
        if (which(p))
            expect_ok("event::wait", [&] { p.event.wait(); });
        else
            left.push_back(std::move(p));
    }
    pending_ = std::move(left);
}

} // namespace fuzz
