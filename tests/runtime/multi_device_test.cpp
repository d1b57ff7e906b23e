// Multi-device graphs (docs/multi-device.md) on devices of one backend: the counting plugin's, which this test runs
// with two (ENCORE_COUNTING_DEVICES=2 in meson.build), each with queues and lowerings of its own over one native
// device, so that the work really runs and the events between devices really order it. The GPU path (two CUDA
// devices, peer copies) is tests/gpu/gpu_multi_device_test.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "encore/graph/error.hpp"
#include "encore/partitioner/partition_quality.hpp"
#include "encore/runtime/runtime.hpp"

using namespace encore;

namespace {

std::vector<device> counting_devices() {
    std::vector<device> out;
    for (const auto& d : device::all())
        if (d.backend_name() == "counting") out.push_back(d);
    return out;
}

device native_device() {
    for (const auto& d : device::all())
        if (d.backend_name() == "native") return d;
    throw error(errc::backend_failure, "no native device");
}

// A kernel that appends `value` to the log at `data` (one work-item): the order of the log is the order the
// nodes ran in.
std::shared_ptr<const kernel> append(int* log, std::atomic<int>* length, int value) {
    return make_kernel("append_" + std::to_string(value), [=](const work_item&) {
        log[length->fetch_add(1)] = value;
    });
}

template <typename F> void require_throws_with(F&& f, errc code, const std::string& part) {
    try {
        f();
        FAIL("no exception; expected one with '" << part << "'");
    } catch (const error& e) {
        CHECK(e.code() == code);
        CHECK_MESSAGE(std::string(e.what()).find(part) != std::string::npos, e.what());
    }
}

} // namespace

TEST_CASE("the test runs with two devices of one backend") {
    REQUIRE(counting_devices().size() == 2);
    CHECK(!(counting_devices()[0] == counting_devices()[1]));
}

TEST_CASE("graph: device slots of nodes") {
    graph g;
    CHECK(g.device_slots() == 1);
    auto a = g.add(empty_command{});
    auto b = g.add(empty_command{}, {a});
    CHECK(g.device_slot(a) == 0);
    g.set_device_slot(b, 2);
    CHECK(g.device_slot(b) == 2);
    CHECK(g.device_slots() == 3);
    graph copy = g; // a copy keeps the slots
    CHECK(copy.device_slot(copy.node_at(1)) == 2);
    graph other;
    CHECK_THROWS_AS(other.set_device_slot(a, 1), error);     // foreign node
    CHECK_THROWS_AS(g.device_slot(node{g.id(), 7}), error); // unknown node
}

TEST_CASE("the partitioner cuts where an edge goes from one device to another") {
    // a(0) -> b(1) -> c(0), and d(1) independent of them: three partitions on the chain, d joins b's device
    // partition only if nothing orders them apart (it does not: same layer, same latest cut, same slot).
    graph g;
    auto a = g.add(empty_command{});
    auto b = g.add(empty_command{}, {a});
    auto c = g.add(empty_command{}, {b});
    auto d = g.add(empty_command{});
    g.set_device_slot(b, 1);
    g.set_device_slot(d, 1);
    const auto order = topological_order(g);
    const auto parts = partition_graph(g, order);
    check_partition_rules(g, parts);
    CHECK(parts.partition_of[a.index] != parts.partition_of[b.index]);
    CHECK(parts.partition_of[b.index] != parts.partition_of[c.index]);
    CHECK(parts.partition_of[a.index] != parts.partition_of[c.index]); // c waits for b, which waits for a
    CHECK(parts.partitions[parts.partition_of[b.index]].device_slot == 1);
    CHECK(parts.partitions[parts.partition_of[c.index]].device_slot == 0);
    CHECK(parts.partitions[parts.partition_of[d.index]].device_slot == 1);
    // The baseline walk only knows one device.
    require_throws_with([&] { partition_graph(g, order, partition_strategy::design_walk); },
                        errc::feature_not_supported, "design_walk");
}

TEST_CASE("finalize checks the device list") {
    const auto devices = counting_devices();
    graph g;
    auto a = g.add(empty_command{});
    auto b = g.add(empty_command{}, {a});
    g.set_device_slot(b, 1);
    require_throws_with([&] { executable_graph(g, std::vector<device>{}); }, errc::invalid_argument,
                        "no device");
    require_throws_with([&] { executable_graph(g, devices[0]); }, errc::invalid_argument, "device slot 1");
    require_throws_with([&] { executable_graph(g, std::vector<device>{devices[0], native_device()}); },
                        errc::invalid_argument, "one backend");
    executable_graph exec(g, devices);
    CHECK(exec.devices() == devices);
    CHECK(exec.get_device() == devices[0]);
    CHECK(exec.partitions().partitions.size() == 2);
}

