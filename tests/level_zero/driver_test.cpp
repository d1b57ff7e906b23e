// The test driver on its own, through the real loader (and its validation layer, run_validated.sh): it must
// behave like a driver. Work really runs on the queues' threads, events order it across queues, fences and
// host synchronization wait for it, timestamps are real, and misuse answers the specification's error codes.
#include <doctest/doctest.h>
#include <level_zero/ze_api.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "level_zero/driver/driver_counters.h"

namespace {

struct environment {
    ze_driver_handle_t driver = nullptr;
    ze_device_handle_t device = nullptr;
    ze_context_handle_t context = nullptr;
    environment() {
        REQUIRE(zeInit(0) == ZE_RESULT_SUCCESS);
        std::uint32_t count = 1;
        REQUIRE(zeDriverGet(&count, &driver) == ZE_RESULT_SUCCESS);
        count = 1;
        REQUIRE(zeDeviceGet(driver, &count, &device) == ZE_RESULT_SUCCESS);
        ze_context_desc_t desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
        REQUIRE(zeContextCreate(driver, &desc, &context) == ZE_RESULT_SUCCESS);
    }
    ~environment() { zeContextDestroy(context); }

    void* shared(std::size_t bytes) {
        ze_device_mem_alloc_desc_t d{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
        ze_host_mem_alloc_desc_t h{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
        void* p = nullptr;
        REQUIRE(zeMemAllocShared(context, &d, &h, bytes, 64, device, &p) == ZE_RESULT_SUCCESS);
        return p;
    }
    ze_command_queue_handle_t queue() {
        ze_command_queue_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
        desc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
        ze_command_queue_handle_t q = nullptr;
        REQUIRE(zeCommandQueueCreate(context, device, &desc, &q) == ZE_RESULT_SUCCESS);
        return q;
    }
    ze_command_list_handle_t list() {
        ze_command_list_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
        ze_command_list_handle_t l = nullptr;
        REQUIRE(zeCommandListCreate(context, device, &desc, &l) == ZE_RESULT_SUCCESS);
        return l;
    }
    ze_event_pool_handle_t pool(std::uint32_t count, bool timestamps = false) {
        ze_event_pool_desc_t desc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC};
        desc.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE | (timestamps ? ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP : 0);
        desc.count = count;
        ze_event_pool_handle_t p = nullptr;
        REQUIRE(zeEventPoolCreate(context, &desc, 0, nullptr, &p) == ZE_RESULT_SUCCESS);
        return p;
    }
    ze_event_handle_t event(ze_event_pool_handle_t pool, std::uint32_t index) {
        ze_event_desc_t desc{ZE_STRUCTURE_TYPE_EVENT_DESC};
        desc.index = index;
        desc.signal = ZE_EVENT_SCOPE_FLAG_HOST;
        desc.wait = ZE_EVENT_SCOPE_FLAG_HOST;
        ze_event_handle_t e = nullptr;
        REQUIRE(zeEventCreate(pool, &desc, &e) == ZE_RESULT_SUCCESS);
        return e;
    }
};

} // namespace

TEST_CASE("copies and fills run on the queue's thread; a fence and an event say when") {
    environment env;
    auto* a = static_cast<int*>(env.shared(4096));
    auto* b = static_cast<int*>(env.shared(4096));
    auto q = env.queue();
    auto l = env.list();
    auto pool = env.pool(2, true);
    auto done = env.event(pool, 0);
    const int pattern = 0x01020304;
    REQUIRE(zeCommandListAppendMemoryFill(l, a, &pattern, sizeof pattern, 4096, nullptr, 0, nullptr) ==
            ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListAppendBarrier(l, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListAppendMemoryCopy(l, b, a, 4096, done, 0, nullptr) == ZE_RESULT_SUCCESS);
    CHECK(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) ==
          ZE_RESULT_ERROR_INVALID_ARGUMENT); // not closed
    REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
    CHECK(zeCommandListAppendBarrier(l, nullptr, 0, nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT); // closed
    ze_fence_desc_t fdesc{ZE_STRUCTURE_TYPE_FENCE_DESC};
    ze_fence_handle_t fence = nullptr;
    REQUIRE(zeFenceCreate(q, &fdesc, &fence) == ZE_RESULT_SUCCESS);
    CHECK(zeFenceQueryStatus(fence) == ZE_RESULT_NOT_READY);
    REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, fence) == ZE_RESULT_SUCCESS);
    REQUIRE(zeFenceHostSynchronize(fence, UINT64_MAX) == ZE_RESULT_SUCCESS);
    CHECK(zeEventQueryStatus(done) == ZE_RESULT_SUCCESS);
    CHECK(b[1023] == pattern);
    ze_kernel_timestamp_result_t t{};
    REQUIRE(zeEventQueryKernelTimestamp(done, &t) == ZE_RESULT_SUCCESS);
    CHECK(t.global.kernelStart <= t.global.kernelEnd);
    CHECK(zeCommandListReset(l) == ZE_RESULT_SUCCESS);
    zeFenceDestroy(fence);
    zeEventDestroy(done);
    zeEventPoolDestroy(pool);
    zeCommandListDestroy(l);
    zeCommandQueueDestroy(q);
    zeMemFree(env.context, a);
    zeMemFree(env.context, b);
}

