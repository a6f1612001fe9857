/* Derived datatypes around the ring: a matrix column (vector) received both as a column and as
 * contiguous ints, a struct with padding, and a message that is not a whole number of the
 * receive type (MPI_Get_count gives MPI_UNDEFINED, MPI_Get_elements the basic elements). */
#include "rank_log.h"
#include <stddef.h>

enum { rows = 4, columns = 5, records = 3 };

struct record {
  int id;
  double value;
  char name[6];
};

static MPI_Datatype make_record_type(void) {
  const int lengths[3] = {1, 1, 6};
  const MPI_Aint displacements[3] = {offsetof(struct record, id), offsetof(struct record, value),
                                     offsetof(struct record, name)};
  const MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
  MPI_Datatype packed, resized;
  MPI_Type_create_struct(3, lengths, displacements, types, &packed);
  MPI_Type_create_resized(packed, 0, sizeof(struct record), &resized);
  MPI_Type_free(&packed);
  MPI_Type_commit(&resized);
  return resized;
}

static void exchange(const void* send, int send_count, MPI_Datatype send_type, void* receive,
                     int receive_count, MPI_Datatype receive_type, int tag, MPI_Status* status) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Sendrecv(send, send_count, send_type, right_of(rank, size), tag, receive, receive_count,
               receive_type, left_of(rank, size), tag, MPI_COMM_WORLD, status);
}

static void log_elements(const char* label, const MPI_Status* status, MPI_Datatype type) {
  int elements;
  MPI_Get_elements(status, type, &elements);
  rank_log_status(label, status, type);
  rank_log("%s: elements=%d", label, elements);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(2);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Status status;

  int matrix[rows][columns], received[rows][columns], column[rows];
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < columns; ++c)
      matrix[r][c] = 1000 * rank + 10 * r + c;
  MPI_Datatype column_type;
  MPI_Type_vector(rows, 1, columns, MPI_INT, &column_type);
  MPI_Type_commit(&column_type);

  exchange(&matrix[0][2], 1, column_type, column, rows, MPI_INT, 1, &status);
  log_elements("column into ints", &status, MPI_INT);
  rank_log("column values %d %d %d %d", column[0], column[1], column[2], column[3]);

  memset(received, 0, sizeof received);
  exchange(&matrix[0][1], 1, column_type, &received[0][3], 1, column_type, 2, &status);
  log_elements("column into column", &status, column_type);
  rank_log_checksum("matrix after column receive", received, sizeof received);
  MPI_Type_free(&column_type);

  MPI_Datatype record_type = make_record_type();
  struct record sent[records], got[records];
  memset(sent, 0, sizeof sent); /* padding bytes compare equal in the checksum */
  memset(got, 0, sizeof got);
  for (int i = 0; i < records; ++i) {
    sent[i].id = rank * 10 + i;
    sent[i].value = rank + i * 0.25;
    memcpy(sent[i].name, (char[]){'r', (char)('0' + rank % 10), '.', (char)('0' + i), '\0'}, 5);
  }
  exchange(sent, records, record_type, got, records, record_type, 3, &status);
  log_elements("struct", &status, record_type);
  for (int i = 0; i < records; ++i)
    rank_log("record %d: id=%d value=%.2f name=%s", i, got[i].id, got[i].value, got[i].name);
  rank_log_checksum("records", got, sizeof got);
  MPI_Type_free(&record_type);

  MPI_Datatype int_pair;
  MPI_Type_contiguous(2, MPI_INT, &int_pair);
  MPI_Type_commit(&int_pair);
  int five[5] = {rank, rank + 1, rank + 2, rank + 3, rank + 4}, pairs[6] = {0};
  exchange(five, 5, MPI_INT, pairs, 3, int_pair, 4, &status);
  log_elements("5 ints into int pairs", &status, int_pair);
  rank_log_checksum("int pairs", pairs, sizeof pairs);
  MPI_Type_free(&int_pair);

  rank_log_print();
  MPI_Finalize();
  return 0;
}
