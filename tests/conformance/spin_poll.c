/* spin_poll any|improbe|source|give-up: 3 ranks. Rank 0 waits for one message from each of
 * ranks 1 and 2 by polling, with nothing else in its loop:
 *   any      MPI_Iprobe(MPI_ANY_SOURCE) until it finds one, then MPI_Recv from that source
 *   improbe  MPI_Improbe(MPI_ANY_SOURCE), then MPI_Mrecv
 *   source   MPI_Iprobe(2) until found, then MPI_Recv; then the same for rank 1
 *   give-up  MPI_Iprobe(MPI_ANY_SOURCE) in a registered loop while MPI_Wtime() says less than
 *            300 ms have passed; then two MPI_Recv(MPI_ANY_SOURCE). It tells the senders
 *            when it starts, and they sleep 450 and 600 ms from there, so the loop ends
 *            empty-handed. Run with VCMON_INJECT_PROBE_NS=500 and VCMON_WTIME=virtual, the
 *            loop's probes make its clock reach 300 ms long after the first message is there
 *            in real time: a poll that skipped ahead to it would find it.
 * In the other modes rank 1 sleeps 100 ms and then runs a registered loop of 6000 cheap
 * iterations, rank 2 sleeps 250 ms; each sends its MPI_Wtime at the send. Run with
 * VCMON_INJECT_PROBE_NS=50000 and VCMON_WTIME=virtual: the loop costs rank 1 300 ms more in
 * real time, charged to intrusion, so rank 2 sends first in real time and rank 1 first in
 * virtual time (MPI_Wtime). Rank 0 prints whether it took the messages in the order they were
 * sent (by the senders' MPI_Wtime; in source mode, the order it chose), whether it saw each no
 * earlier than its sender's MPI_Wtime at the send, and, in give-up mode, that it gave up.
 *
 * A loop that only polls takes its message as soon as it is safe, at its virtual arrival
 * (docs/pmpi.md, "Loops that only poll"), rather than crawling there at the pace of its polls' own
 * cost (10 s of real time for a 2 s wait before 2026-12-03). It must still take the messages in
 * virtual order, never see one before its virtual arrival, and a loop bounded by MPI_Wtime
 * must give up as it would unmonitored.
 *
 * Expected outcome: status 0, the same output with and without vcmon. */
#include "vcmon/probes.h"

#include "rank_log.h"
#include "sleep_ms.h"

enum { kTag = 7, kWorkLoopLine = 113, kPollLoopLine = 134 };

/* The static table vcmon-instrument would emit: rank 1's loop, rank 0's bounded polling loop. */
static const vcmon_site_desc sites[] = {
    {VCMON_SITE_LOOP, kWorkLoopLine, 3, -1, "for", "", VCMON_PROBING_TIMED},
    {VCMON_SITE_LOOP, kPollLoopLine, 3, -1, "for", "", VCMON_PROBING_TIMED}};
static const vcmon_unit_desc unit = {VCMON_PROBE_ABI_VERSION, __FILE__, 2, sites};
static unsigned first_site;
__attribute__((constructor)) static void register_unit(void) {
  vcmon_register_unit(&unit, &first_site);
}

static volatile unsigned sink;

/* Waits by polling for a message from `source` (MPI_ANY_SOURCE or a rank) and receives it. */
static double take(int source, int improbe, MPI_Status* status) {
  int found = 0;
  double sent = 0;
  if (improbe) {
    MPI_Message message = MPI_MESSAGE_NULL;
    while (!found)
      MPI_Improbe(source, kTag, MPI_COMM_WORLD, &found, &message, status);
    MPI_Mrecv(&sent, 1, MPI_DOUBLE, &message, status);
  } else {
    while (!found)
      MPI_Iprobe(source, kTag, MPI_COMM_WORLD, &found, status);
    MPI_Recv(&sent, 1, MPI_DOUBLE, status->MPI_SOURCE, kTag, MPI_COMM_WORLD, status);
  }
  return sent;
}

