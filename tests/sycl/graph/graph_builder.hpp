// One test body, two ways of building a graph: explicitly (command_graph::add with depends_on) or by recording a
// queue (submissions with depends_on on the events returned while recording).
#pragma once

#include <sycl/sycl.hpp>

#include <string>
#include <vector>

namespace sycl_ext = sycl::ext::oneapi::experimental;

enum class build_style { explicit_api, record };

inline std::string to_string(build_style s) { return s == build_style::explicit_api ? "explicit" : "record"; }

// What a step of a scenario returns: the node, and (when recording) the event it can be depended on through.
struct step {
    sycl_ext::node node;
    sycl::event event;
};

class graph_builder {
public:
    graph_builder(build_style style, sycl::queue& q, const sycl::property_list& properties = {})
        : style_(style), queue_(q), graph_(q.get_context(), q.get_device(), properties) {
        if (style_ == build_style::record) graph_.begin_recording(queue_);
    }

    template <typename F> step add(F&& cgf, const std::vector<step>& after = {}) {
        if (style_ == build_style::explicit_api) {
            std::vector<sycl_ext::node> nodes;
            for (const auto& s : after) nodes.push_back(s.node);
            auto n = add_with(std::forward<F>(cgf), nodes);
            return {n, sycl::event{}};
        }
        std::vector<sycl::event> events;
        for (const auto& s : after) events.push_back(s.event);
        auto e = queue_.submit([&](sycl::handler& h) {
            h.depends_on(events);
            cgf(h);
        });
        return {sycl_ext::node::get_node_from_event(e), e};
    }

    // Ends the recording (if any) and returns the modifiable graph.
    sycl_ext::command_graph<sycl_ext::graph_state::modifiable>& done() {
        if (style_ == build_style::record) graph_.end_recording();
        return graph_;
    }
    sycl_ext::command_graph<sycl_ext::graph_state::modifiable>& graph() { return graph_; }

private:
    template <typename F> sycl_ext::node add_with(F&& cgf, const std::vector<sycl_ext::node>& nodes) {
        switch (nodes.size()) { // property::node::depends_on takes the nodes as arguments
        case 0: return graph_.add(std::forward<F>(cgf));
        case 1: return graph_.add(std::forward<F>(cgf), {sycl_ext::property::node::depends_on(nodes[0])});
        default: {
            auto n = graph_.add(std::forward<F>(cgf), {sycl_ext::property::node::depends_on(nodes[0])});
            for (std::size_t i = 1; i < nodes.size(); ++i) {
                auto before = nodes[i];
                graph_.make_edge(before, n);
            }
            return n;
        }
        }
    }

    build_style style_;
    sycl::queue& queue_;
    sycl_ext::command_graph<sycl_ext::graph_state::modifiable> graph_;
};
