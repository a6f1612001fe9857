/* The paper's test program (Li & Zhang, section 5.3.6): a master/worker matrix multiplication
 * C = A x B in named stages, each timed by the program itself with MPI_Wtime, so that a run
 * under VCMON_WTIME=virtual prints the monitor's virtual time for each stage.
 *
 *   initialise  the master draws A and B (entries from a seeded normal distribution, rounded
 *               to small integers, so every sum below is exact in double precision)
 *   distribute  C is cut into tiles x tiles tiles; the task of tile (i, j) is the portion of A
 *               and the portion of B it needs (the block of rows i of A, the block of columns
 *               j of B, packed), sent to worker 1 + (i * tiles + j) % workers as two messages
 *               tagged with the tile's index. Every task carries its own portions, as in the
 *               paper's program, so the master sends 2 x tiles x order^2 doubles
 *   compute     each worker multiplies the portions of each of its tasks (timed on the workers)
 *   collect     the master receives every result tile with MPI_Recv(MPI_ANY_SOURCE,
 *               MPI_ANY_TAG) in the order they come: with several workers the order depends on
 *               timing, so this is the nondeterministic receive the monitor orders
 *   merge       the master places the tiles into C by tag and checks C = A x B with Freivalds'
 *               test (C x = A (B x) for `checks` integer vectors, exact)
 *
 * Prints the stages as bench/apps/app_results.h does ("phase NAME SECONDS", the slowest rank's
 * time), plus "phase total" (the master, initialise to merge), each twice: by MPI_Wtime (virtual
 * time when monitored with VCMON_WTIME=virtual) and as "phase NAME.real" by CLOCK_MONOTONIC,
 * which the monitor does not touch; then "verify CHECKSUM". Exits non-zero when the product is
 * wrong.
 * Usage: mpiexec -n N (N >= 2) matmul_stages [order=1536] [tiles=8] [checks=40], order a multiple
 * of tiles.
 */
#include "../apps/app_arguments.h"
#include "../apps/app_memory.h"
#include "../apps/app_results.h"

#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { default_order = 1536, default_tiles = 8, default_checks = 40 };
enum {
  stage_initialise,
  stage_distribute,
  stage_compute,
  stage_collect,
  stage_merge,
  stage_total,
  stage_count
};
/* Each stage by MPI_Wtime, then by the real clock. */
static const char* const stage_names[2 * stage_count] = {
    "initialise",   "distribute",   "compute",         "collect",
    "merge",        "total",        "initialise.real", "distribute.real",
    "compute.real", "collect.real", "merge.real",      "total.real"};

/* A stage boundary on both clocks. */
typedef struct {
  double wtime, real;
} moment;

static moment now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  const moment m = {MPI_Wtime(), (double)t.tv_sec + 1e-9 * (double)t.tv_nsec};
  return m;
}

/* seconds[stage] and seconds[stage_count + stage]: from `from` to `to` on each clock. */
static void record_stage(double seconds[2 * stage_count], int stage, moment from, moment to) {
  seconds[stage] = to.wtime - from.wtime;
  seconds[stage_count + stage] = to.real - from.real;
}