/* What rank 0 saw of the two messages, in the order it took them. */
struct taken {
  int source[2];
  double sent[2]; /* the sender's MPI_Wtime just before its send */
  double seen[2]; /* rank 0's MPI_Wtime once it had the message */
};

/* Logs whether each message was seen no earlier than it was sent and, unless the program chose
 * the order itself, whether the messages were taken in the order they were sent. Under load the
 * senders' order varies from run to run, plain too; and a sender held off the core between its
 * reading and its send sends later than it read, so it reads MPI_Wtime after the send as well
 * (tag kTag + 2): the order is wrong only where the message taken first was read after the
 * other had surely been sent. */
static void log_taken(const struct taken* t, int ordered_by_time) {
  double after[3] = {0, 0, 0};
  for (int source = 1; source <= 2; ++source)
    MPI_Recv(&after[source], 1, MPI_DOUBLE, source, kTag + 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  int seen_after_sent = 1;
  for (int k = 0; k < 2; ++k)
    seen_after_sent = seen_after_sent && t->seen[k] >= t->sent[k] - 1e-3;
  rank_log("no message seen before it was sent: %s", seen_after_sent ? "yes" : "no");
  if (ordered_by_time)
    rank_log("messages taken in the order they were sent: %s",
             t->sent[0] <= after[t->source[1]] ? "yes" : "no");
  else
    rank_log("took rank %d's message, then rank %d's", t->source[0], t->source[1]);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  require_ranks(3);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "";
  const int give_up = strcmp(mode, "give-up") == 0;
  if (!give_up && strcmp(mode, "any") && strcmp(mode, "improbe") && strcmp(mode, "source")) {
    if (rank == 0)
      fprintf(stderr, "usage: spin_poll any|improbe|source|give-up\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1 || rank == 2) {
    if (give_up) {
      int go;
      MPI_Recv(&go, 1, MPI_INT, 0, kTag + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    sleep_ms(give_up ? 300 + 150 * rank : 100 + 150 * (rank - 1));
    if (rank == 1 && !give_up) {
      const unsigned work_loop = first_site;
      vcmon_loop_enter(work_loop);
      for (unsigned i = 0; i < 6000; ++i) {
        vcmon_loop_iter(work_loop);
        sink += i;
      }
      vcmon_loop_exit(work_loop);
    }
    const double sent = MPI_Wtime();
    MPI_Send(&sent, 1, MPI_DOUBLE, 0, kTag, MPI_COMM_WORLD);
    const double after = MPI_Wtime();
    MPI_Send(&after, 1, MPI_DOUBLE, 0, kTag + 2, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Status status;
    struct taken taken;
    if (give_up) {
      const double start = MPI_Wtime();
      const int go = 1;
      MPI_Send(&go, 1, MPI_INT, 1, kTag + 1, MPI_COMM_WORLD);
      MPI_Send(&go, 1, MPI_INT, 2, kTag + 1, MPI_COMM_WORLD);
      const unsigned poll_loop = first_site + 1;
      int found = 0;
      vcmon_loop_enter(poll_loop);
      for (; !found && MPI_Wtime() - start < 0.3;) {
        vcmon_loop_iter(poll_loop);
        MPI_Iprobe(MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &found, &status);
      }
      vcmon_loop_exit(poll_loop);
      rank_log("found a message within 300 ms: %s", found ? "yes" : "no");
      for (int k = 0; k < 2; ++k) {
        MPI_Recv(&taken.sent[k], 1, MPI_DOUBLE, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &status);
        taken.seen[k] = MPI_Wtime();
        taken.source[k] = status.MPI_SOURCE;
      }
      log_taken(&taken, 1);
    } else {
      const int named = strcmp(mode, "source") == 0;
      for (int k = 0; k < 2; ++k) {
        taken.sent[k] = take(named ? 2 - k : MPI_ANY_SOURCE, strcmp(mode, "improbe") == 0, &status);
        taken.seen[k] = MPI_Wtime();
        taken.source[k] = status.MPI_SOURCE;
      }
      log_taken(&taken, !named);
    }
  }
  rank_log_print();
  MPI_Finalize();
  return 0;
}
