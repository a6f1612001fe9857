/* particles: a short-range molecular-dynamics proxy application of the CoMD kind, for comparing
 * vcmon's monitoring cost on a pair loop that calls tiny functions per pair. Lennard-Jones
 * particles (reduced units, cutoff 2.5) start on an FCC lattice at density 0.8442 in a periodic
 * box split among ranks into slabs along x, and move by velocity Verlet. Cell lists (cells at
 * least cutoff + skin wide) are rebuilt every few steps: then particles that left their slab
 * migrate to the neighbouring rank, and each rank sends its boundary cells' particles to its
 * neighbours as ghosts, whose positions it sends again every step (MPI_Sendrecv). Distances
 * take the nearest periodic image, so ghosts keep their own coordinates.
 * Usage: mpiexec -n P particles [FCC unit cells per rank along each axis, >= 6, default 10]
 *        [steps, default 100]
 * stdout (rank 0): "phase NAME SECONDS" per phase (max over ranks), then "verify ENERGY" (the
 * total energy per particle at the end); other lines start with '#'. */
#include "app_arguments.h"
#include "app_results.h"
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double cutoff = 2.5, skin = 0.3;
static const double density = 0.8442;
static const double initial_temperature = 1.0;
static const double time_step = 0.004;
/* With speeds up to about 3, a particle moves about 0.06 between rebuilds: well inside half
 * the skin. */
enum { rebuild_interval = 5, energy_interval = 10 };
enum { tag_count = 1, tag_data = 2 };

enum phase {
  phase_force,
  phase_integrate,
  phase_ghosts,
  phase_rebuild,
  phase_energy,
  phase_total,
  phase_count
};
static const char* const phase_names[phase_count] = {"force",   "integrate", "ghosts",
                                                     "rebuild", "energy",    "total"};
static double phase_seconds[phase_count];

/* Position and velocity first: they are what migrates, as 6 contiguous doubles. */
struct particle {
  double r[3], v[3], f[3];
  double r_at_build[3]; /* to check that no particle outran the skin */
};
enum { migrated_doubles = 6, ghost_doubles = 3 };

/* A list of particle indices that grows. */
struct index_list {
  int* items;
  int count, capacity;
};

/* A message buffer that grows. */
struct buffer {
  double* data;
  size_t capacity;
};

struct domain {
  int rank, ranks, left, right;
  double length[3];            /* of the periodic box */
  double slab_low, slab_width; /* this rank's part of x */
  int cells[3];                /* owned cell layers along x; cells along y and z */
  double cell_width[3];
  /* Owned particles, then the ghosts from the right neighbour, then those from the left. */
  struct particle* p;
  int owned, ghosts_from_right, ghosts_from_left, capacity;
  struct index_list send_left, send_right; /* owned particles that are ghosts next door */
  int* cell_start;                         /* cells of x layers -1 .. cells[0], plus one */
  int* cell_members;
  int* cell_of_particle;
  int members_capacity;
  struct buffer outgoing, incoming;
  int outran; /* rebuilds after which some particle had moved more than half the skin */
};

