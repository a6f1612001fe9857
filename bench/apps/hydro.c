/* hydro: an explicit 2-D Lagrangian hydrodynamics proxy application, for comparing vcmon's
 * monitoring cost on code made of many small helper functions called in inner loops. A
 * staggered quadrilateral mesh (positions and velocities on nodes; density, energy, pressure on
 * zones) of the unit square holds an ideal gas with a perturbed Sod interface; each step
 * computes pressure and artificial viscosity per zone, the zones' corner forces, the time step
 * (minimum over ranks), accelerates and moves the nodes, and updates the zones' energy from the
 * work done. Zone rows are split among ranks; neighbouring ranks share a node row, which both
 * update identically from the same corner forces in the same order: each step exchanges the
 * corner forces of the boundary zone rows.
 * Usage: mpiexec -n P hydro [zones per side of the mesh, default 768] [steps, default 200]
 * Beyond about 5 x zones steps the mesh tangles (there is no hourglass control): hydro then
 * says so and fails.
 * stdout (rank 0): "phase NAME SECONDS" per phase (max over ranks), then "verify KINETIC";
 * other lines start with '#'. */
#include "app_arguments.h"
#include "app_memory.h"
#include "app_results.h"
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { tag_upward = 1, tag_downward = 2, corner_values = 8 /* 4 corners x (fx, fy) */ };

static const double gamma_gas = 1.4;
static const double cfl = 0.3;
static const double viscosity_linear = 0.5, viscosity_quadratic = 1.0;
static const double pi = 3.14159265358979323846;

enum phase {
  phase_eos,
  phase_timestep,
  phase_halo,
  phase_nodes,
  phase_energy,
  phase_total,
  phase_count
};
static const char* const phase_names[phase_count] = {"eos",   "timestep", "halo",
                                                     "nodes", "energy",   "total"};
static double phase_seconds[phase_count];

/* The rank's part of the mesh: zone rows [first_row, first_row + rows) of a zones x zones
 * mesh, and node rows first_row .. first_row + rows. */
struct mesh {
  int zones;     /* per side of the global mesh */
  int rows;      /* zone rows owned here */
  int first_row; /* global index of the first */
  int rank, ranks;
  double *x, *y, *u, *v, *node_mass;                   /* (zones + 1) * (rows + 1) nodes */
  double *zone_mass, *energy, *area_before, *pressure; /* zones * rows */
  /* Corner forces of zone rows -1 .. rows: the outer two rows are the neighbours'. */
  double* corner_force;
};

/* ---- Small helpers, called per zone or per node. ---- */

static inline int node_index(const struct mesh* m, int i, int j) {
  return j * (m->zones + 1) + i;
}
static inline int zone_index(const struct mesh* m, int i, int j) {
  return j * m->zones + i;
}
/* Corner forces are stored from zone row -1. */
static inline double* corner_forces_of(const struct mesh* m, int i, int j) {
  return m->corner_force + (size_t)((j + 1) * m->zones + i) * corner_values;
}
static inline double sq(double a) {
  return a * a;
}
static inline double clamp(double value, double low, double high) {
  return value < low ? low : value > high ? high : value;
}
static inline double min2(double a, double b) {
  return a < b ? a : b;
}
/* The area of a quadrilateral with counter-clockwise corners (shoelace formula). */
static inline double vol(const double xs[4], const double ys[4]) {
  return 0.5 * ((xs[0] * ys[1] - xs[1] * ys[0]) + (xs[1] * ys[2] - xs[2] * ys[1]) +
                (xs[2] * ys[3] - xs[3] * ys[2]) + (xs[3] * ys[0] - xs[0] * ys[3]));
}
/* d(area)/d(corner k's position): the pressure force on that corner, per unit pressure. */
static inline void grad(const double xs[4], const double ys[4], int k, double* gx, double* gy) {
  const int next = (k + 1) & 3, previous = (k + 3) & 3;
  *gx = 0.5 * (ys[next] - ys[previous]);
  *gy = 0.5 * (xs[previous] - xs[next]);
}
static inline double eos_pressure(double density, double energy) {
  return (gamma_gas - 1.0) * density * energy;
}
static inline double sound_speed(double density, double pressure) {
  return sqrt(gamma_gas * pressure / density);
}
/* Viscous pressure in compression, from the velocity jump across the zone. */
static inline double artificial_viscosity(double density, double speed, double jump) {
  if (jump >= 0.0) {
    return 0.0;
  }
  return density * (viscosity_quadratic * sq(jump) + viscosity_linear * speed * fabs(jump));
}
static inline double courant_limit(double length, double speed, double jump) {
  return cfl * length / (speed + 2.0 * fabs(jump) + 1e-30);
}
static inline void zone_corners(const struct mesh* m, int i, int j, double xs[4], double ys[4],
                                double us[4], double vs[4]) {
  const int corner[4] = {node_index(m, i, j), node_index(m, i + 1, j), node_index(m, i + 1, j + 1),
                         node_index(m, i, j + 1)};
  for (int k = 0; k < 4; ++k) {
    xs[k] = m->x[corner[k]];
    ys[k] = m->y[corner[k]];
    us[k] = m->u[corner[k]];
    vs[k] = m->v[corner[k]];
  }
}

