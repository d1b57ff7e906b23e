/* The kernel ABI of Encore's Level Zero test driver: what a "native binary" is on a driver that runs kernels on the
 * host.
 *
 * A native binary (ZE_MODULE_FORMAT_NATIVE) for the test driver is the bytes of a host shared object (an ELF .so
 * built with -fPIC -shared) that exports one symbol, `encore_ze_kernels`, of type encore_ze_kernel_table. The
 * driver loads those bytes from memory (memfd + dlopen), so zeModuleGetNativeBinary hands back the same bytes and
 * a module created from them again is the same module. Each kernel is a C function called once per work-group,
 * on the thread of the queue that runs the launch; it loops over the group's work-items itself, which is what
 * lets a kernel put a group barrier between two loops.
 *
 * arguments[i] points at the bytes of argument i as zeKernelSetArgumentValue gave them (a pointer argument: at
 * the pointer value; a scalar: at its bytes). A local-memory argument (set with a size and a null value) points
 * at a pointer to that group's buffer of that size. argument_sizes[i] is the size the driver checks
 * zeKernelSetArgumentValue against (ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE); 0 accepts any size (local
 * memory).
 *
 *     static void scale(const encore_ze_group* g) {
 *         float a = *(const float*)g->arguments[0];
 *         float* x = *(float* const*)g->arguments[1];
 *         for (uint32_t i = 0; i < g->group_size[0]; ++i) x[g->group_id[0] * g->group_size[0] + i] *= a;
 *     }
 *     static const uint32_t scale_sizes[] = {sizeof(float), sizeof(void*)};
 *     static const encore_ze_kernel_info kernels[] = {{"scale", 2, scale_sizes, scale}};
 *     ENCORE_ZE_EXPORT const encore_ze_kernel_table encore_ze_kernels = {ENCORE_ZE_KERNEL_ABI_VERSION, 1, kernels};
 */
#ifndef ENCORE_ZE_KERNEL_ABI_H
#define ENCORE_ZE_KERNEL_ABI_H

#include <stdint.h>

#define ENCORE_ZE_KERNEL_ABI_VERSION 1u
#define ENCORE_ZE_KERNEL_TABLE_SYMBOL "encore_ze_kernels"

#ifdef __cplusplus
#define ENCORE_ZE_EXPORT extern "C" __attribute__((visibility("default")))
extern "C" {
#else
#define ENCORE_ZE_EXPORT __attribute__((visibility("default")))
#endif

typedef struct encore_ze_group {
    uint32_t group_id[3];    /* this group's coordinates */
    uint32_t group_count[3]; /* the launch's group counts (ze_group_count_t) */
    uint32_t group_size[3];  /* work-items per group (zeKernelSetGroupSize) */
    void* const* arguments;  /* argument_count pointers, see above */
} encore_ze_group;

typedef void (*encore_ze_kernel_entry)(const encore_ze_group* group);

typedef struct encore_ze_kernel_info {
    const char* name;
    uint32_t argument_count;
    const uint32_t* argument_sizes;
    encore_ze_kernel_entry entry;
} encore_ze_kernel_info;

typedef struct encore_ze_kernel_table {
    uint32_t abi_version; /* ENCORE_ZE_KERNEL_ABI_VERSION */
    uint32_t kernel_count;
    const encore_ze_kernel_info* kernels;
} encore_ze_kernel_table;

#ifdef __cplusplus
}
#endif

#endif