TEST_CASE("an event orders work across queues; host signal and host synchronize with a timeout") {
    environment env;
    auto* a = static_cast<int*>(env.shared(64));
    a[0] = 0;
    auto q1 = env.queue(), q2 = env.queue();
    auto l1 = env.list(), l2 = env.list();
    auto pool = env.pool(3);
    auto gate = env.event(pool, 0), first = env.event(pool, 1), second = env.event(pool, 2);
    const int one = 1, two = 2;
    // q2 writes 2 after q1 wrote 1, and q1 writes only once the host opens the gate.
    REQUIRE(zeCommandListAppendMemoryCopy(l1, a, &one, sizeof one, first, 1, &gate) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListAppendMemoryCopy(l2, a, &two, sizeof two, second, 1, &first) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListClose(l1) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListClose(l2) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueExecuteCommandLists(q2, 1, &l2, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueExecuteCommandLists(q1, 1, &l1, nullptr) == ZE_RESULT_SUCCESS);
    CHECK(zeEventHostSynchronize(second, 20'000'000) == ZE_RESULT_NOT_READY); // 20 ms: still gated
    CHECK(zeCommandQueueSynchronize(q2, 0) == ZE_RESULT_NOT_READY);
    CHECK(a[0] == 0);
    CHECK(zeCommandListReset(l2) == ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE); // executing
    REQUIRE(zeEventHostSignal(gate) == ZE_RESULT_SUCCESS);
    REQUIRE(zeEventHostSynchronize(second, UINT64_MAX) == ZE_RESULT_SUCCESS);
    CHECK(a[0] == 2);
    REQUIRE(zeCommandQueueSynchronize(q1, UINT64_MAX) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueSynchronize(q2, UINT64_MAX) == ZE_RESULT_SUCCESS);
    REQUIRE(zeEventHostReset(second) == ZE_RESULT_SUCCESS);
    CHECK(zeEventQueryStatus(second) == ZE_RESULT_NOT_READY);
    CHECK(zeEventPoolDestroy(pool) == ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE); // its events live
    for (auto e : {gate, first, second})
        zeEventDestroy(e);
    zeEventPoolDestroy(pool);
    zeCommandListDestroy(l1);
    zeCommandListDestroy(l2);
    zeCommandQueueDestroy(q1);
    zeCommandQueueDestroy(q2);
    zeMemFree(env.context, a);
}

TEST_CASE("immediate lists run appends at once, in order") {
    environment env;
    auto* a = static_cast<int*>(env.shared(64));
    ze_command_queue_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    ze_command_list_handle_t l = nullptr;
    REQUIRE(zeCommandListCreateImmediate(env.context, env.device, &desc, &l) == ZE_RESULT_SUCCESS);
    auto pool = env.pool(1);
    auto done = env.event(pool, 0);
    static const std::vector<int> values = [] {
        std::vector<int> v(100);
        for (int i = 0; i < 100; ++i)
            v[i] = i + 1;
        return v;
    }();
    for (int i = 0; i < 100; ++i) // each copy overwrites a[0]: the last value stays only if they run in order
        REQUIRE(zeCommandListAppendMemoryCopy(l, a, &values[i], sizeof(int), i == 99 ? done : nullptr, 0,
                                              nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeEventHostSynchronize(done, UINT64_MAX) == ZE_RESULT_SUCCESS);
    CHECK(a[0] == 100);
    CHECK(zeCommandListClose(l) == ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE);
    ze_command_queue_handle_t q = env.queue();
    CHECK(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE);
    zeCommandQueueDestroy(q);
    zeEventDestroy(done);
    zeEventPoolDestroy(pool);
    zeCommandListDestroy(l);
    zeMemFree(env.context, a);
}

TEST_CASE("misuse answers the specification's error codes") {
    environment env;
    void* p = nullptr;
    ze_host_mem_alloc_desc_t h{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    CHECK(zeMemAllocHost(env.context, &h, 0, 64, &p) == ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    CHECK(zeMemAllocHost(env.context, &h, 64, 3, &p) == ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
    int local = 0;
    CHECK(zeMemFree(env.context, &local) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
    auto pool = env.pool(1);
    ze_event_desc_t desc{ZE_STRUCTURE_TYPE_EVENT_DESC};
    desc.index = 1; // out of range
    ze_event_handle_t e = nullptr;
    CHECK(zeEventCreate(pool, &desc, &e) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
    auto ok = env.event(pool, 0);
    ze_kernel_timestamp_result_t t{};
    CHECK(zeEventQueryKernelTimestamp(ok, &t) == ZE_RESULT_ERROR_INVALID_ARGUMENT); // no timestamp pool
    auto l = env.list();
    const int v = 0;
    auto* a = static_cast<int*>(env.shared(64));
    CHECK(zeCommandListAppendMemoryFill(l, a, &v, 3, 64, nullptr, 0, nullptr) ==
          ZE_RESULT_ERROR_INVALID_SIZE);
    CHECK(zeCommandListAppendMemoryCopy(l, a, a + 1, 16, nullptr, 0, nullptr) ==
          ZE_RESULT_ERROR_OVERLAPPING_REGIONS);
    const unsigned char not_a_module[] = {1, 2, 3, 4};
    ze_module_desc_t mdesc{ZE_STRUCTURE_TYPE_MODULE_DESC};
    mdesc.format = ZE_MODULE_FORMAT_NATIVE;
    mdesc.inputSize = sizeof not_a_module;
    mdesc.pInputModule = not_a_module;
    ze_module_handle_t m = nullptr;
    ze_module_build_log_handle_t log = nullptr;
    CHECK(zeModuleCreate(env.context, env.device, &mdesc, &m, &log) == ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);
    std::size_t size = 0;
    REQUIRE(zeModuleBuildLogGetString(log, &size, nullptr) == ZE_RESULT_SUCCESS);
    std::vector<char> text(size);
    REQUIRE(zeModuleBuildLogGetString(log, &size, text.data()) == ZE_RESULT_SUCCESS);
    CHECK(std::strstr(text.data(), "ELF") != nullptr);
    zeModuleBuildLogDestroy(log);
    zeEventDestroy(ok);
    zeEventPoolDestroy(pool);
    zeCommandListDestroy(l);
    zeMemFree(env.context, a);
}

TEST_CASE("the validation layer is in front of the driver (run_validated.sh turns it on)") {
    const char* on = std::getenv("ZE_ENABLE_PARAMETER_VALIDATION");
    if (!on || std::strcmp(on, "1") != 0) return;
    environment env;
    // The driver itself does not look at the queue mode; the layer's parameter validation refuses the enum.
    ze_command_queue_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    desc.mode = static_cast<ze_command_queue_mode_t>(99);
    ze_command_queue_handle_t q = nullptr;
    CHECK(zeCommandQueueCreate(env.context, env.device, &desc, &q) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
    CHECK(q == nullptr);
}

TEST_CASE("native kernels: arguments are captured at append, groups cover the range") {
    environment env;
    const char* path = std::getenv("ENCORE_ZE_TEST_KERNELS");
    REQUIRE(path != nullptr);
    std::FILE* f = std::fopen(path, "rb");
    REQUIRE(f != nullptr);
    std::vector<unsigned char> binary;
    for (int c; (c = std::fgetc(f)) != EOF;)
        binary.push_back(static_cast<unsigned char>(c));
    std::fclose(f);
    ze_module_desc_t mdesc{ZE_STRUCTURE_TYPE_MODULE_DESC};
    mdesc.format = ZE_MODULE_FORMAT_NATIVE;
    mdesc.inputSize = binary.size();
    mdesc.pInputModule = binary.data();
    mdesc.pBuildFlags = "";
    ze_module_handle_t m = nullptr;
    REQUIRE(zeModuleCreate(env.context, env.device, &mdesc, &m, nullptr) == ZE_RESULT_SUCCESS);
    ze_kernel_desc_t kdesc{ZE_STRUCTURE_TYPE_KERNEL_DESC};
    kdesc.pKernelName = "nope";
    ze_kernel_handle_t k = nullptr;
    CHECK(zeKernelCreate(m, &kdesc, &k) == ZE_RESULT_ERROR_INVALID_KERNEL_NAME);
    kdesc.pKernelName = "add_one";
    REQUIRE(zeKernelCreate(m, &kdesc, &k) == ZE_RESULT_SUCCESS);
    auto* a = static_cast<int*>(env.shared(256 * sizeof(int)));
    auto* b = static_cast<int*>(env.shared(256 * sizeof(int)));
    std::memset(a, 0, 256 * sizeof(int));
    std::memset(b, 0, 256 * sizeof(int));
    auto l = env.list();
    const ze_group_count_t groups{4, 1, 1};
    CHECK(zeCommandListAppendLaunchKernel(l, k, &groups, nullptr, 0, nullptr) ==
          ZE_RESULT_ERROR_INVALID_ARGUMENT);
    REQUIRE(zeKernelSetGroupSize(k, 64, 1, 1) == ZE_RESULT_SUCCESS);
    REQUIRE(zeKernelSetArgumentValue(k, 0, sizeof a, &a) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListAppendLaunchKernel(l, k, &groups, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeKernelSetArgumentValue(k, 0, sizeof b, &b) == ZE_RESULT_SUCCESS); // the first launch keeps `a`
    REQUIRE(zeCommandListAppendLaunchKernel(l, k, &groups, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
    CHECK(zeKernelSetArgumentValue(k, 1, sizeof b, &b) == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
    CHECK(zeKernelSetArgumentValue(k, 0, 4, &b) == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
    CHECK(zeKernelSetGroupSize(k, 2048, 1, 1) == ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
    REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
    auto q = env.queue();
    REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueSynchronize(q, UINT64_MAX) == ZE_RESULT_SUCCESS);
    CHECK(a[0] == 1);
    CHECK(a[255] == 1);
    CHECK(b[255] == 1);
    std::uint32_t x = 0, y = 0, z = 0;
    REQUIRE(zeKernelSuggestGroupSize(k, 1000, 3, 1, &x, &y, &z) == ZE_RESULT_SUCCESS);
    CHECK(1000 % x == 0);
    CHECK(3 % y == 0);
    zeCommandQueueDestroy(q);
    zeCommandListDestroy(l);
    zeKernelDestroy(k);
    zeModuleDestroy(m);
    zeMemFree(env.context, a);
    zeMemFree(env.context, b);
}
