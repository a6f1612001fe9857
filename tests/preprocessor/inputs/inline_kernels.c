/* Leaves their author declared inline: folded up to 32 statements and 2048 AST nodes, loops
 * allowed (ProbeScheme tests name the sites by line). */
typedef double real;

#define SUM8(g, i, x)                                                                              \
  (g[0][i] * x[0] + g[1][i] * x[1] + g[2][i] * x[2] + g[3][i] * x[3] + g[4][i] * x[4] +            \
   g[5][i] * x[5] + g[6][i] * x[6] + g[7][i] * x[7])
#define SUM4(g, i, h) (g[i][0] * h[0] + g[i][1] * h[1] + g[i][2] * h[2] + g[i][3] * h[3])

/* A per-element helper of a hydro code: six short loops of 8-term sums, about 650 nodes. */
static inline void corner_forces(const real* x, const real* y, const real* z, real g[][4],
                                 real c, real* fx, real* fy, real* fz) {
  real h[4];
  for (int i = 0; i < 4; i++)
    h[i] = SUM8(g, i, x);
  for (int i = 0; i < 8; i++)
    fx[i] = c * SUM4(g, i, h);
  for (int i = 0; i < 4; i++)
    h[i] = SUM8(g, i, y);
  for (int i = 0; i < 8; i++)
    fy[i] = c * SUM4(g, i, h);
  for (int i = 0; i < 4; i++)
    h[i] = SUM8(g, i, z);
  for (int i = 0; i < 8; i++)
    fz[i] = c * SUM4(g, i, h);
}

/* The same sums written out four times over: past 2048 nodes, a kernel of its own. */
static inline real big_sums(const real* x, real g[][4]) {
  real s = 0;
  for (int i = 0; i < 4; i++)
    s += SUM8(g, i, x) * SUM8(g, i, x) + SUM8(g, i, x) * SUM8(g, i, x);
  for (int i = 0; i < 4; i++)
    s += SUM8(g, i, x) * SUM8(g, i, x) + SUM8(g, i, x) * SUM8(g, i, x);
  for (int i = 0; i < 4; i++)
    s += SUM8(g, i, x) * SUM8(g, i, x) + SUM8(g, i, x) * SUM8(g, i, x);
  for (int i = 0; i < 4; i++)
    s += SUM8(g, i, x) * SUM8(g, i, x) + SUM8(g, i, x) * SUM8(g, i, x);
  return s;
}

real elements(int n, const real* x, real g[][4], real* f) {
  real s = 0;
  for (int e = 0; e < n; e++) {
    corner_forces(x + 24 * e, x + 24 * e + 8, x + 24 * e + 16, g, 0.5, f, f + 8, f + 16);
    s += big_sums(x + 24 * e, g);
  }
  return s;
}
