/* Communicator attributes and names: a user keyval whose copy and delete callbacks count their
 * calls (a monitor that duplicated or freed user communicators behind the program's back would
 * change the counts), attributes on MPI_COMM_WORLD and on duplicates, Comm_delete_attr, and
 * Comm_set_name/Comm_get_name. */
#include "rank_log.h"

static int copies, deletions;

static int count_copy(MPI_Comm comm, int keyval, void* extra, void* value_in, void* value_out,
                      int* flag) {
  (void)comm;
  (void)keyval;
  (void)extra;
  ++copies;
  *(void**)value_out = (char*)value_in + 1; /* the copy's value is one more */
  *flag = 1;
  return MPI_SUCCESS;
}

static int count_delete(MPI_Comm comm, int keyval, void* value, void* extra) {
  (void)comm;
  (void)keyval;
  (void)value;
  (void)extra;
  ++deletions;
  return MPI_SUCCESS;
}

static void log_attribute(const char* label, MPI_Comm comm, int keyval, char* base) {
  void* value;
  int found;
  MPI_Comm_get_attr(comm, keyval, &value, &found);
  rank_log("%s: found %d, value %td; copies %d, deletions %d", label, found,
           found ? (char*)value - base : -1, copies, deletions);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  static char base[16]; /* attribute values are offsets into this array */

  int keyval;
  MPI_Comm_create_keyval(count_copy, count_delete, &keyval, NULL);
  MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, base + 3);
  log_attribute("world", MPI_COMM_WORLD, keyval, base);

  MPI_Comm first, second;
  MPI_Comm_dup(MPI_COMM_WORLD, &first);
  log_attribute("dup of world", first, keyval, base);
  MPI_Comm_dup(first, &second);
  log_attribute("dup of dup", second, keyval, base);
  MPI_Comm_set_attr(second, keyval, base + 9);
  log_attribute("dup of dup after set", second, keyval, base);
  MPI_Comm_delete_attr(first, keyval);
  log_attribute("dup of world after delete", first, keyval, base);

  MPI_Comm_set_name(second, "second duplicate");
  char name[MPI_MAX_OBJECT_NAME];
  int length;
  MPI_Comm_get_name(second, name, &length);
  rank_log("name of dup of dup: \"%s\" (%d)", name, length);
  MPI_Comm_get_name(MPI_COMM_WORLD, name, &length);
  rank_log("name of world: \"%s\" (%d)", name, length);

  MPI_Comm_free(&second);
  log_attribute("after freeing dup of dup", first, keyval, base);
  MPI_Comm_free(&first);
  MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval);
  MPI_Comm_free_keyval(&keyval);
  rank_log("at the end: copies %d, deletions %d, keyval invalid %d", copies, deletions,
           keyval == MPI_KEYVAL_INVALID);

  rank_log_print();
  MPI_Finalize();
  return 0;
}
