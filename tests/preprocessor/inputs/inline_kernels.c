/* Leaves their author declared inline: folded up to 2048 AST nodes, loops allowed, however many
 * statements (ProbeScheme tests name the sites by line). */
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

/* Straight-line code of many short statements: a cell's volume from the differences of its
 * corners, one declaration each, as hydro codes write it (34 statements, about 400 nodes). */
static inline real cell_volume(real a0, real a1, real a2, real a3, real b0, real b1, real b2,
                               real b3, real c0, real c1, real c2, real c3) {
  real da10 = a1 - a0;
  real db10 = b1 - b0;
  real dc10 = c1 - c0;
  real da20 = a2 - a0;
  real db20 = b2 - b0;
  real dc20 = c2 - c0;
  real da30 = a3 - a0;
  real db30 = b3 - b0;
  real dc30 = c3 - c0;
  real da21 = a2 - a1;
  real db21 = b2 - b1;
  real dc21 = c2 - c1;
  real da31 = a3 - a1;
  real db31 = b3 - b1;
  real dc31 = c3 - c1;
  real da32 = a3 - a2;
  real db32 = b3 - b2;
  real dc32 = c3 - c2;
  real m0 = db20 * dc30 - dc20 * db30;
  real m1 = dc20 * da30 - da20 * dc30;
  real m2 = da20 * db30 - db20 * da30;
  real n0 = db31 * dc21 - dc31 * db21;
  real n1 = dc31 * da21 - da31 * dc21;
  real n2 = da31 * db21 - db31 * da21;
  real p0 = db32 * dc10 - dc32 * db10;
  real p1 = dc32 * da10 - da32 * dc10;
  real p2 = da32 * db10 - db32 * da10;
  real v0 = da10 * m0 + db10 * m1 + dc10 * m2;
  real v1 = da20 * n0 + db20 * n1 + dc20 * n2;
  real v2 = da30 * p0 + db30 * p1 + dc30 * p2;
  real w0 = v0 < 0 ? -v0 : v0;
  real w1 = v1 < 0 ? -v1 : v1;
  real w2 = v2 < 0 ? -v2 : v2;
  return (w0 + w1 + w2) / 18.0;
}

/* Not declared inline, but tiny: one statement calling a foldable leaf folds too. */
real cell_volume_of(const real a[4], const real b[4], const real c[4]) {
  return cell_volume(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], c[0], c[1], c[2], c[3]);
}

real volumes(int n, const real* a, const real* b, const real* c) {
  real s = 0;
  for (int e = 0; e < n; e++)
    s += cell_volume_of(a + 4 * e, b + 4 * e, c + 4 * e);
  return s;
}