/* ---- The initial state, a function of global position only, so that ranks sharing a node
 * row compute the same node masses. ---- */

double initial_density(double x, double y) {
  const double interface = 0.5 + 0.05 * cos(2.0 * pi * x);
  return y < interface ? 1.0 : 0.125;
}
double initial_pressure(double x, double y) {
  const double interface = 0.5 + 0.05 * cos(2.0 * pi * x);
  return y < interface ? 1.0 : 0.1;
}
double initial_zone_mass(int zones, int i, int j) {
  const double h = 1.0 / zones;
  return initial_density((i + 0.5) * h, (j + 0.5) * h) * h * h;
}
double kinetic_energy(double mass, double u, double v) {
  return 0.5 * mass * (u * u + v * v);
}

static void setup(struct mesh* m, int zones) {
  m->zones = zones;
  m->rows = zones / m->ranks + (m->rank < zones % m->ranks);
  m->first_row = m->rank * (zones / m->ranks) + min2(m->rank, zones % m->ranks);
  const size_t nodes = (size_t)(zones + 1) * (m->rows + 1), cells = (size_t)zones * m->rows;
  m->x = allocate_mapped(nodes, sizeof(double), "hydro");
  m->y = allocate_mapped(nodes, sizeof(double), "hydro");
  m->u = allocate_mapped(nodes, sizeof(double), "hydro");
  m->v = allocate_mapped(nodes, sizeof(double), "hydro");
  m->node_mass = allocate_mapped(nodes, sizeof(double), "hydro");
  m->zone_mass = allocate_mapped(cells, sizeof(double), "hydro");
  m->energy = allocate_mapped(cells, sizeof(double), "hydro");
  m->area_before = allocate_mapped(cells, sizeof(double), "hydro");
  m->pressure = allocate_mapped(cells, sizeof(double), "hydro");
  m->corner_force =
      allocate_mapped((size_t)zones * (m->rows + 2) * corner_values, sizeof(double), "hydro");

  const double h = 1.0 / zones;
  for (int j = 0; j <= m->rows; ++j) {
    const int global_j = m->first_row + j;
    for (int i = 0; i <= zones; ++i) {
      const int n = node_index(m, i, j);
      m->x[n] = i * h;
      m->y[n] = global_j * h;
      /* A quarter of each adjacent zone's mass, in the same order on every rank. */
      double mass = 0.0;
      for (int zj = global_j - 1; zj <= global_j; ++zj) {
        for (int zi = i - 1; zi <= i; ++zi) {
          if (zi >= 0 && zi < zones && zj >= 0 && zj < zones) {
            mass += 0.25 * initial_zone_mass(zones, zi, zj);
          }
        }
      }
      m->node_mass[n] = mass;
    }
  }
  for (int j = 0; j < m->rows; ++j) {
    for (int i = 0; i < zones; ++i) {
      const int z = zone_index(m, i, j), global_j = m->first_row + j;
      const double cx = (i + 0.5) * h, cy = (global_j + 0.5) * h;
      m->zone_mass[z] = initial_zone_mass(zones, i, global_j);
      m->energy[z] = initial_pressure(cx, cy) / ((gamma_gas - 1.0) * initial_density(cx, cy));
    }
  }
}

/* Per owned zone: density, pressure (EOS plus viscosity), corner forces. Returns the largest
 * stable time step of these zones. */