TEST_CASE("a graph over two devices runs each node on its device, in the graph's order, launched from either") {
    const auto devices = counting_devices();
    REQUIRE(devices.size() == 2);
    int* log = malloc_shared<int>(4096, devices[0]);
    std::atomic<int> length{0};
    // A chain that changes device at every node, and beside it a chain on each device alone; 10 rounds.
    graph g;
    std::vector<node> chain;
    std::vector<int> expected_chain;
    node previous_alone[2];
    for (int round = 0; round < 10; ++round) {
        const int value = 100 + round;
        chain.push_back(chain.empty() ? g.add(kernel_command{append(log, &length, value), {}, range(1)})
                                      : g.add(kernel_command{append(log, &length, value), {}, range(1)},
                                              {chain.back()}));
        g.set_device_slot(chain.back(), static_cast<std::uint32_t>(round % 2));
        expected_chain.push_back(value);
        for (std::uint32_t slot = 0; slot < 2; ++slot) {
            const int alone = static_cast<int>(1000 * (slot + 1) + round);
            auto n = round == 0 ? g.add(kernel_command{append(log, &length, alone), {}, range(1)})
                                : g.add(kernel_command{append(log, &length, alone), {}, range(1)},
                                        {previous_alone[slot]});
            g.set_device_slot(n, slot);
            previous_alone[slot] = n;
        }
    }
    executable_graph exec(g, devices);
    check_partition_rules(g, exec.partitions());
    std::set<std::uint32_t> slots;
    for (const auto& p : exec.partitions().partitions) slots.insert(p.device_slot);
    CHECK(slots == std::set<std::uint32_t>{0, 1});

    auto positions = [&](int first, int count) {
        std::vector<int> where;
        for (int value = first; value < first + count; ++value)
            where.push_back(static_cast<int>(std::find(log, log + length.load(), value) - log));
        return where;
    };
    for (std::size_t launcher = 0; launcher < 2; ++launcher) {
        CAPTURE(launcher);
        queue q(devices[launcher], {.in_order = true});
        for (int launch = 0; launch < 3; ++launch) {
            length = 0;
            q.launch(exec).wait();
            q.throw_asynchronous();
            REQUIRE(length.load() == 30);
            for (const auto& where : {positions(100, 10), positions(1000, 10), positions(2000, 10)}) {
                CHECK(std::is_sorted(where.begin(), where.end())); // each chain in its order
                CHECK(where.back() < 30);                           // and every node ran
            }
        }
    }
    // A queue of another device (of another backend here) cannot launch it.
    queue elsewhere(native_device());
    require_throws_with([&] { elsewhere.launch(exec); }, errc::invalid_argument, "finalized for");
    free(log, devices[0]);
}

