#ifndef LAYOUT_BENCH_ALLOCATION_COUNTER_H
#define LAYOUT_BENCH_ALLOCATION_COUNTER_H

#include <stdint.h>

/// Heap allocations made by every thread of this process since it started:
/// each successful malloc, calloc, memalign-family call, and each realloc that
/// allocates. Zero for ever when interposition is not in effect (another
/// allocator such as a sanitizer's wins); callers check with a probe.
uint64_t lb_allocation_count(void);

/// Bytes requested by those allocations.
uint64_t lb_allocated_bytes(void);

/// 1 if allocations made inside shared libraries (the Swift runtime, GLPK)
/// reach the counter, else 0: probes with an allocation inside the C library.
int lb_allocation_counting(void);

/// Makes every thread allocate from the C library's main arena (glibc's
/// `mallopt(M_ARENA_MAX, 1)`), so that memory one thread frees is reused by
/// the others. 1 on success, 0 where the C library has no such setting.
int lb_use_one_malloc_arena(void);

#endif
