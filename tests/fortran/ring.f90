! A Fortran MPI program built with vcmon-mpifort: a token around the ring (point-to-point)
! and a sum over the ranks (collective). Its records are link-only: per MPI function.
program ring
  use mpi
  implicit none
  integer :: rank, size, token, total, ierr
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  token = 0
  if (rank == 0) then
    call MPI_Send(token, 1, MPI_INTEGER, mod(1, size), 7, MPI_COMM_WORLD, ierr)
    call MPI_Recv(token, 1, MPI_INTEGER, size - 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  else
    call MPI_Recv(token, 1, MPI_INTEGER, rank - 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    token = token + 1
    call MPI_Send(token, 1, MPI_INTEGER, mod(rank + 1, size), 7, MPI_COMM_WORLD, ierr)
  end if
  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a, i0, a, i0)', 'ring ok: ', token + 1, ' ranks, sum ', total
  call MPI_Finalize(ierr)
end program ring
