/* The portability idiom for directives in macros, defined in a header. */
#define PRAGMA(x) _Pragma(#x)
#define OMP(directive) PRAGMA(omp directive)
