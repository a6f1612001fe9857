/* The units of the mixed project (run_mixed_project.sh): one each of plain C, MPI
 * communication, a GCC nested function and OpenMP. */
#pragma once

/* halo.c: the ring neighbours' values (MPI_Sendrecv). */
void ring_exchange(const double* mine, double* from_left, double* from_right, int rank, int ranks);
/* nested.c: a GCC nested function; Clang rejects it, so vcmon compiles the unit plainly. */
int sum_of_squares(int n);
/* omp_kernel.c: a loop in an OpenMP parallel region. */
double scaled_sum(const double* values, int n, double factor);
