// Hints to the processor's memory system, for loops whose next loads are
// known before their addresses are needed.
//
// Why C: Swift has no prefetch of its own; a `static inline` function here is
// compiled by the Clang importer into the calling Swift module's code, so the
// call becomes the one instruction.

#ifndef MEMORY_HINTS_H
#define MEMORY_HINTS_H

/// Asks for the cache line holding `address` to be brought in for reading.
/// A hint only: it changes no value, and an address that is not mapped
/// (any address at all) does not fault.
static inline __attribute__((always_inline)) void memory_hints_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
