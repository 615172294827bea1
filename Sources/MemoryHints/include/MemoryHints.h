// Hints to the processor's memory system, for loops whose next loads are
// known before their addresses are needed, and to the kernel's, for memory
// about to be written.
//
// Why C: Swift has no prefetch of its own; a `static inline` function here is
// compiled by the Clang importer into the calling Swift module's code, so the
// call becomes the one instruction.

#ifndef MEMORY_HINTS_H
#define MEMORY_HINTS_H

#include <stddef.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/// Asks for the cache line holding `address` to be brought in for reading.
/// A hint only: it changes no value, and an address that is not mapped
/// (any address at all) does not fault.
static inline __attribute__((always_inline)) void memory_hints_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

/// Maps the pages of `length` bytes from `address` (page-aligned) for
/// writing, in one call, where the kernel can (Linux 5.14's
/// `MADV_POPULATE_WRITE`); elsewhere nothing happens and the pages fault as
/// they are written. A hint only: no value changes. Returns 0 when done.
static inline int memory_hints_populate_write(void *address, size_t length) {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    return madvise(address, length, MADV_POPULATE_WRITE);
#else
    (void)address;
    (void)length;
    return -1;
#endif
}

#endif
