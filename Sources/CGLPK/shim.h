// The GLPK C API, for the GLPKReference target only.
// Debian ships no glpk.pc, so there is no pkg-config: the module map links "glpk".
#if __has_include(<glpk.h>)
#include <glpk.h>
#else
#error "GLPK is not installed: run `apt-get install -y libglpk-dev` (scripts/layout-bench and scripts/test install it for you)"
#endif