static double zone_forces(struct mesh* m) {
  const double start = MPI_Wtime();
  double step = 1e30;
  for (int j = 0; j < m->rows; ++j) {
    for (int i = 0; i < m->zones; ++i) {
      double xs[4], ys[4], us[4], vs[4];
      zone_corners(m, i, j, xs, ys, us, vs);
      const int z = zone_index(m, i, j);
      const double area = vol(xs, ys);
      const double density = m->zone_mass[z] / area;
      const double p = eos_pressure(density, m->energy[z]);
      const double speed = sound_speed(density, p);
      double gx[4], gy[4], area_rate = 0.0;
      for (int k = 0; k < 4; ++k) {
        grad(xs, ys, k, &gx[k], &gy[k]);
        area_rate += gx[k] * us[k] + gy[k] * vs[k];
      }
      const double length = sqrt(area);
      const double jump = length * area_rate / area;
      const double total_pressure = p + artificial_viscosity(density, speed, jump);
      double* forces = corner_forces_of(m, i, j);
      for (int k = 0; k < 4; ++k) {
        forces[2 * k] = total_pressure * gx[k];
        forces[2 * k + 1] = total_pressure * gy[k];
      }
      m->pressure[z] = total_pressure;
      m->area_before[z] = area;
      step = min2(step, courant_limit(length, speed, jump));
    }
  }
  phase_seconds[phase_eos] += MPI_Wtime() - start;
  return step;
}

