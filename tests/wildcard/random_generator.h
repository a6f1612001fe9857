/* Seeded random communication programs for the wildcard tests, shared by random_program.c
 * (which runs them under MPI) and wildcard_trace_check.cpp (which re-generates them to know
 * what each rank's trace must hold). C11 and C++20; everything is static inline.
 *
 * A program has 3-6 phases. In a phase, every rank
 *   1. works (0-300 us of sleep in a loop of 1-3 iterations, each with a loop probe),
 *   2. posts its sends with MPI_Isend, each after an optional short work: messages with tag
 *      RG_TAG_W to other ranks (taken with wildcard receives) and specific exchanges with tag
 *      RG_TAG_X,
 *   3. performs its receives in a random order, each after an optional short work: one
 *      wildcard receive per RG_TAG_W message addressed to it (MPI_Recv(MPI_ANY_SOURCE),
 *      MPI_Probe(MPI_ANY_SOURCE) + MPI_Recv, or an MPI_Iprobe loop + MPI_Recv) and one
 *      MPI_Recv(source, RG_TAG_X) per exchange,
 *   4. completes its sends with MPI_Waitall and ends the phase in MPI_Barrier or MPI_Allreduce.
 * Free of real deadlocks by construction: every rank posts all its sends before its first
 * blocking call, every receive has exactly one message to take, and a phase's messages are all
 * received before the collective that ends it (so no wildcard receive can see a message of
 * another phase). Messages are RG_MSG_INTS ints (16 bytes, eager): seed, phase, sender, index. */
#ifndef VCMON_TESTS_WILDCARD_RANDOM_GENERATOR_H
#define VCMON_TESTS_WILDCARD_RANDOM_GENERATOR_H

#include <stdint.h>

enum {
  RG_RANKS = 4,
  RG_TAG_W = 7,
  RG_TAG_X = 11,
  RG_MIN_PHASES = 3,
  RG_MAX_PHASES = 6,
  RG_MAX_W_PER_SENDER = 3,
  RG_MAX_X = 3,
  RG_MAX_SENDS = RG_MAX_W_PER_SENDER + RG_MAX_X,
  RG_MAX_RECVS = (RG_RANKS - 1) * RG_MAX_W_PER_SENDER + RG_MAX_X,
  RG_MSG_INTS = 4,
  RG_WILDCARD = -1
};

/* How a wildcard receive takes its message. */
enum { RG_RECV = 0, RG_PROBE = 1, RG_IPROBE = 2 };

typedef struct rg_send {
  int to;
  int tag;
  unsigned work_us; /* before the send; 0: none */
} rg_send;

typedef struct rg_recv {
  int from;   /* RG_WILDCARD for a tag-RG_TAG_W receive, else the source of an exchange */
  int method; /* RG_RECV, RG_PROBE or RG_IPROBE for a wildcard receive */
  unsigned work_us;
} rg_recv;

typedef struct rg_rank_phase {
  unsigned work_us;
  int work_iterations;
  int send_count;
  rg_send sends[RG_MAX_SENDS];
  int recv_count;
  rg_recv recvs[RG_MAX_RECVS];
} rg_rank_phase;

typedef struct rg_phase {
  int allreduce;  /* 1: ends in MPI_Allreduce, 0: in MPI_Barrier */
  int w_messages; /* all RG_TAG_W messages of the phase */
  rg_rank_phase ranks[RG_RANKS];
} rg_phase;

typedef struct rg_program {
  unsigned seed;
  int phase_count;
  rg_phase phases[RG_MAX_PHASES];
} rg_program;

