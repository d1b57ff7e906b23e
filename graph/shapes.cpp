#include "shapes.hpp"

#include <algorithm>
#include <random>

#include "error.hpp"

namespace encore::shapes {

namespace {
class builder {
public:
    explicit builder(const options& opts) : opts_(opts), g_(graph_options{.check_cycles = opts.check_cycles}) {}

    node add(std::span<const node> dependencies) {
        auto index = static_cast<std::uint32_t>(g_.size());
        return g_.add(next_command(index), dependencies);
    }
    void reserve(std::size_t nodes) { g_.reserve(nodes); }
    graph take() { return std::move(g_); }

private:
    command next_command(std::uint32_t index) const {
        if (opts_.host_task_every && index % opts_.host_task_every == opts_.host_task_every - 1)
            return host_task_command{opts_.host_task ? opts_.host_task : [] {}};
        if (opts_.make_command) return opts_.make_command(index);
        return empty_command{};
    }

    const options& opts_;
    graph g_;
};

void require_nodes(std::uint32_t nodes, std::uint32_t minimum, const char* shape) {
    if (nodes < minimum)
        throw error(errc::invalid_argument,
                    std::string(shape) + " needs at least " + std::to_string(minimum) + " nodes");
}
} // namespace

graph chain(std::uint32_t nodes, const options& opts) {
    require_nodes(nodes, 1, "chain");
    builder b(opts);
    b.reserve(nodes);
    node previous = b.add({});
    for (std::uint32_t i = 1; i < nodes; ++i) previous = b.add({&previous, 1});
    return b.take();
}

graph fan_out_in(std::uint32_t nodes, const options& opts) {
    require_nodes(nodes, 3, "fan_out_in");
    builder b(opts);
    b.reserve(nodes);
    node root = b.add({});
    std::vector<node> middle;
    middle.reserve(nodes - 2);
    for (std::uint32_t i = 0; i < nodes - 2; ++i) middle.push_back(b.add({&root, 1}));
    b.add(middle);
    return b.take();
}

graph random_dag(std::uint32_t nodes, const options& opts) {
    require_nodes(nodes, 1, "random_dag");
    if (opts.window == 0) throw error(errc::invalid_argument, "random_dag window must be at least 1");
    builder b(opts);
    b.reserve(nodes);
    std::mt19937_64 random(opts.seed);
    std::vector<node> all;
    all.reserve(nodes);
    std::vector<node> predecessors;
    for (std::uint32_t i = 0; i < nodes; ++i) {
        predecessors.clear();
        std::uint32_t lowest = i > opts.window ? i - opts.window : 0;
        std::uint32_t wanted = std::min(opts.edges_per_node, i - lowest);
        while (predecessors.size() < wanted) {
            node p = all[std::uniform_int_distribution<std::uint32_t>(lowest, i - 1)(random)];
            if (std::find(predecessors.begin(), predecessors.end(), p) == predecessors.end()) predecessors.push_back(p);
        }
        all.push_back(b.add(predecessors));
    }
    return b.take();
}

graph wavefront(std::uint32_t width, std::uint32_t height, const options& opts) {
    if (width == 0 || height == 0) throw error(errc::invalid_argument, "wavefront needs a non-empty grid");
    builder b(opts);
    b.reserve(std::size_t(width) * height);
    std::vector<node> row(width), above(width);
    for (std::uint32_t j = 0; j < height; ++j) {
        for (std::uint32_t i = 0; i < width; ++i) {
            std::vector<node> deps;
            if (j > 0) deps.push_back(above[i]);
            if (i > 0) deps.push_back(row[i - 1]);
            row[i] = b.add(deps);
        }
        std::swap(row, above);
    }
    return b.take();
}

} // namespace encore::shapes
