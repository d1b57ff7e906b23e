/* What the test driver counts, read by tests and benchmarks through the exported function
 * encore_ze_test_driver_counters (look it up with dlsym on the driver the loader loaded). Counts are totals since
 * the driver was loaded; take differences around the work you measure.
 */
#ifndef ENCORE_ZE_DRIVER_COUNTERS_H
#define ENCORE_ZE_DRIVER_COUNTERS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct encore_ze_driver_counters {
    uint64_t api_calls;            /* every ze* entry point the driver answered */
    uint64_t command_lists;        /* zeCommandListCreate */
    uint64_t immediate_lists;      /* zeCommandListCreateImmediate */
    uint64_t list_resets;          /* zeCommandListReset */
    uint64_t list_closes;          /* zeCommandListClose */
    uint64_t appends;              /* zeCommandListAppend* on any list */
    uint64_t executes;             /* zeCommandQueueExecuteCommandLists calls */
    uint64_t lists_executed;       /* command lists those calls carried */
    uint64_t event_pools;          /* zeEventPoolCreate */
    uint64_t events;               /* zeEventCreate */
    uint64_t host_signals;         /* zeEventHostSignal */
    uint64_t kernel_launches_run;  /* launches the queues' threads have run */
} encore_ze_driver_counters;

typedef void (*encore_ze_test_driver_counters_function)(encore_ze_driver_counters* out);
#define ENCORE_ZE_TEST_DRIVER_COUNTERS_SYMBOL "encore_ze_test_driver_counters"

#ifdef __cplusplus
}
#endif

#endif
