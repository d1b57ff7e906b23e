#include "topological_order.hpp"

#include <algorithm>
#include <string>

#include "error.hpp"

namespace encore {

namespace {

using storage = graph::storage;

[[noreturn]] void throw_cycle(const graph& g, std::vector<std::uint32_t> cycle) {
    std::string text;
    for (auto v : cycle) text += g.describe(v) + " -> ";
    throw error(errc::cycle, "the graph holds the cycle " + text + g.describe(cycle.front()));
}

// Iterative depth-first search (a 1M-node chain must not overflow the call stack). A back edge to a node still on
// the stack is a cycle; the stack then holds it.
std::vector<std::uint32_t> reverse_depth_first(const graph& g) {
    const storage& s = g.boost_graph();
    const auto n = static_cast<std::uint32_t>(boost::num_vertices(s));
    enum : std::uint8_t { white, grey, black };
    std::vector<std::uint8_t> colour(n, white);
    std::vector<std::uint32_t> post_order;
    post_order.reserve(n);
    struct frame {
        std::uint32_t vertex;
        storage::out_edge_iterator next, end;
    };
    std::vector<frame> stack;
    for (std::uint32_t root = 0; root < n; ++root) {
        if (colour[root] != white) continue;
        auto [b, e] = boost::out_edges(root, s);
        stack.push_back({root, b, e});
        colour[root] = grey;
        while (!stack.empty()) {
            frame& top = stack.back();
            if (top.next == top.end) {
                colour[top.vertex] = black;
                post_order.push_back(top.vertex);
                stack.pop_back();
                continue;
            }
            auto w = static_cast<std::uint32_t>(boost::target(*top.next++, s));
            if (colour[w] == white) {
                colour[w] = grey;
                auto [wb, we] = boost::out_edges(w, s);
                stack.push_back({w, wb, we});
            } else if (colour[w] == grey) {
                std::vector<std::uint32_t> cycle;
                auto it = std::find_if(stack.begin(), stack.end(), [&](const frame& f) { return f.vertex == w; });
                for (; it != stack.end(); ++it) cycle.push_back(it->vertex);
                throw_cycle(g, std::move(cycle));
            }
        }
    }
    std::reverse(post_order.begin(), post_order.end());
    return post_order;
}

// Kahn's algorithm; the vector doubles as the FIFO queue.
std::vector<std::uint32_t> breadth_first(const graph& g) {
    const storage& s = g.boost_graph();
    const auto n = static_cast<std::uint32_t>(boost::num_vertices(s));
    std::vector<std::uint32_t> waiting(n);
    std::vector<std::uint32_t> order;
    order.reserve(n);
    for (std::uint32_t v = 0; v < n; ++v)
        if ((waiting[v] = static_cast<std::uint32_t>(boost::in_degree(v, s))) == 0) order.push_back(v);
    for (std::size_t head = 0; head < order.size(); ++head)
        for (auto e : boost::make_iterator_range(boost::out_edges(order[head], s))) {
            auto w = static_cast<std::uint32_t>(boost::target(e, s));
            if (--waiting[w] == 0) order.push_back(w);
        }
    if (order.size() != n) return reverse_depth_first(g); // it throws, naming a cycle
    return order;
}

} // namespace

std::vector<std::uint32_t> topological_order(const graph& g, order_strategy strategy) {
    return strategy == order_strategy::breadth_first ? breadth_first(g) : reverse_depth_first(g);
}

} // namespace encore
