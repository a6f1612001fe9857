/* What the transparency programs print. Each rank logs what it observes (statuses, counts,
 * checksums, return codes) into its own buffer; rank_log_print has rank 0 print every buffer in
 * rank order. Interleaved stdout of several ranks would differ from run to run; this does not.
 * Results whose order MPI leaves open (wildcard receives, Waitany...) go through a line_set, which
 * logs its lines sorted. */
#ifndef VCMON_TESTS_TRANSPARENCY_RANK_LOG_H
#define VCMON_TESTS_TRANSPARENCY_RANK_LOG_H

#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing buffer of text lines. */
struct text {
  char* data;
  size_t length;
  size_t capacity;
};

static inline void text_append_line(struct text* text, const char* format, va_list args) {
  va_list measure;
  va_copy(measure, args);
  int needed = vsnprintf(NULL, 0, format, measure);
  va_end(measure);
  if (needed < 0)
    abort();
  size_t required = text->length + (size_t)needed + 2; /* newline and terminator */
  if (required > text->capacity) {
    size_t capacity = text->capacity ? 2 * text->capacity : 1024;
    while (capacity < required)
      capacity *= 2;
    text->data = realloc(text->data, capacity);
    if (!text->data)
      abort();
    text->capacity = capacity;
  }
  vsnprintf(text->data + text->length, (size_t)needed + 1, format, args);
  text->length += (size_t)needed;
  text->data[text->length++] = '\n';
  text->data[text->length] = '\0';
}

static struct text rank_log_text;

/* Appends one line to this rank's log. */
__attribute__((format(printf, 1, 2))) static inline void rank_log(const char* format, ...) {
  va_list args;
  va_start(args, format);
  text_append_line(&rank_log_text, format, args);
  va_end(args);
}

/* Collective over MPI_COMM_WORLD: rank 0 prints every rank's log, in rank order. */
static inline void rank_log_print(void) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int length = (int)rank_log_text.length;
  int* lengths = rank == 0 ? malloc(sizeof(int) * (size_t)size) : NULL;
  MPI_Gather(&length, 1, MPI_INT, lengths, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int* offsets = NULL;
  char* all = NULL;
  if (rank == 0) {
    offsets = malloc(sizeof(int) * (size_t)size);
    int total = 0;
    for (int r = 0; r < size; ++r) {
      offsets[r] = total;
      total += lengths[r];
    }
    all = malloc((size_t)total + 1);
  }
  MPI_Gatherv(rank_log_text.data, length, MPI_CHAR, all, lengths, offsets, MPI_CHAR, 0,
              MPI_COMM_WORLD);
  if (rank == 0) {
    for (int r = 0; r < size; ++r) {
      const char* line = all + offsets[r];
      const char* end = line + lengths[r];
      while (line < end) {
        const char* newline = memchr(line, '\n', (size_t)(end - line));
        printf("[%d] %.*s\n", r, (int)(newline - line), line);
        line = newline + 1;
      }
    }
    fflush(stdout);
  }
  free(lengths);
  free(offsets);
  free(all);
  free(rank_log_text.data);
  rank_log_text = (struct text){0};
}

/* Lines whose order is not determined by the program; logged sorted. */
struct line_set {
  struct text text;
};

__attribute__((format(printf, 2, 3))) static inline void line_set_add(struct line_set* set,
                                                                      const char* format, ...) {
  va_list args;
  va_start(args, format);
  text_append_line(&set->text, format, args);
  va_end(args);
}

static inline int compare_lines(const void* a, const void* b) {
  return strcmp(*(const char* const*)a, *(const char* const*)b);
}

