// A Boost.Graph container selector for a node's in- and out-edge lists: a vector that keeps its first few edges
// inside the node (boost::container::small_vector). Not for you: graph/graph.hpp uses it.
//
// Boost's default (vecS) gives every node two heap vectors, so a node with four predecessors costs several
// allocations and every walk over the edges jumps around the heap. Most command-graph nodes have a handful of
// edges; kept inline, adding a node allocates nothing for them and reading them reads the node. A node with more
// edges spills to the heap like a std::vector. Selectors are customised this way by specialising
// boost::container_gen and boost::parallel_edge_traits ("Customizing the Adjacency List Storage" in the BGL docs).
#pragma once

#include <cstddef>

#include <boost/container/small_vector.hpp>
#include <boost/graph/adjacency_list.hpp>

namespace encore::detail {
inline constexpr std::size_t inline_edges = 4;
struct small_edge_listS {};
} // namespace encore::detail

namespace boost {
template <class Edge> struct container_gen<encore::detail::small_edge_listS, Edge> {
    using type = boost::container::small_vector<Edge, encore::detail::inline_edges>;
};
template <> struct parallel_edge_traits<encore::detail::small_edge_listS> {
    using type = allow_parallel_edge_tag; // make_edge itself refuses duplicates, with a better message
};
} // namespace boost

// Boost's generic container helpers (push, erase) find a container's category by argument-dependent lookup.
namespace boost::container {
template <class T, std::size_t N, class A, class O>
boost::graph_detail::vector_tag container_category(const small_vector<T, N, A, O>&) {
    return {};
}
template <class T, std::size_t N, class A, class O>
boost::graph_detail::unstable_tag iterator_stability(const small_vector<T, N, A, O>&) {
    return {};
}
} // namespace boost::container
