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

/// Gives the memory the C library's allocator holds free back to the
/// system, in every thread's arena (glibc's `malloc_trim(0)`). 1 if any was
/// given back, 0 if none or where the C library has no such call.
int lb_release_free_memory(void);

#endif