static double global_time_step(double local_step, double previous_step) {
  const double start = MPI_Wtime();
  double step;
  MPI_Allreduce(&local_step, &step, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  phase_seconds[phase_timestep] += MPI_Wtime() - start;
  return min2(step, 1.2 * previous_step); /* let the step grow only gradually */
}

/* Corner forces of the boundary zone rows to and from the neighbouring ranks. */
static void exchange_halo(struct mesh* m) {
  const double start = MPI_Wtime();
  const int count = m->zones * corner_values;
  MPI_Request requests[4];
  int pending = 0;
  if (m->rank > 0) {
    MPI_Irecv(corner_forces_of(m, 0, -1), count, MPI_DOUBLE, m->rank - 1, tag_upward,
              MPI_COMM_WORLD, &requests[pending++]);
    MPI_Isend(corner_forces_of(m, 0, 0), count, MPI_DOUBLE, m->rank - 1, tag_downward,
              MPI_COMM_WORLD, &requests[pending++]);
  }
  if (m->rank < m->ranks - 1) {
    MPI_Irecv(corner_forces_of(m, 0, m->rows), count, MPI_DOUBLE, m->rank + 1, tag_downward,
              MPI_COMM_WORLD, &requests[pending++]);
    MPI_Isend(corner_forces_of(m, 0, m->rows - 1), count, MPI_DOUBLE, m->rank + 1, tag_upward,
              MPI_COMM_WORLD, &requests[pending++]);
  }
  MPI_Status statuses[4]; /* not MPI_STATUSES_IGNORE: GCC's -Wstringop-overflow misfires */
  MPI_Waitall(pending, requests, statuses);
  phase_seconds[phase_halo] += MPI_Wtime() - start;
}

/* Per node: the sum of its zones' corner forces (always in the same order, so that ranks
 * sharing the node agree bit for bit), then velocity and position. Walls reflect. */
static void move_nodes(struct mesh* m, double step) {
  const double start = MPI_Wtime();
  const int lowest_row = m->rank > 0 ? -1 : 0;
  const int highest_row = m->rank < m->ranks - 1 ? m->rows : m->rows - 1;
  for (int j = 0; j <= m->rows; ++j) {
    const int global_j = m->first_row + j;
    for (int i = 0; i <= m->zones; ++i) {
      double fx = 0.0, fy = 0.0;
      /* The zones below-left, below-right, above-left, above-right and which corner of each
       * this node is. */
      static const int zone_di[4] = {-1, 0, -1, 0}, zone_dj[4] = {-1, -1, 0, 0};
      static const int corner_of_node[4] = {2, 3, 1, 0};
      for (int a = 0; a < 4; ++a) {
        const int zi = i + zone_di[a], zj = j + zone_dj[a];
        if (zi < 0 || zi >= m->zones || zj < lowest_row || zj > highest_row) {
          continue;
        }
        const double* forces = corner_forces_of(m, zi, zj);
        fx += forces[2 * corner_of_node[a]];
        fy += forces[2 * corner_of_node[a] + 1];
      }
      const int n = node_index(m, i, j);
      double u = m->u[n] + step * fx / m->node_mass[n];
      double v = m->v[n] + step * fy / m->node_mass[n];
      if (i == 0 || i == m->zones) {
        u = 0.0;
      }
      if (global_j == 0 || global_j == m->zones) {
        v = 0.0;
      }
      m->u[n] = u;
      m->v[n] = v;
      m->x[n] += step * u;
      m->y[n] += step * v;
    }
  }
  phase_seconds[phase_nodes] += MPI_Wtime() - start;
}

/* Per zone: internal energy changes by the work the zone's pressure did on its area. */
static void update_energy(struct mesh* m) {
  const double start = MPI_Wtime();
  for (int j = 0; j < m->rows; ++j) {
    for (int i = 0; i < m->zones; ++i) {
      double xs[4], ys[4], us[4], vs[4];
      zone_corners(m, i, j, xs, ys, us, vs);
      const int z = zone_index(m, i, j);
      const double work = m->pressure[z] * (vol(xs, ys) - m->area_before[z]);
      m->energy[z] = clamp(m->energy[z] - work / m->zone_mass[z], 1e-12, 1e30);
    }
  }
  phase_seconds[phase_energy] += MPI_Wtime() - start;
}

/* Kinetic energy of the nodes (a shared node row counts on the upper rank only) and internal
 * energy of the zones, summed over ranks. */
static void energies(const struct mesh* m, double* kinetic, double* internal) {
  double local[2] = {0.0, 0.0};
  const int top_row = m->rank == m->ranks - 1 ? m->rows : m->rows - 1;
  for (int j = 0; j <= top_row; ++j) {
    for (int i = 0; i <= m->zones; ++i) {
      const int n = node_index(m, i, j);
      local[0] += kinetic_energy(m->node_mass[n], m->u[n], m->v[n]);
    }
  }
  for (int z = 0; z < m->zones * m->rows; ++z) {
    local[1] += m->zone_mass[z] * m->energy[z];
  }
  double global[2];
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  *kinetic = global[0];
  *internal = global[1];
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  struct mesh m;
  MPI_Comm_rank(MPI_COMM_WORLD, &m.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &m.ranks);
  const int zones = positive_argument(argc, argv, 1, 768);
  const int steps = positive_argument(argc, argv, 2, 200);
  if (zones < 2 * m.ranks || steps < 1) {
    if (m.rank == 0) {
      fprintf(stderr, "usage: hydro [zones per side >= 2 * ranks] [steps >= 1]\n");
    }
    MPI_Finalize();
    return 1;
  }

  const double start = MPI_Wtime();
  setup(&m, zones);
  double kinetic, internal_before, internal;
  energies(&m, &kinetic, &internal_before);
  double step = 1e30, time = 0.0;
  for (int s = 0; s < steps; ++s) {
    step = global_time_step(zone_forces(&m), step);
    exchange_halo(&m);
    move_nodes(&m, step);
    update_energy(&m);
    time += step;
  }
  energies(&m, &kinetic, &internal);
  phase_seconds[phase_total] = MPI_Wtime() - start;
  /* Without hourglass control the mesh tangles once the reflected shock meets the interface,
   * after about 5 * zones steps, and energy stops being conserved: say so rather than print
   * garbage. */
  const double drift = (kinetic + internal - internal_before) / internal_before;
  if (!(fabs(drift) < 0.1)) {
    if (m.rank == 0) {
      fprintf(stderr, "hydro: the mesh tangled; run fewer steps for %d zones\n", zones);
    }
    MPI_Finalize();
    return 1;
  }

  if (m.rank == 0) {
    printf("# hydro: %dx%d zones, %d ranks, %d steps to t=%.6e\n", zones, zones, m.ranks, steps,
           time);
    printf("# energy: internal %.10e -> %.10e, kinetic %.10e\n", internal_before, internal,
           kinetic);
  }
  print_results(phase_count, phase_names, phase_seconds, kinetic);
  free(m.corner_force);
  free(m.pressure);
  free(m.area_before);
  free(m.energy);
  free(m.zone_mass);
  free(m.node_mass);
  free(m.v);
  free(m.u);
  free(m.y);
  free(m.x);
  MPI_Finalize();
  return 0;
}