static void* checked_realloc(void* memory, size_t bytes) {
  void* grown = realloc(memory, bytes);
  if (grown == NULL && bytes > 0) {
    fprintf(stderr, "particles: out of memory (%zu bytes)\n", bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return grown;
}

static void reserve_particles(struct domain* d, int count) {
  if (count > d->capacity) {
    d->capacity = count + count / 2;
    d->p = checked_realloc(d->p, sizeof(struct particle) * (size_t)d->capacity);
  }
}

static double* room_in(struct buffer* b, size_t doubles) {
  if (doubles > b->capacity) {
    b->capacity = doubles + doubles / 2;
    b->data = checked_realloc(b->data, sizeof(double) * b->capacity);
  }
  return b->data;
}

static void append_index(struct index_list* list, int index) {
  if (list->count == list->capacity) {
    list->capacity = list->capacity ? 2 * list->capacity : 256;
    list->items = checked_realloc(list->items, sizeof(int) * (size_t)list->capacity);
  }
  list->items[list->count++] = index;
}

/* ---- Per-pair and per-particle helpers. ---- */

/* Lennard-Jones energy of a pair at squared distance r2, shifted to 0 at the cutoff; sets the
 * force on the first particle divided by the separation vector. */
static double lj_pair(double r2, double* force_over_r) {
  const double inverse2 = 1.0 / r2;
  const double inverse6 = inverse2 * inverse2 * inverse2;
  *force_over_r = 24.0 * inverse2 * inverse6 * (2.0 * inverse6 - 1.0);
  const double cut2 = 1.0 / (cutoff * cutoff), cut6 = cut2 * cut2 * cut2;
  return 4.0 * inverse6 * (inverse6 - 1.0) - 4.0 * cut6 * (cut6 - 1.0);
}

/* The separation d reduced to the nearest periodic image in a box of length L (|d| < 1.5 L:
 * positions are wrapped at every rebuild). */
double min_image(double d, double L) {
  if (d > 0.5 * L) {
    return d - L;
  }
  if (d < -0.5 * L) {
    return d + L;
  }
  return d;
}

/* The cell along one axis that holds a coordinate; rounding at the edges stays inside. */
int cell_of(double coordinate, double low, double width, int count) {
  const int cell = (int)floor((coordinate - low) / width);
  return cell < 0 ? 0 : cell >= count ? count - 1 : cell;
}

/* The coordinate brought into [0, L). */
double wrap(double coordinate, double L) {
  const double wrapped = coordinate - L * floor(coordinate / L);
  return wrapped >= L ? 0.0 : wrapped;
}

/* The linear index of cell (x, y, z), x from -1 (the left ghost layer) to cells[0] (the
 * right one). */
static int cell_index(const struct domain* d, int x, int y, int z) {
  return ((x + 1) * d->cells[1] + y) * d->cells[2] + z;
}

static int cell_count(const struct domain* d) {
  return (d->cells[0] + 2) * d->cells[1] * d->cells[2];
}

/* A uniform number in [0, 1) from a 64-bit key (splitmix64), so that a particle's initial
 * velocity depends on its lattice site only. */
static double uniform_of(uint64_t key) {
  uint64_t z = key + 0x9e3779b97f4a7c15u;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  z ^= z >> 31;
  return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

/* ---- Set-up. ---- */

/* The lattice and the initial velocities. Returns 0 when the slabs are too small for the
 * cells. */
static int setup(struct domain* d, int unit_cells) {
  const double lattice = cbrt(4.0 / density);
  d->left = (d->rank + d->ranks - 1) % d->ranks;
  d->right = (d->rank + 1) % d->ranks;
  d->slab_width = unit_cells * lattice;
  d->slab_low = d->rank * d->slab_width;
  d->length[0] = d->ranks * d->slab_width;
  d->length[1] = d->length[2] = unit_cells * lattice;
  const double extents[3] = {d->slab_width, d->length[1], d->length[2]};
  for (int a = 0; a < 3; ++a) {
    d->cells[a] = (int)(extents[a] / (cutoff + skin));
    d->cell_width[a] = extents[a] / d->cells[a];
    /* With fewer than 3, one cell would be another's neighbour twice. */
    if (d->cells[a] < 3) {
      return 0;
    }
  }
  d->cell_start = checked_realloc(NULL, sizeof(int) * (size_t)(cell_count(d) + 1));

  /* Four particles per FCC unit cell; this rank owns its slab's unit cells. */
  static const double basis[4][3] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
  const int per_rank = 4 * unit_cells * unit_cells * unit_cells;
  reserve_particles(d, per_rank);
  d->owned = 0;
  for (int ux = d->rank * unit_cells; ux < (d->rank + 1) * unit_cells; ++ux) {
    for (int uy = 0; uy < unit_cells; ++uy) {
      for (int uz = 0; uz < unit_cells; ++uz) {
        for (int b = 0; b < 4; ++b) {
          struct particle* q = &d->p[d->owned++];
          const uint64_t site =
              (((uint64_t)ux * (uint64_t)unit_cells + (uint64_t)uy) * (uint64_t)unit_cells +
               (uint64_t)uz) *
                  4u +
              (uint64_t)b;
          q->r[0] = (ux + basis[b][0]) * lattice;
          q->r[1] = (uy + basis[b][1]) * lattice;
          q->r[2] = (uz + basis[b][2]) * lattice;
          for (int a = 0; a < 3; ++a) {
            q->v[a] = uniform_of(3 * site + (uint64_t)a) - 0.5;
            q->f[a] = 0.0;
            q->r_at_build[a] = q->r[a];
          }
        }
      }
    }
  }

  /* No net momentum, and the kinetic energy of the initial temperature. */
  double local[3] = {0, 0, 0}, momentum[3];
  for (int i = 0; i < d->owned; ++i) {
    for (int a = 0; a < 3; ++a) {
      local[a] += d->p[i].v[a];
    }
  }
  MPI_Allreduce(local, momentum, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  const double all = (double)per_rank * d->ranks;
  double kinetic = 0.0, total_kinetic;
  for (int i = 0; i < d->owned; ++i) {
    for (int a = 0; a < 3; ++a) {
      d->p[i].v[a] -= momentum[a] / all;
      kinetic += 0.5 * d->p[i].v[a] * d->p[i].v[a];
    }
  }
  MPI_Allreduce(&kinetic, &total_kinetic, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  const double scale = sqrt(1.5 * all * initial_temperature / total_kinetic);
  for (int i = 0; i < d->owned; ++i) {
    for (int a = 0; a < 3; ++a) {
      d->p[i].v[a] *= scale;
    }
  }
  return 1;
}

/* ---- Communication. ---- */

/* Sends `count` records of `doubles` doubles to `destination` while receiving from `source`
 * into d->incoming, count first so that the receiver can make room. Returns the number of
 * records received. */
static int sendrecv_counted(struct domain* d, const double* records, int count, int doubles,
                            int destination, int source) {
  int received;
  MPI_Sendrecv(&count, 1, MPI_INT, destination, tag_count, &received, 1, MPI_INT, source, tag_count,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  double* into = room_in(&d->incoming, (size_t)received * doubles);
  MPI_Sendrecv(records, count * doubles, MPI_DOUBLE, destination, tag_data, into,
               received * doubles, MPI_DOUBLE, source, tag_data, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return received;
}

/* Appends the `count` particles (position, velocity) in d->incoming to the owned ones. */
static void adopt(struct domain* d, int count) {
  reserve_particles(d, d->owned + count);
  for (int k = 0; k < count; ++k) {
    struct particle* q = &d->p[d->owned++];
    memcpy(q->r, d->incoming.data + (size_t)k * migrated_doubles,
           sizeof(double) * migrated_doubles);
  }
}

/* Wraps positions into the box and sends each particle whose x lies in a neighbour's slab
 * there. Particles move far less than a slab between rebuilds, so only the two neighbours
 * can be new owners. Two ranks are each other's left and right: everything goes left. */
static void migrate(struct domain* d) {
  int to_left = 0, to_right = 0, kept = 0;
  /* Count first, so that both groups pack into one buffer: left ones at the front. */
  int* owner_of = checked_realloc(NULL, sizeof(int) * (size_t)(d->owned + 1));
  for (int i = 0; i < d->owned; ++i) {
    struct particle* q = &d->p[i];
    for (int a = 0; a < 3; ++a) {
      q->r[a] = wrap(q->r[a], d->length[a]);
    }
    int owner = (int)(q->r[0] / d->slab_width);
    owner = owner >= d->ranks ? d->ranks - 1 : owner;
    if (owner != d->rank && owner != d->left && owner != d->right) {
      fprintf(stderr, "particles: rank %d: a particle jumped to rank %d\n", d->rank, owner);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    owner_of[i] = owner;
    to_left += owner != d->rank && owner == d->left;
    to_right += owner != d->rank && owner != d->left;
  }
  double* packed = room_in(&d->outgoing, (size_t)(to_left + to_right) * migrated_doubles);
  int packed_left = 0, packed_right = to_left;
  for (int i = 0; i < d->owned; ++i) {
    if (owner_of[i] == d->rank) {
      d->p[kept++] = d->p[i];
    } else {
      const int slot = owner_of[i] == d->left ? packed_left++ : packed_right++;
      memcpy(packed + (size_t)slot * migrated_doubles, d->p[i].r,
             sizeof(double) * migrated_doubles);
    }
  }
  free(owner_of);
  d->owned = kept;
  adopt(d, sendrecv_counted(d, packed, to_left, migrated_doubles, d->left, d->right));
  adopt(d, sendrecv_counted(d, packed + (size_t)to_left * migrated_doubles, to_right,
                            migrated_doubles, d->right, d->left));
  for (int i = 0; i < d->owned; ++i) {
    memcpy(d->p[i].r_at_build, d->p[i].r, sizeof d->p[i].r);
  }
}

/* Packs the positions of the particles in `list` into d->outgoing. */
static double* pack_positions(struct domain* d, const struct index_list* list) {
  double* packed = room_in(&d->outgoing, (size_t)list->count * ghost_doubles);
  for (int k = 0; k < list->count; ++k) {
    memcpy(packed + (size_t)k * ghost_doubles, d->p[list->items[k]].r,
           sizeof(double) * ghost_doubles);
  }
  return packed;
}

/* Copies `count` received positions into the ghosts from `first` on. */
static void unpack_positions(struct domain* d, int first, int count) {
  reserve_particles(d, first + count);
  for (int k = 0; k < count; ++k) {
    memcpy(d->p[first + k].r, d->incoming.data + (size_t)k * ghost_doubles,
           sizeof(double) * ghost_doubles);
  }
}

/* Sends the ghosts' positions to the left while receiving from the right, then the other way.
 * After a rebuild (`new_lists`) the counts go first; in between they are those of the last
 * rebuild, and only positions travel. */
static void exchange_ghosts(struct domain* d, int new_lists) {
  const double start = MPI_Wtime();
  if (new_lists) {
    d->ghosts_from_right = sendrecv_counted(d, pack_positions(d, &d->send_left), d->send_left.count,
                                            ghost_doubles, d->left, d->right);
    unpack_positions(d, d->owned, d->ghosts_from_right);
    d->ghosts_from_left = sendrecv_counted(d, pack_positions(d, &d->send_right),
                                           d->send_right.count, ghost_doubles, d->right, d->left);
    unpack_positions(d, d->owned + d->ghosts_from_right, d->ghosts_from_left);
  } else {
    const int sizes[2][2] = {{d->send_left.count, d->ghosts_from_right},
                             {d->send_right.count, d->ghosts_from_left}};
    const struct index_list* lists[2] = {&d->send_left, &d->send_right};
    const int destinations[2] = {d->left, d->right}, sources[2] = {d->right, d->left};
    int first = d->owned;
    for (int way = 0; way < 2; ++way) {
      const double* packed = pack_positions(d, lists[way]);
      double* into = room_in(&d->incoming, (size_t)sizes[way][1] * ghost_doubles);
      MPI_Sendrecv(packed, sizes[way][0] * ghost_doubles, MPI_DOUBLE, destinations[way], tag_data,
                   into, sizes[way][1] * ghost_doubles, MPI_DOUBLE, sources[way], tag_data,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      unpack_positions(d, first, sizes[way][1]);
      first += sizes[way][1];
    }
  }
  phase_seconds[phase_ghosts] += MPI_Wtime() - start;
}

/* The ghost lists: owned particles in the first and in the last owned cell layer along x. */
static void select_ghosts(struct domain* d) {
  d->send_left.count = d->send_right.count = 0;
  for (int i = 0; i < d->owned; ++i) {
    const int x = cell_of(d->p[i].r[0], d->slab_low, d->cell_width[0], d->cells[0]);
    if (x == 0) {
      append_index(&d->send_left, i);
    }
    if (x == d->cells[0] - 1) {
      append_index(&d->send_right, i);
    }
  }
}

/* Counting sort of owned particles and ghosts into cells, keeping particle order in each. */
static void build_cells(struct domain* d) {
  const int total = d->owned + d->ghosts_from_right + d->ghosts_from_left;
  const int cells = cell_count(d);
  if (total > d->members_capacity) {
    d->members_capacity = total + total / 2;
    d->cell_members = checked_realloc(d->cell_members, sizeof(int) * (size_t)d->members_capacity);
    d->cell_of_particle =
        checked_realloc(d->cell_of_particle, sizeof(int) * (size_t)d->members_capacity);
  }
  memset(d->cell_start, 0, sizeof(int) * (size_t)(cells + 1));
  for (int i = 0; i < total; ++i) {
    const struct particle* q = &d->p[i];
    int x;
    if (i < d->owned) {
      x = cell_of(q->r[0], d->slab_low, d->cell_width[0], d->cells[0]);
    } else if (i < d->owned + d->ghosts_from_right) {
      x = d->cells[0];
    } else {
      x = -1;
    }
    const int c = cell_index(d, x, cell_of(q->r[1], 0.0, d->cell_width[1], d->cells[1]),
                             cell_of(q->r[2], 0.0, d->cell_width[2], d->cells[2]));
    d->cell_of_particle[i] = c;
    ++d->cell_start[c + 1];
  }
  for (int c = 0; c < cells; ++c) {
    d->cell_start[c + 1] += d->cell_start[c];
  }
  int* next = checked_realloc(NULL, sizeof(int) * (size_t)cells);
  memcpy(next, d->cell_start, sizeof(int) * (size_t)cells);
  for (int i = 0; i < total; ++i) {
    d->cell_members[next[d->cell_of_particle[i]]++] = i;
  }
  free(next);
}

/* Migration, new ghost lists and ghosts, cells. */
static void rebuild(struct domain* d) {
  double start = MPI_Wtime();
  int outran = 0;
  for (int i = 0; i < d->owned; ++i) {
    double moved2 = 0.0;
    for (int a = 0; a < 3; ++a) {
      const double step = d->p[i].r[a] - d->p[i].r_at_build[a];
      moved2 += step * step;
    }
    outran |= moved2 > 0.25 * skin * skin;
  }
  d->outran += outran;
  migrate(d);
  select_ghosts(d);
  phase_seconds[phase_rebuild] += MPI_Wtime() - start;
  exchange_ghosts(d, 1);
  start = MPI_Wtime();
  build_cells(d);
  phase_seconds[phase_rebuild] += MPI_Wtime() - start;
}

/* ---- Forces and motion. ---- */

/* The force on every owned particle from all particles within the cutoff, looked for in the
 * 27 cells around its own. Returns the owned particles' share of the potential energy. */
static double compute_forces(struct domain* d) {
  const double start = MPI_Wtime();
  const double cutoff2 = cutoff * cutoff;
  double potential = 0.0;
  for (int cx = 0; cx < d->cells[0]; ++cx) {
    for (int cy = 0; cy < d->cells[1]; ++cy) {
      for (int cz = 0; cz < d->cells[2]; ++cz) {
        const int home = cell_index(d, cx, cy, cz);
        for (int m = d->cell_start[home]; m < d->cell_start[home + 1]; ++m) {
          const int i = d->cell_members[m];
          const double* ri = d->p[i].r;
          double force[3] = {0.0, 0.0, 0.0}, energy = 0.0;
          for (int ox = -1; ox <= 1; ++ox) {
            for (int oy = -1; oy <= 1; ++oy) {
              const int ny = (cy + oy + d->cells[1]) % d->cells[1];
              for (int oz = -1; oz <= 1; ++oz) {
                const int nz = (cz + oz + d->cells[2]) % d->cells[2];
                const int near = cell_index(d, cx + ox, ny, nz);
                for (int n = d->cell_start[near]; n < d->cell_start[near + 1]; ++n) {
                  const int j = d->cell_members[n];
                  if (j == i) {
                    continue;
                  }
                  const double* rj = d->p[j].r;
                  const double dx = min_image(ri[0] - rj[0], d->length[0]);
                  const double dy = min_image(ri[1] - rj[1], d->length[1]);
                  const double dz = min_image(ri[2] - rj[2], d->length[2]);
                  const double r2 = dx * dx + dy * dy + dz * dz;
                  if (r2 < cutoff2) {
                    double force_over_r;
                    energy += lj_pair(r2, &force_over_r);
                    force[0] += force_over_r * dx;
                    force[1] += force_over_r * dy;
                    force[2] += force_over_r * dz;
                  }
                }
              }
            }
          }
          memcpy(d->p[i].f, force, sizeof force);
          potential += 0.5 * energy; /* the partner counts the other half */
        }
      }
    }
  }
  phase_seconds[phase_force] += MPI_Wtime() - start;
  return potential;
}

/* Velocity Verlet's half kick (unit mass), and the drift when `drift` is set. */
static void integrate(struct domain* d, int drift) {
  const double start = MPI_Wtime();
  for (int i = 0; i < d->owned; ++i) {
    struct particle* q = &d->p[i];
    for (int a = 0; a < 3; ++a) {
      q->v[a] += 0.5 * time_step * q->f[a];
      if (drift) {
        q->r[a] += time_step * q->v[a];
      }
    }
  }
  phase_seconds[phase_integrate] += MPI_Wtime() - start;
}

/* Potential and kinetic energy summed over ranks, and the particle count. */
static void energies(struct domain* d, double potential, double totals[3]) {
  const double start = MPI_Wtime();
  double local[3] = {potential, 0.0, (double)d->owned};
  for (int i = 0; i < d->owned; ++i) {
    const double* v = d->p[i].v;
    local[1] += 0.5 * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  }
  MPI_Allreduce(local, totals, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  phase_seconds[phase_energy] += MPI_Wtime() - start;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  struct domain d;
  memset(&d, 0, sizeof d);
  MPI_Comm_rank(MPI_COMM_WORLD, &d.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &d.ranks);
  const int unit_cells = positive_argument(argc, argv, 1, 10);
  const int steps = positive_argument(argc, argv, 2, 100);
  const double start = MPI_Wtime();
  if (unit_cells < 1 || steps < 1 || !setup(&d, unit_cells)) {
    if (d.rank == 0) {
      fprintf(stderr, "usage: particles [unit cells per rank and axis >= 6] [steps >= 1]\n");
    }
    MPI_Finalize();
    return 1;
  }

  rebuild(&d);
  double potential = compute_forces(&d), initial[3], totals[3];
  energies(&d, potential, initial);
  for (int step = 1; step <= steps; ++step) {
    integrate(&d, 1);
    if (step % rebuild_interval == 0) {
      rebuild(&d);
    } else {
      exchange_ghosts(&d, 0);
    }
    potential = compute_forces(&d);
    integrate(&d, 0);
    if (step % energy_interval == 0 || step == steps) {
      energies(&d, potential, totals);
    }
  }
  phase_seconds[phase_total] = MPI_Wtime() - start;

  int outran = 0;
  MPI_Reduce(&d.outran, &outran, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (d.rank == 0) {
    if (outran > 0) {
      fprintf(stderr,
              "particles: warning: %d times a particle moved more than half the skin "
              "between rebuilds\n",
              outran);
    }
    const double count = totals[2];
    printf("# particles: %.0f in a %dx%dx%d-cell box, %d ranks, %d steps\n", count,
           unit_cells * d.ranks, unit_cells, unit_cells, d.ranks, steps);
    printf("# energy per particle: potential %.10e -> %.10e, kinetic %.10e -> %.10e\n",
           initial[0] / count, totals[0] / count, initial[1] / count, totals[1] / count);
  }
  print_results(phase_count, phase_names, phase_seconds, (totals[0] + totals[1]) / totals[2]);
  free(d.incoming.data);
  free(d.outgoing.data);
  free(d.cell_of_particle);
  free(d.cell_members);
  free(d.cell_start);
  free(d.send_right.items);
  free(d.send_left.items);
  free(d.p);
  MPI_Finalize();
  return 0;
}
