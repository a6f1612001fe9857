/* cg: a conjugate-gradient proxy application of the HPCCG kind, for comparing vcmon's
 * monitoring cost on a realistic loop nest. Each rank holds an nx*ny*nz box of a 27-point
 * stencil matrix (diagonal 27, off-diagonals -1; ranks stacked in z) in CSR form, and the
 * right-hand side is the row sums, so the exact solution is all ones. A fixed number of CG
 * iterations runs from x = 0; the z-boundary planes of the search direction are exchanged
 * before each sparse matrix-vector product, received with MPI_ANY_SOURCE.
 * Usage: mpiexec -n P cg [box edge per rank, default 80] [iterations, default 150]
 * stdout (rank 0): "phase NAME SECONDS" per phase (max over ranks), then "verify RESIDUAL";
 * other lines start with '#'. */
#include "app_arguments.h"
#include "app_memory.h"
#include "app_results.h"
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { halo_tag = 27 };

/* Phase timers, accumulated over the run as HPCCG does. */
enum phase { phase_ddot, phase_waxpby, phase_sparsemv, phase_halo, phase_total, phase_count };
static const char* const phase_names[phase_count] = {"ddot", "waxpby", "sparsemv", "halo", "total"};
static double phase_seconds[phase_count];

/* The local part of the matrix. Column indices address the padded vector layout: the plane
 * below the box (received from rank-1), the box itself, the plane above (from rank+1). */
struct csr_matrix {
  int rows;
  int* row_start; /* rows + 1 entries */
  int* columns;
  double* values;
};

struct box {
  int nx, ny, nz;
  int plane; /* nx * ny: the size of one halo plane */
  int rank, ranks;
};

/* Builds the 27-point matrix of the box and b = A * ones. */
static void generate_problem(const struct box* box, struct csr_matrix* a, double* b) {
  const int nx = box->nx, ny = box->ny, nz = box->nz;
  const int global_nz = nz * box->ranks;
  a->rows = nx * ny * nz;
  a->row_start = allocate_mapped((size_t)a->rows + 1, sizeof(int), "cg");
  a->columns = allocate_mapped((size_t)a->rows * 27, sizeof(int), "cg");
  a->values = allocate_mapped((size_t)a->rows * 27, sizeof(double), "cg");
  int nonzeros = 0;
  for (int iz = 0; iz < nz; ++iz) {
    const int global_z = box->rank * nz + iz;
    for (int iy = 0; iy < ny; ++iy) {
      for (int ix = 0; ix < nx; ++ix) {
        const int row = (iz * ny + iy) * nx + ix;
        a->row_start[row] = nonzeros;
        double row_sum = 0.0;
        for (int sz = -1; sz <= 1; ++sz) {
          if (global_z + sz < 0 || global_z + sz >= global_nz) {
            continue;
          }
          for (int sy = -1; sy <= 1; ++sy) {
            if (iy + sy < 0 || iy + sy >= ny) {
              continue;
            }
            for (int sx = -1; sx <= 1; ++sx) {
              if (ix + sx < 0 || ix + sx >= nx) {
                continue;
              }
              const double value = (sx == 0 && sy == 0 && sz == 0) ? 27.0 : -1.0;
              a->columns[nonzeros] = ((iz + sz + 1) * ny + iy + sy) * nx + ix + sx;
              a->values[nonzeros] = value;
              row_sum += value;
              ++nonzeros;
            }
          }
        }
        b[row] = row_sum;
      }
    }
  }
  a->row_start[a->rows] = nonzeros;
}

/* Fills the padded vector's halo planes with the neighbours' boundary planes. Both receives
 * are posted with MPI_ANY_SOURCE into scratch buffers, and each arrival is copied to the
 * plane its sender borders. That is safe although both carry the same tag: every exchange is
 * followed by a ddot's MPI_Allreduce before the next one, so a neighbour's next planes cannot
 * arrive while this exchange is still receiving. */
static void exchange_halo(const struct box* box, double* padded, double* scratch) {
  const double start = MPI_Wtime();
  const int below = box->rank - 1, above = box->rank + 1;
  MPI_Request receives[2], sends[2];
  int receive_count = 0, send_count = 0;
  if (below >= 0) {
    ++receive_count;
  }
  if (above < box->ranks) {
    ++receive_count;
  }
  for (int k = 0; k < receive_count; ++k) {
    MPI_Irecv(scratch + (size_t)k * box->plane, box->plane, MPI_DOUBLE, MPI_ANY_SOURCE, halo_tag,
              MPI_COMM_WORLD, &receives[k]);
  }
  if (below >= 0) {
    MPI_Isend(padded + box->plane, box->plane, MPI_DOUBLE, below, halo_tag, MPI_COMM_WORLD,
              &sends[send_count++]);
  }
  if (above < box->ranks) {
    MPI_Isend(padded + (size_t)box->nz * box->plane, box->plane, MPI_DOUBLE, above, halo_tag,
              MPI_COMM_WORLD, &sends[send_count++]);
  }
  for (int done = 0; done < receive_count; ++done) {
    int which;
    MPI_Status status;
    MPI_Waitany(receive_count, receives, &which, &status);
    double* plane =
        status.MPI_SOURCE == below ? padded : padded + (size_t)(box->nz + 1) * box->plane;
    memcpy(plane, scratch + (size_t)which * box->plane, sizeof(double) * (size_t)box->plane);
  }
  MPI_Status send_statuses[2]; /* not MPI_STATUSES_IGNORE: GCC's -Wstringop-overflow misfires */
  MPI_Waitall(send_count, sends, send_statuses);
  phase_seconds[phase_halo] += MPI_Wtime() - start;
}

