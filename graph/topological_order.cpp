#include "topological_order.hpp"

#include <algorithm>
#include <string>

#include "error.hpp"

namespace encore {

namespace {


[[noreturn]] void throw_cycle(const graph& g, std::vector<std::uint32_t> cycle) {
    std::string text;
    for (auto v : cycle) text += g.describe(v) + " -> ";
    throw error(errc::cycle, "the graph holds the cycle " + text + g.describe(cycle.front()));
}

// Iterative depth-first search (a 1M-node chain must not overflow the call stack). A back edge to a node still on
// the stack is a cycle; the stack then holds it.
std::vector<std::uint32_t> reverse_depth_first(const graph& g, const compact_adjacency& a) {
    const auto n = a.size();
    enum : std::uint8_t { white, grey, black };
    std::vector<std::uint8_t> colour(n, white);
    std::vector<std::uint32_t> post_order;
    post_order.reserve(n);
    struct frame {
        std::uint32_t vertex;
        const std::uint32_t *next, *end;
    };
    std::vector<frame> stack;
    for (std::uint32_t root = 0; root < n; ++root) {
        if (colour[root] != white) continue;
        auto out = a.successors(root);
        stack.push_back({root, out.data(), out.data() + out.size()});
        colour[root] = grey;
        while (!stack.empty()) {
            frame& top = stack.back();
            if (top.next == top.end) {
                colour[top.vertex] = black;
                post_order.push_back(top.vertex);
                stack.pop_back();
                continue;
            }
            auto w = *top.next++;
            if (colour[w] == white) {
                colour[w] = grey;
                auto out = a.successors(w);
                stack.push_back({w, out.data(), out.data() + out.size()});
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
std::vector<std::uint32_t> breadth_first(const graph& g, const compact_adjacency& a) {
    const auto n = a.size();
    std::vector<std::uint32_t> waiting(n);
    std::vector<std::uint32_t> order;
    order.reserve(n);
    for (std::uint32_t v = 0; v < n; ++v)
        if ((waiting[v] = static_cast<std::uint32_t>(a.predecessors(v).size())) == 0) order.push_back(v);
    for (std::size_t head = 0; head < order.size(); ++head)
        for (auto w : a.successors(order[head]))
            if (--waiting[w] == 0) order.push_back(w);
    if (order.size() != n) return reverse_depth_first(g, a); // it throws, naming a cycle
    return order;
}

} // namespace

std::vector<std::uint32_t> topological_order(const graph& g, const compact_adjacency& adjacency,
                                             order_strategy strategy) {
    if (adjacency.size() != g.size())
        throw error(errc::invalid_argument, "the compact adjacency was built for another graph");
    return strategy == order_strategy::breadth_first ? breadth_first(g, adjacency) : reverse_depth_first(g, adjacency);
}

std::vector<std::uint32_t> topological_order(const graph& g, order_strategy strategy) {
    return topological_order(g, compact_adjacency(g), strategy);
}

} // namespace encore