/* Logs the set's lines in sorted order and empties the set. */
static inline void line_set_log_sorted(struct line_set* set) {
  size_t count = 0;
  for (size_t i = 0; i < set->text.length; ++i)
    count += set->text.data[i] == '\n';
  char** lines = malloc(sizeof(char*) * (count ? count : 1));
  char* line = set->text.data;
  for (size_t i = 0; i < count; ++i) {
    char* newline = strchr(line, '\n');
    *newline = '\0';
    lines[i] = line;
    line = newline + 1;
  }
  qsort(lines, count, sizeof(char*), compare_lines);
  for (size_t i = 0; i < count; ++i)
    rank_log("%s", lines[i]);
  free(lines);
  free(set->text.data);
  set->text = (struct text){0};
}

/* Rank numbers and the special values MPI puts in statuses, readably. */
static inline const char* rank_name(int rank, char buffer[16]) {
  if (rank == MPI_PROC_NULL)
    return "PROC_NULL";
  if (rank == MPI_ANY_SOURCE)
    return "ANY_SOURCE";
  snprintf(buffer, 16, "%d", rank);
  return buffer;
}

static inline const char* tag_name(int tag, char buffer[16]) {
  if (tag == MPI_ANY_TAG)
    return "ANY_TAG";
  snprintf(buffer, 16, "%d", tag);
  return buffer;
}

static inline const char* count_name(int count, char buffer[16]) {
  if (count == MPI_UNDEFINED)
    return "UNDEFINED";
  snprintf(buffer, 16, "%d", count);
  return buffer;
}

/* "source=S tag=T count=C", the count as MPI_Get_count in units of type. */
static inline const char* status_text(const MPI_Status* status, MPI_Datatype type,
                                      char buffer[96]) {
  char source[16], tag[16], count_text[16];
  int count;
  MPI_Get_count(status, type, &count);
  snprintf(buffer, 96, "source=%s tag=%s count=%s", rank_name(status->MPI_SOURCE, source),
           tag_name(status->MPI_TAG, tag), count_name(count, count_text));
  return buffer;
}

static inline void rank_log_status(const char* label, const MPI_Status* status, MPI_Datatype type) {
  char buffer[96];
  rank_log("%s: %s", label, status_text(status, type, buffer));
}

/* "label: v0 v1 ..." for short arrays. */
static inline void rank_log_ints(const char* label, const int* values, int count) {
  char text[1024];
  size_t used = 0;
  for (int i = 0; i < count && used + 16 < sizeof text; ++i)
    used += (size_t)snprintf(text + used, sizeof text - used, " %d", values[i]);
  text[used] = '\0';
  rank_log("%s:%s", label, text);
}

/* FNV-1a over a buffer, so received data is compared without printing all of it. */
static inline uint64_t checksum(const void* data, size_t bytes) {
  const unsigned char* p = data;
  uint64_t hash = 1469598103934665603ull;
  for (size_t i = 0; i < bytes; ++i)
    hash = (hash ^ p[i]) * 1099511628211ull;
  return hash;
}

static inline void rank_log_checksum(const char* label, const void* data, size_t bytes) {
  rank_log("%s: %zu bytes, checksum %016llx", label, bytes,
           (unsigned long long)checksum(data, bytes));
}

/* The class of an MPI return code (or of a status's MPI_ERROR). */
static inline int error_class_of(int code) {
  int class = -1;
  MPI_Error_class(code, &class);
  return class;
}

/* "class N (text)" for an MPI return code: the class, not the code, since MPICH codes carry
 * instance details; the class's own string for the same reason. */
static inline void rank_log_return(const char* label, int code) {
  const int class = error_class_of(code);
  char text[MPI_MAX_ERROR_STRING];
  int length;
  MPI_Error_string(class, text, &length);
  rank_log("%s: class %d (%s)", label, class, text);
}

/* Aborts unless the job has at least `needed` ranks; returns how many it has. */
static inline int require_ranks(int needed) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < needed) {
    fprintf(stderr, "this program needs at least %d ranks\n", needed);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return size;
}

/* Neighbours on the ring of MPI_COMM_WORLD. */
static inline int right_of(int rank, int size) {
  return (rank + 1) % size;
}
static inline int left_of(int rank, int size) {
  return (rank + size - 1) % size;
}

#endif
