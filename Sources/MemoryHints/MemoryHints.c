// The header's functions are `static inline` (MemoryHints.h); a C target needs
// one source file to build.
#include "MemoryHints.h"
