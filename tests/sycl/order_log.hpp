// Proving what ran after what without timing assertions: host tasks append a tag to an order_log, and a nap()
// before the first one gives a wrongly unordered second one the chance to overtake it.
#pragma once

#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

struct order_log {
    std::mutex mutex;
    std::vector<int> order;
    void add(int tag) {
        std::lock_guard lock(mutex);
        order.push_back(tag);
    }
};

inline void nap() { std::this_thread::sleep_for(std::chrono::milliseconds(30)); }