/* splitmix64: a seeded stream of 64-bit values. */
static uint64_t next_random(uint64_t* state) {
  uint64_t x = (*state += 0x9e3779b97f4a7c15ull);
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* Fills `count` entries with normal(0, 4) values rounded to integers in [-15, 15]
 * (Box-Muller, two entries per pair of uniforms). */
static void draw_matrix(double* entries, size_t count, uint64_t seed) {
  const double two_pi = 6.283185307179586;
  uint64_t state = seed;
  for (size_t i = 0; i + 1 < count; i += 2) {
    const double u1 = ((double)(next_random(&state) >> 11) + 1.0) * 0x1.0p-53;
    const double u2 = (double)(next_random(&state) >> 11) * 0x1.0p-53;
    const double radius = 4.0 * sqrt(-2.0 * log(u1));
    const double first = fmin(15.0, fmax(-15.0, nearbyint(radius * cos(two_pi * u2))));
    const double second = fmin(15.0, fmax(-15.0, nearbyint(radius * sin(two_pi * u2))));
    entries[i] = first;
    entries[i + 1] = second;
  }
  if (count % 2 != 0)
    entries[count - 1] = 1.0;
}

/* result = rows (block_rows x order) x b (order x order); k outermost, so that each row of b
 * is read once per block and the inner loop vectorises. */
/* result (size x size) = rows (size x order, a block of rows of A) x columns (order x size, a
 * block of columns of B, row-major); k outermost, so the inner loop runs over a row of the
 * tile and vectorises. */
static void multiply_tile(const double* rows, const double* columns, int order, int size,
                          double* result) {
  memset(result, 0, sizeof(double) * (size_t)size * (size_t)size);
  for (int k = 0; k < order; ++k) {
    const double* column_row = columns + (size_t)k * size;
    for (int i = 0; i < size; ++i) {
      const double a = rows[(size_t)i * order + k];
      double* result_row = result + (size_t)i * size;
      for (int j = 0; j < size; ++j)
        result_row[j] += a * column_row[j];
    }
  }
}

/* y = m x (order x order times a vector). */
static void multiply_vector(const double* m, const double* x, int order, double* y) {
  for (int i = 0; i < order; ++i) {
    const double* row = m + (size_t)i * order;
    double sum = 0.0;
    for (int j = 0; j < order; ++j)
      sum += row[j] * x[j];
    y[i] = sum;
  }
}

/* Freivalds' test with `checks` vectors of small integers: 1 when C x = A (B x) for all. */
static int product_checks_out(const double* a, const double* b, const double* c, int order,
                              int checks) {
  double* x = malloc(sizeof(double) * (size_t)order * 4);
  double *bx = x + order, *abx = bx + order, *cx = abx + order;
  uint64_t state = 99;
  int correct = 1;
  for (int check = 0; check < checks && correct; ++check) {
    for (int j = 0; j < order; ++j)
      x[j] = (double)(next_random(&state) % 19) - 9.0;
    multiply_vector(b, x, order, bx);
    multiply_vector(a, bx, order, abx);
    multiply_vector(c, x, order, cx);
    correct = memcmp(abx, cx, sizeof(double) * (size_t)order) == 0;
  }
  free(x);
  return correct;
}

/* The tiles of C and who computes them. */
typedef struct {
  int order, tiles, size, workers; /* size: a tile's side, order / tiles */
} tiling;

static int worker_of_tile(const tiling* t, int tile) {
  return 1 + tile % t->workers;
}

static int master(const tiling* t, int checks, double seconds[2 * stage_count], double* verify) {
  const int order = t->order, size = t->size, tiles = t->tiles * t->tiles;
  const size_t matrix_size = (size_t)order * order, portion_size = (size_t)size * order,
               tile_size = (size_t)size * size;
  double* a = allocate_mapped(matrix_size, sizeof(double), "matmul_stages");
  double* b = allocate_mapped(matrix_size, sizeof(double), "matmul_stages");
  /* One packed block of columns. */
  double* b_columns = allocate_mapped(portion_size, sizeof(double), "matmul_stages");
  double* c = allocate_mapped(matrix_size, sizeof(double), "matmul_stages");
  double* arrived = allocate_mapped(matrix_size, sizeof(double), "matmul_stages");
  int* arrived_tags = allocate_mapped((size_t)tiles, sizeof(int), "matmul_stages");

  const moment start = now();
  draw_matrix(a, matrix_size, 1);
  draw_matrix(b, matrix_size, 2);
  const moment initialised = now();

  for (int column_block = 0; column_block < t->tiles; ++column_block) {
    for (int k = 0; k < order; ++k)
      memcpy(b_columns + (size_t)k * size, b + (size_t)k * order + (size_t)column_block * size,
             sizeof(double) * (size_t)size);
    for (int row_block = 0; row_block < t->tiles; ++row_block) {
      const int tile = row_block * t->tiles + column_block;
      const int worker = worker_of_tile(t, tile);
      MPI_Send(a + (size_t)row_block * portion_size, (int)portion_size, MPI_DOUBLE, worker, tile,
               MPI_COMM_WORLD);
      MPI_Send(b_columns, (int)portion_size, MPI_DOUBLE, worker, tile, MPI_COMM_WORLD);
    }
  }
  const moment distributed = now();

  for (int received = 0; received < tiles; ++received) {
    MPI_Status status;
    MPI_Recv(arrived + received * tile_size, (int)tile_size, MPI_DOUBLE, MPI_ANY_SOURCE,
             MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    arrived_tags[received] = status.MPI_TAG;
  }
  const moment collected = now();

  for (int received = 0; received < tiles; ++received) {
    const int row_block = arrived_tags[received] / t->tiles;
    const int column_block = arrived_tags[received] % t->tiles;
    const double* tile = arrived + received * tile_size;
    for (int i = 0; i < size; ++i)
      memcpy(c + ((size_t)row_block * size + i) * order + (size_t)column_block * size,
             tile + (size_t)i * size, sizeof(double) * (size_t)size);
  }
  const int correct = product_checks_out(a, b, c, order, checks);
  double checksum = 0.0;
  for (size_t i = 0; i < matrix_size; ++i)
    checksum += c[i] * (double)(i % 97 + 1);
  const moment merged = now();

  record_stage(seconds, stage_initialise, start, initialised);
  record_stage(seconds, stage_distribute, initialised, distributed);
  record_stage(seconds, stage_collect, distributed, collected);
  record_stage(seconds, stage_merge, collected, merged);
  record_stage(seconds, stage_total, start, merged);
  *verify = checksum;
  free(arrived_tags);
  free(arrived);
  free(c);
  free(b_columns);
  free(b);
  free(a);
  return correct;
}

static void worker(int rank, const tiling* t, double seconds[2 * stage_count]) {
  const int order = t->order, size = t->size, tiles = t->tiles * t->tiles;
  const size_t portion_size = (size_t)size * order, tile_size = (size_t)size * size;
  int mine = 0;
  for (int tile = 0; tile < tiles; ++tile)
    mine += worker_of_tile(t, tile) == rank;
  const size_t tasks = (size_t)(mine > 0 ? mine : 1);
  double* portions = allocate_mapped(2 * portion_size * tasks, sizeof(double), "matmul_stages");
  double* results = allocate_mapped(tile_size * tasks, sizeof(double), "matmul_stages");
  int* tags = allocate_mapped(tasks, sizeof(int), "matmul_stages");

  for (int task = 0; task < mine; ++task) {
    double* rows = portions + 2 * (size_t)task * portion_size;
    MPI_Status status;
    MPI_Recv(rows, (int)portion_size, MPI_DOUBLE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    tags[task] = status.MPI_TAG;
    MPI_Recv(rows + portion_size, (int)portion_size, MPI_DOUBLE, 0, status.MPI_TAG, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  }
  const moment start = now();
  for (int task = 0; task < mine; ++task) {
    const double* rows = portions + 2 * (size_t)task * portion_size;
    multiply_tile(rows, rows + portion_size, order, size, results + task * tile_size);
  }
  record_stage(seconds, stage_compute, start, now());
  for (int task = 0; task < mine; ++task)
    MPI_Send(results + task * tile_size, (int)tile_size, MPI_DOUBLE, 0, tags[task], MPI_COMM_WORLD);
  free(tags);
  free(results);
  free(portions);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int order = positive_argument(argc, argv, 1, default_order);
  const int tiles = positive_argument(argc, argv, 2, default_tiles);
  const int checks = positive_argument(argc, argv, 3, default_checks);
  if (size < 2 || order < 1 || order > 16384 || tiles < 1 || order % tiles != 0 || checks < 1) {
    if (rank == 0)
      fprintf(stderr,
              "usage: mpiexec -n N (N >= 2) %s [order up to 16384] [tiles per side, dividing "
              "the order] [checks]\n",
              argv[0]);
    MPI_Finalize();
    return 2;
  }
  const tiling t = {order, tiles, order / tiles, size - 1};
  double seconds[2 * stage_count] = {0};
  double verify = 0.0;
  int correct = 1;
  /* Every rank starts the clock together, so that no stage holds another's start-up. */
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    correct = master(&t, checks, seconds, &verify);
  else
    worker(rank, &t, seconds);
  print_results(2 * stage_count, stage_names, seconds, verify);
  if (rank == 0 && !correct)
    fprintf(stderr, "matmul_stages: C differs from A x B\n");
  MPI_Finalize();
  return correct ? 0 : 1;
}
