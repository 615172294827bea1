// Counts heap allocations by interposing the C allocator's entry points.
//
// Why interposition rather than an allocator of our own: the counts must
// cover every allocation a solver makes (Swift runtime, Foundation, GLPK's C
// code) without changing which allocator does the work, so timings measured
// in the same run are unaffected apart from one relaxed atomic add per call.
// A definition of `malloc` in the executable takes precedence over glibc's
// for every shared library (ELF symbol interposition); each function counts
// and forwards to glibc's own implementation, exported as `__libc_*`; `free`
// is left to glibc, which owns every block either way.
//
// Why no thread-local counters: the GLPK reference makes its calls on its own
// thread, and its allocations belong to the phase the caller is measuring.

#include "AllocationCounter.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define LB_SANITIZED 1
#endif
#endif

// Sanitizers bring their own allocator; under one, nothing is interposed and
// the counts stay zero (the harness then reports allocations as unmeasured).
#if defined(__linux__) && defined(__GLIBC__) && !defined(LB_SANITIZED)

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static uint64_t allocations;
static uint64_t bytes;

static inline void *counted(void *pointer, size_t size) {
    if (pointer) {
        __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&bytes, size, __ATOMIC_RELAXED);
    }
    return pointer;
}

void *malloc(size_t size) { return counted(__libc_malloc(size), size); }

void *calloc(size_t count, size_t size) {
    // The product may overflow; glibc rejects that case and returns NULL,
    // which is not counted, so the wrapped figure is only for the count.
    return counted(__libc_calloc(count, size), count * size);
}

void *realloc(void *pointer, size_t size) {
    void *result = __libc_realloc(pointer, size);
    // Why a realloc counts only when it starts from NULL: growing a buffer in
    // place or by moving is one logical allocation, as malloc counters count it.
    return pointer == NULL ? counted(result, size) : result;
}

void *memalign(size_t alignment, size_t size) { return counted(__libc_memalign(alignment, size), size); }

void *aligned_alloc(size_t alignment, size_t size) { return counted(__libc_memalign(alignment, size), size); }

int posix_memalign(void **result, size_t alignment, size_t size) {
    // The contract of posix_memalign: a power-of-two multiple of sizeof(void *).
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = counted(pointer, size);
    return 0;
}

uint64_t lb_allocation_count(void) { return __atomic_load_n(&allocations, __ATOMIC_RELAXED); }

int lb_allocation_counting(void) {
    // Why strdup: its allocation happens inside libc.so, so it reaches this
    // counter only if the dynamic linker routed shared libraries' malloc here
    // (a call from this file would bind to our malloc statically either way).
    // The volatile pointer keeps the optimiser from deleting the pair.
    char *(*volatile duplicate)(const char *) = strdup;
    uint64_t before = lb_allocation_count();
    char *copy = duplicate("probe");
    int counted = copy != NULL && lb_allocation_count() > before;
    free(copy);
    return counted;
}
uint64_t lb_allocated_bytes(void) { return __atomic_load_n(&bytes, __ATOMIC_RELAXED); }

#else

uint64_t lb_allocation_count(void) { return 0; }
uint64_t lb_allocated_bytes(void) { return 0; }
int lb_allocation_counting(void) { return 0; }

#endif

#if defined(__GLIBC__)
#include <malloc.h>
int lb_release_free_memory(void) { return malloc_trim(0); }
#else
int lb_release_free_memory(void) { return 0; }
#endif