TEST_CASE("launches of a multi-device graph are ordered, and eager work on either device waits for them") {
    const auto devices = counting_devices();
    int* data = malloc_shared<int>(1024, devices[0]);
    std::fill(data, data + 1024, 0);
    // x = 2x + 1 on device 0, then x = x * 3 on device 1: order-sensitive, so a launch that overlapped the
    // previous one, or ran its nodes out of order, gives another number.
    graph g;
    auto twice = g.add(kernel_command{make_kernel("twice_plus_one", [data](const work_item& it) {
                                          data[it.global_id[0]] = 2 * data[it.global_id[0]] + 1;
                                      }),
                                      {}, range(1024)});
    auto thrice = g.add(kernel_command{make_kernel("thrice", [data](const work_item& it) {
                                           // Slow enough that a successor that did not wait would see the old value.
                                           if (it.global_id[0] == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
                                           data[it.global_id[0]] *= 3;
                                       }),
                                       {}, range(1024)},
                        {twice});
    g.set_device_slot(thrice, 1);
    executable_graph exec(g, devices);
    queue q0(devices[0], {.in_order = false}), q1(devices[1], {.in_order = false});
    long long expected = 0;
    event last;
    for (int i = 0; i < 4; ++i) {
        last = (i % 2 ? q1 : q0).launch(exec);
        expected = (2 * expected + 1) * 3;
    }
    // Eager work on device 1 after the last launch.
    q1.parallel_for(range(1024), make_kernel("minus_one", [data](const work_item& it) { data[it.global_id[0]] -= 1; }),
                    {last})
        .wait();
    q0.wait_and_throw();
    q1.wait_and_throw();
    CHECK(data[0] == expected - 1);
    CHECK(data[1023] == expected - 1);
    free(data, devices[0]);
}

TEST_CASE("update keeps every node on its device") {
    const auto devices = counting_devices();
    int* data = malloc_shared<int>(16, devices[0]);
    auto set = [data](int value) {
        return kernel_command{make_kernel("set", [data, value](const work_item& it) { data[it.global_id[0]] = value; }),
                              {}, range(16)};
    };
    graph g;
    auto a = g.add(set(1));
    auto b = g.add(set(2), {a});
    g.set_device_slot(b, 1);
    executable_graph exec(g, devices);
    queue q(devices[1]);
    q.launch(exec).wait();
    CHECK(data[5] == 2);

    exec.update(b, set(7)); // node update: lowered again for device 1
    q.launch(exec).wait();
    CHECK(data[5] == 7);

    graph same = g; // whole-graph update from a graph of the same shape and slots
    same.replace_command(same.node_at(b.index), set(9));
    exec.update(same);
    q.launch(exec).wait();
    CHECK(data[5] == 9);

    graph moved = g; // ... but not one that moves a node to another device
    moved.set_device_slot(moved.node_at(b.index), 0);
    require_throws_with([&] { exec.update(moved); }, errc::invalid_argument, "keeps its device");
    q.launch(exec).wait();
    CHECK(data[5] == 9);
    free(data, devices[0]);
}

TEST_CASE("a single-device subgraph runs on its node's device; a multi-device one keeps its slots") {
    const auto devices = counting_devices();
    int* data = malloc_shared<int>(4, devices[0]);
    std::fill(data, data + 4, 0);
    auto add = [data](int index, int value) {
        return kernel_command{make_kernel("add", [data, index, value](const work_item&) { data[index] += value; }),
                              {}, range(1)};
    };
    auto child = std::make_shared<graph>();
    auto c1 = child->add(add(0, 1));
    child->add(add(1, 10), {c1});
    graph g;
    auto first = g.add(add(2, 100));
    auto sub = g.add(subgraph_command{child}, {first});
    g.set_device_slot(sub, 1);
    executable_graph exec(g, devices);
    // The child's nodes (and the entry and exit nodes around them) are in device-1 partitions: the parent's
    // device-0 node, then one device-1 partition.
    CHECK(exec.partitions().partitions.size() == 2);
    CHECK(exec.partitions().partitions[1].device_slot == 1);
    CHECK(exec.partitions().partitions[1].nodes.size() == 4);
    queue q(devices[0]);
    q.launch(exec).wait();
    CHECK(data[0] == 1);
    CHECK(data[1] == 10);
    CHECK(data[2] == 100);

    auto multi = std::make_shared<graph>(*child);
    multi->set_device_slot(multi->node_at(1), 1); // the child's second node on device 1, its first on device 0
    graph h;
    h.add(subgraph_command{multi});
    executable_graph exec2(h, devices);
    std::set<std::uint32_t> slots;
    for (const auto& p : exec2.partitions().partitions) slots.insert(p.device_slot);
    CHECK(slots == std::set<std::uint32_t>{0, 1});
    q.launch(exec2).wait();
    CHECK(data[0] == 2);
    CHECK(data[1] == 20);
    free(data, devices[0]);
}

TEST_CASE("a graph finalized for one device twice runs its second slot on a queue of its own") {
    // A device may be listed more than once: slot 1's partitions then run on another queue of that device,
    // concurrently with slot 0's where the graph lets them.
    const device d = counting_devices()[0];
    int* data = malloc_shared<int>(2, d);
    data[0] = data[1] = 0;
    graph g;
    auto a = g.add(kernel_command{make_kernel("a", [data](const work_item&) { data[0] = 5; }), {}, range(1)});
    auto b = g.add(kernel_command{make_kernel("b", [data](const work_item&) { data[1] = data[0] + 1; }), {}, range(1)},
                   {a});
    g.set_device_slot(b, 1);
    executable_graph exec(g, std::vector<device>{d, d});
    queue q(d);
    q.launch(exec).wait();
    CHECK(data[1] == 6);
    free(data, d);
}