/* y = A * x, x in the padded layout. */
static void sparsemv(const struct csr_matrix* a, const double* x, double* y) {
  const double start = MPI_Wtime();
  for (int row = 0; row < a->rows; ++row) {
    double sum = 0.0;
    for (int k = a->row_start[row]; k < a->row_start[row + 1]; ++k) {
      sum += a->values[k] * x[a->columns[k]];
    }
    y[row] = sum;
  }
  phase_seconds[phase_sparsemv] += MPI_Wtime() - start;
}

/* The global dot product x . y. */
static double ddot(int n, const double* x, const double* y) {
  const double start = MPI_Wtime();
  double local = 0.0;
  for (int i = 0; i < n; ++i) {
    local += x[i] * y[i];
  }
  double global;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  phase_seconds[phase_ddot] += MPI_Wtime() - start;
  return global;
}

/* w = alpha * x + beta * y. */
static void waxpby(int n, double alpha, const double* x, double beta, const double* y, double* w) {
  const double start = MPI_Wtime();
  for (int i = 0; i < n; ++i) {
    w[i] = alpha * x[i] + beta * y[i];
  }
  phase_seconds[phase_waxpby] += MPI_Wtime() - start;
}

/* Runs `iterations` CG steps from x = 0 and returns the final residual norm. */
static double solve(const struct box* box, const struct csr_matrix* a, const double* b, double* x,
                    int iterations) {
  const int n = a->rows;
  double* r = allocate_mapped((size_t)n, sizeof(double), "cg");
  double* ap = allocate_mapped((size_t)n, sizeof(double), "cg");
  /* The search direction carries the halo planes, so that sparsemv reads it directly. */
  double* p_padded = allocate_mapped((size_t)n + 2 * (size_t)box->plane, sizeof(double), "cg");
  double* scratch = allocate_mapped(2 * (size_t)box->plane, sizeof(double), "cg");
  double* p = p_padded + box->plane;

  memset(x, 0, sizeof(double) * (size_t)n);
  waxpby(n, 1.0, b, 0.0, b, r); /* r = b - A * 0 */
  double rtrans = 0.0;
  for (int k = 1; k <= iterations; ++k) {
    if (k == 1) {
      waxpby(n, 1.0, r, 0.0, r, p);
      rtrans = ddot(n, r, r);
    } else {
      const double old_rtrans = rtrans;
      rtrans = ddot(n, r, r);
      waxpby(n, 1.0, r, rtrans / old_rtrans, p, p);
    }
    exchange_halo(box, p_padded, scratch);
    sparsemv(a, p_padded, ap);
    const double alpha = rtrans / ddot(n, p, ap);
    waxpby(n, 1.0, x, alpha, p, x);
    waxpby(n, 1.0, r, -alpha, ap, r);
  }
  const double residual = sqrt(ddot(n, r, r));
  free(scratch);
  free(p_padded);
  free(ap);
  free(r);
  return residual;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  struct box box;
  MPI_Comm_rank(MPI_COMM_WORLD, &box.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &box.ranks);
  const int edge = positive_argument(argc, argv, 1, 80);
  const int iterations = positive_argument(argc, argv, 2, 150);
  if (edge < 2 || iterations < 1) {
    if (box.rank == 0) {
      fprintf(stderr, "usage: cg [box edge per rank >= 2] [iterations >= 1]\n");
    }
    MPI_Finalize();
    return 1;
  }
  box.nx = box.ny = box.nz = edge;
  box.plane = box.nx * box.ny;

  const double start = MPI_Wtime();
  struct csr_matrix a;
  const int n = box.nx * box.ny * box.nz;
  double* b = allocate_mapped((size_t)n, sizeof(double), "cg");
  double* x = allocate_mapped((size_t)n, sizeof(double), "cg");
  generate_problem(&box, &a, b);
  const double residual = solve(&box, &a, b, x, iterations);
  phase_seconds[phase_total] = MPI_Wtime() - start;

  if (box.rank == 0) {
    printf("# cg: %dx%dx%d per rank, %d ranks, %d iterations\n", box.nx, box.ny, box.nz, box.ranks,
           iterations);
  }
  print_results(phase_count, phase_names, phase_seconds, residual);
  free(a.values);
  free(a.columns);
  free(a.row_start);
  free(x);
  free(b);
  MPI_Finalize();
  return 0;
}