/* splitmix64: the same sequence in C and C++ on every rank. */
static inline uint64_t rg_next(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static inline int rg_below(uint64_t* state, int n) {
  return (int)(rg_next(state) % (uint64_t)n);
}

static inline int rg_other_than(uint64_t* state, int rank) {
  const int r = rg_below(state, RG_RANKS - 1);
  return r >= rank ? r + 1 : r;
}

/* A short work before a send or receive: none half (send) or two thirds (receive) of the time,
 * so that some messages leave together and some receives are posted at once. */
static inline unsigned rg_short_work(uint64_t* state, int none_in_6) {
  return rg_below(state, 6) < none_in_6 ? 0u : (unsigned)(1 + rg_below(state, 100));
}

static inline void rg_generate(rg_program* program, unsigned seed) {
  uint64_t state = 0x5EED000000000000ull ^ (uint64_t)seed;
  program->seed = seed;
  program->phase_count = RG_MIN_PHASES + rg_below(&state, RG_MAX_PHASES - RG_MIN_PHASES + 1);
  for (int p = 0; p < program->phase_count; ++p) {
    rg_phase* phase = &program->phases[p];
    phase->allreduce = rg_below(&state, 2);
    phase->w_messages = 0;
    for (int r = 0; r < RG_RANKS; ++r) {
      rg_rank_phase* rank = &phase->ranks[r];
      rank->work_us = (unsigned)rg_below(&state, 301);
      rank->work_iterations = 1 + rg_below(&state, 3);
      rank->send_count = 0;
      rank->recv_count = 0;
    }
    /* Most tag-W messages go to one receiver of the phase, so that its wildcard receives
     * usually have several senders to choose from. */
    const int hot = rg_below(&state, RG_RANKS);
    for (int s = 0; s < RG_RANKS; ++s) {
      const int count = rg_below(&state, RG_MAX_W_PER_SENDER + 1);
      for (int i = 0; i < count; ++i) {
        const int to = (s != hot && rg_below(&state, 10) < 6) ? hot : rg_other_than(&state, s);
        rg_rank_phase* sender = &phase->ranks[s];
        sender->sends[sender->send_count].to = to;
        sender->sends[sender->send_count].tag = RG_TAG_W;
        ++sender->send_count;
        rg_rank_phase* receiver = &phase->ranks[to];
        receiver->recvs[receiver->recv_count].from = RG_WILDCARD;
        receiver->recvs[receiver->recv_count].method = rg_below(&state, 3);
        ++receiver->recv_count;
        ++phase->w_messages;
      }
    }
    const int exchanges = rg_below(&state, RG_MAX_X + 1);
    for (int x = 0; x < exchanges; ++x) {
      const int from = rg_below(&state, RG_RANKS);
      const int to = rg_other_than(&state, from);
      rg_rank_phase* sender = &phase->ranks[from];
      sender->sends[sender->send_count].to = to;
      sender->sends[sender->send_count].tag = RG_TAG_X;
      ++sender->send_count;
      rg_rank_phase* receiver = &phase->ranks[to];
      receiver->recvs[receiver->recv_count].from = from;
      receiver->recvs[receiver->recv_count].method = RG_RECV;
      ++receiver->recv_count;
    }
    /* Random posting orders (Fisher-Yates) and the short works. */
    for (int r = 0; r < RG_RANKS; ++r) {
      rg_rank_phase* rank = &phase->ranks[r];
      for (int i = rank->send_count - 1; i > 0; --i) {
        const int j = rg_below(&state, i + 1);
        const rg_send t = rank->sends[i];
        rank->sends[i] = rank->sends[j];
        rank->sends[j] = t;
      }
      for (int i = rank->recv_count - 1; i > 0; --i) {
        const int j = rg_below(&state, i + 1);
        const rg_recv t = rank->recvs[i];
        rank->recvs[i] = rank->recvs[j];
        rank->recvs[j] = t;
      }
      for (int i = 0; i < rank->send_count; ++i) {
        rank->sends[i].work_us = rg_short_work(&state, 3);
      }
      for (int i = 0; i < rank->recv_count; ++i) {
        rank->recvs[i].work_us = rg_short_work(&state, 4);
      }
    }
  }
}

/* Messages rank `to` receives in a phase from rank `from` with tag `tag`. */
static inline int rg_messages(const rg_phase* phase, int from, int to, int tag) {
  int n = 0;
  for (int i = 0; i < phase->ranks[from].send_count; ++i) {
    n += phase->ranks[from].sends[i].to == to && phase->ranks[from].sends[i].tag == tag;
  }
  return n;
}

/* Wildcard receives of a rank in a phase. */
static inline int rg_wildcard_receives(const rg_phase* phase, int rank) {
  int n = 0;
  for (int i = 0; i < phase->ranks[rank].recv_count; ++i) {
    n += phase->ranks[rank].recvs[i].from == RG_WILDCARD;
  }
  return n;
}

#endif /* VCMON_TESTS_WILDCARD_RANDOM_GENERATOR_H */
