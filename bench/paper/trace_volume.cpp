// trace_volume PROFILE TRACE_DIR: how large a full event trace of the run that wrote PROFILE
// would be, against the profile itself (bench/paper/run.sh, table 2).
//
// The trace holds the events vcmon's probes saw in that run, one OTF2 event each, as a tracer
// such as Score-P writes them: Enter and Leave of every procedure activation (a proc record's
// count) and of every loop execution (a loop record's count), and for every MPI operation (a
// com record's count, per partner) Enter and Leave of its MPI function with an MpiSend, MpiRecv
// or MpiCollectiveBegin/End between them. Loop iterations are not events (tracers do not record
// them). The profile holds how many events of each kind there were, not when: the writer nests
// them as the site tree says (a child's events spread evenly over its parent's activations
// and iterations) and spaces the timestamps evenly over the rank's real time. OTF2 stores a
// timestamp in fixed width, so the order and the times do not change the trace's size.
//
// Prints one line of key=value pairs:
//   ranks, profile_bytes (the file), records (how many dynamic records, over all ranks),
//   records_bytes (every rank's dynamic records as encoded),
//   events, trace_bytes (every file OTF2 wrote), loop_statements and loop_records_bytes (the
//   rank with the most communication statements in loops: those statements and the bytes of
//   their com records, the paper's "144 bytes"), paper_trace_bytes (the same statements'
//   operations as the paper's 20-byte start and end records, its "31.25 KB").
#include "vcmon/tables/Profile.hpp"

#include <otf2/otf2.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace fs = std::filesystem;
using namespace vcmon::tables;

namespace {

// The paper's trace record: line 2, type 2, source 4, destination 4, timestamp 8 bytes.
constexpr std::uint64_t kPaperTraceRecordBytes = 20;
// Deeper recursion than this is written flat rather than nested, so a recursive program cannot
// exhaust the stack.
constexpr int kMaxNesting = 256;

void check(OTF2_ErrorCode code, const char* what) {
  if (code != OTF2_SUCCESS) {
    throw std::runtime_error(std::string(what) + ": " + OTF2_Error_GetName(code));
  }
}

// How an MPI function shows in a trace: point-to-point sends and receives carry MpiSend and
// MpiRecv records, collectives a begin and an end record, everything else only Enter/Leave.
enum class MpiEventKind { Local, Send, Receive, SendReceive, Collective };

MpiEventKind mpi_event_kind(const std::string& function, std::int32_t partner) {
  auto contains = [&](const char* part) { return function.find(part) != std::string::npos; };
  if (partner == ComRecord::kCollective) {
    static const char* const collectives[] = {"Barrier",  "Bcast", "Reduce", "Gather",  "Scatter",
                                              "Alltoall", "Scan",  "Init",   "Finalize"};
    return std::any_of(std::begin(collectives), std::end(collectives), contains)
               ? MpiEventKind::Collective
               : MpiEventKind::Local;
  }
  if (contains("Sendrecv")) {
    return MpiEventKind::SendReceive;
  }
  if (contains("send") || contains("Send")) {
    return MpiEventKind::Send;
  }
  if (contains("recv") || contains("Recv")) {
    return MpiEventKind::Receive;
  }
  return MpiEventKind::Local;
}

// One trace event, as the walk produces it.
struct Event {
  enum Kind { Enter, Leave, Send, Receive, CollectiveBegin, CollectiveEnd } kind;
  std::uint32_t region = 0;
  std::uint32_t partner = 0;
  std::uint64_t bytes = 0;
};

// The share of `total` items that falls on execution `index` of `executions`, so that the
// shares over all executions add up to `total` and are spread evenly.
std::uint64_t share(std::uint64_t total, std::uint64_t index, std::uint64_t executions) {
  if (executions == 0) {
    return index == 0 ? total : 0;
  }
  const auto upto = [&](std::uint64_t i) {
    return static_cast<std::uint64_t>(static_cast<unsigned __int128>(total) * i / executions);
  };
  return upto(index + 1) - upto(index);
}

// Dense OTF2 region ids (readers expect them in order, without gaps): procedures and loops in
// site order, then each MPI function the run called, by name.
struct Regions {
  std::map<SiteId, std::uint32_t> of_site;
  std::map<std::string, std::uint32_t> of_function;

  explicit Regions(const Profile& profile) {
    std::uint32_t next = 0;
    for (const Site& site : profile.graph.sites()) {
      if (site.kind == SiteKind::Procedure || site.kind == SiteKind::Loop) {
        of_site[site.id] = next++;
      }
    }
    for (const RankRecords& records : profile.ranks) {
      for (const ComRecord& com : records.coms) {
        of_function.try_emplace(profile.graph.site(com.comm).name, 0);
      }
    }
    for (auto& [function, id] : of_function) {
      id = next++;
    }
  }
};

// Replays one rank's records as nested events. Every record's events are produced exactly
// once: what the site tree does not reach (synthetic statements of MPI calls made outside
// instrumented code) comes after the roots, at the top level.
class RankWalk {
public:
  RankWalk(const ProgramGraph& graph, const Regions& regions, const RankRecords& records,
           std::function<void(const Event&)> emit)
      : graph_(graph), regions_(regions), emit_(std::move(emit)) {
    for (const ProcRecord& proc : records.procs) {
      procs_[{proc.proc, proc.call_site}] = {proc.count, 0};
      activations_[proc.proc] += proc.count;
    }
    for (const LoopRecord& loop : records.loops) {
      loops_[loop.loop] = loop;
    }
    for (const ComRecord& com : records.coms) {
      coms_[com.comm].push_back({com, 0});
    }
  }

  void run() {
    for (auto& [key, progress] : procs_) {
      if (key.second == kNoSite) {
        while (progress.emitted < progress.total) {
          ++progress.emitted;
          activate(key.first, 0);
        }
      }
    }
    // Leftovers, flat.
    for (auto& [key, progress] : procs_) {
      for (; progress.emitted < progress.total; ++progress.emitted) {
        emit_({Event::Enter, regions_.of_site.at(key.first)});
        emit_({Event::Leave, regions_.of_site.at(key.first)});
      }
    }
    for (auto& [site, loop] : loops_) {
      for (; emitted_loops_[site] < loop.count; ++emitted_loops_[site]) {
        emit_({Event::Enter, regions_.of_site.at(site)});
        emit_({Event::Leave, regions_.of_site.at(site)});
      }
    }
    for (auto& [site, partners] : coms_) {
      for (Partner& partner : partners) {
        for (; partner.emitted < partner.record.count; ++partner.emitted) {
          operation(site, partner.record);
        }
      }
    }
  }

private:
  struct Progress {
    std::uint64_t total = 0, emitted = 0;
  };
  struct Partner {
    ComRecord record;
    std::uint64_t emitted = 0;
  };

  // One activation of `proc`: Enter, its share of its children, Leave.
  void activate(SiteId proc, int depth) {
    emit_({Event::Enter, regions_.of_site.at(proc)});
    const std::uint64_t index = activation_cursor_[proc]++;
    if (depth < kMaxNesting) {
      run_children(proc, index, activations_[proc], depth);
    }
    emit_({Event::Leave, regions_.of_site.at(proc)});
  }

  // One execution of `loop`: Enter, its share of the loop's iterations, each with its share of
  // the loop's children, Leave.
  void execute(SiteId loop, int depth) {
    const LoopRecord& record = loops_.at(loop);
    emit_({Event::Enter, regions_.of_site.at(loop)});
    const std::uint64_t execution = execution_cursor_[loop]++;
    if (depth < kMaxNesting) {
      if (record.iterations == 0) {
        run_children(loop, execution, record.count, depth);
      } else {
        const std::uint64_t iterations = share(record.iterations, execution, record.count);
        for (std::uint64_t i = 0; i < iterations; ++i) {
          run_children(loop, iteration_cursor_[loop]++, record.iterations, depth);
        }
      }
    }
    emit_({Event::Leave, regions_.of_site.at(loop)});
  }

  // Execution `index` of `executions` of a procedure or a loop iteration: each child's share.
  void run_children(SiteId parent, std::uint64_t index, std::uint64_t executions, int depth) {
    for (const SiteId child : graph_.children(parent)) {
      const Site& site = graph_.site(child);
      switch (site.kind) {
      case SiteKind::Loop: {
        const auto found = loops_.find(child);
        if (found == loops_.end()) {
          break;
        }
        for (std::uint64_t n = share(found->second.count, index, executions); n > 0; --n) {
          if (emitted_loops_[child] < found->second.count) {
            ++emitted_loops_[child];
            execute(child, depth + 1);
          }
        }
        break;
      }
      case SiteKind::Call: {
        const SiteId callee = graph_.callee_of(child);
        const auto found = procs_.find({callee, child});
        if (callee == kNoSite || found == procs_.end()) {
          break;
        }
        Progress& progress = found->second;
        for (std::uint64_t n = share(progress.total, index, executions); n > 0; --n) {
          if (progress.emitted < progress.total) {
            ++progress.emitted;
            activate(callee, depth + 1);
          }
        }
        break;
      }
      case SiteKind::Comm: {
        const auto found = coms_.find(child);
        if (found == coms_.end()) {
          break;
        }
        for (Partner& partner : found->second) {
          for (std::uint64_t n = share(partner.record.count, index, executions); n > 0; --n) {
            if (partner.emitted < partner.record.count) {
              ++partner.emitted;
              operation(child, partner.record);
            }
          }
        }
        break;
      }
      case SiteKind::Procedure:
        break;
      }
    }
  }

  void operation(SiteId comm, const ComRecord& record) {
    const std::string& function = graph_.site(comm).name;
    const std::uint32_t region = regions_.of_function.at(function);
    const std::uint32_t partner =
        record.partner < 0 ? 0 : static_cast<std::uint32_t>(record.partner);
    const std::uint64_t bytes = record.count == 0 ? 0 : record.bytes / record.count;
    emit_({Event::Enter, region});
    switch (mpi_event_kind(function, record.partner)) {
    case MpiEventKind::Send:
      emit_({Event::Send, region, partner, bytes});
      break;
    case MpiEventKind::Receive:
      emit_({Event::Receive, region, partner, bytes});
      break;
    case MpiEventKind::SendReceive:
      emit_({Event::Send, region, partner, bytes});
      emit_({Event::Receive, region, partner, bytes});
      break;
    case MpiEventKind::Collective:
      emit_({Event::CollectiveBegin, region});
      emit_({Event::CollectiveEnd, region, 0, bytes});
      break;
    case MpiEventKind::Local:
      break;
    }
    emit_({Event::Leave, region});
  }

  const ProgramGraph& graph_;
  const Regions& regions_;
  std::function<void(const Event&)> emit_;
  std::map<std::pair<SiteId, SiteId>, Progress> procs_;
  std::map<SiteId, std::uint64_t> activations_, activation_cursor_;
  std::map<SiteId, LoopRecord> loops_;
  std::map<SiteId, std::uint64_t> emitted_loops_, execution_cursor_, iteration_cursor_;
  std::map<SiteId, std::vector<Partner>> coms_;
};

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) {
  return OTF2_FLUSH;
}
OTF2_TimeStamp post_flush(void*, OTF2_FileType, OTF2_LocationRef) {
  return 0;
}

std::uint64_t directory_bytes(const fs::path& dir) {
  std::uint64_t bytes = 0;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) {
      bytes += entry.file_size();
    }
  }
  return bytes;
}

// Writes the trace; returns the number of events.
std::uint64_t write_trace(const Profile& profile, const fs::path& dir) {
  const Regions regions(profile);

  // The anchor file, the definitions and the event files all go into `dir`.
  fs::create_directories(dir);
  OTF2_Archive* archive =
      OTF2_Archive_Open(dir.c_str(), "trace", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                        OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (archive == nullptr) {
    throw std::runtime_error("cannot create the OTF2 archive " + dir.string());
  }
  const OTF2_FlushCallbacks flush{pre_flush, post_flush};
  check(OTF2_Archive_SetFlushCallbacks(archive, &flush, nullptr), "flush callbacks");
  check(OTF2_Archive_SetSerialCollectiveCallbacks(archive), "collective callbacks");
  check(OTF2_Archive_OpenEvtFiles(archive), "open event files");

  std::uint64_t all_events = 0, trace_end = 0;
  std::vector<std::uint64_t> events_per_rank;
  for (const RankRecords& records : profile.ranks) {
    // First count, so the timestamps can span the rank's real time.
    std::uint64_t events = 0;
    RankWalk(profile.graph, regions, records, [&](const Event&) { ++events; }).run();
    const std::uint64_t step =
        std::max<std::uint64_t>(1, records.real_ns / std::max<std::uint64_t>(1, events));
    OTF2_EvtWriter* writer =
        OTF2_Archive_GetEvtWriter(archive, static_cast<OTF2_LocationRef>(records.rank));
    std::uint64_t time = 0;
    RankWalk(profile.graph, regions, records, [&](const Event& event) {
      time += step;
      switch (event.kind) {
      case Event::Enter:
        check(OTF2_EvtWriter_Enter(writer, nullptr, time, event.region), "Enter");
        break;
      case Event::Leave:
        check(OTF2_EvtWriter_Leave(writer, nullptr, time, event.region), "Leave");
        break;
      case Event::Send:
        check(OTF2_EvtWriter_MpiSend(writer, nullptr, time, event.partner, 0, 0, event.bytes),
              "MpiSend");
        break;
      case Event::Receive:
        check(OTF2_EvtWriter_MpiRecv(writer, nullptr, time, event.partner, 0, 0, event.bytes),
              "MpiRecv");
        break;
      case Event::CollectiveBegin:
        check(OTF2_EvtWriter_MpiCollectiveBegin(writer, nullptr, time), "CollectiveBegin");
        break;
      case Event::CollectiveEnd:
        check(OTF2_EvtWriter_MpiCollectiveEnd(writer, nullptr, time, OTF2_COLLECTIVE_OP_BARRIER, 0,
                                              OTF2_UNDEFINED_UINT32, event.bytes, event.bytes),
              "CollectiveEnd");
        break;
      }
    }).run();
    check(OTF2_Archive_CloseEvtWriter(archive, writer), "close event writer");
    events_per_rank.push_back(events);
    all_events += events;
    trace_end = std::max(trace_end, time);
  }
  check(OTF2_Archive_CloseEvtFiles(archive), "close event files");
  // Each location's local definitions: none, as no ids need mapping, but readers open them.
  check(OTF2_Archive_OpenDefFiles(archive), "open definition files");
  for (const RankRecords& records : profile.ranks) {
    OTF2_DefWriter* local =
        OTF2_Archive_GetDefWriter(archive, static_cast<OTF2_LocationRef>(records.rank));
    check(OTF2_Archive_CloseDefWriter(archive, local), "close definition writer");
  }
  check(OTF2_Archive_CloseDefFiles(archive), "close definition files");

  // Global definitions: strings, the regions, one location per rank, MPI_COMM_WORLD.
  OTF2_GlobalDefWriter* defs = OTF2_Archive_GetGlobalDefWriter(archive);
  check(OTF2_GlobalDefWriter_WriteClockProperties(defs, 1000000000, 0, trace_end + 1,
                                                  OTF2_UNDEFINED_TIMESTAMP),
        "clock properties");
  std::uint32_t next_string = 0;
  const auto string = [&](const std::string& text) {
    check(OTF2_GlobalDefWriter_WriteString(defs, next_string, text.c_str()), "string");
    return next_string++;
  };
  const std::uint32_t empty = string("");
  for (const Site& site : profile.graph.sites()) {
    if (site.kind != SiteKind::Procedure && site.kind != SiteKind::Loop) {
      continue;
    }
    const bool procedure = site.kind == SiteKind::Procedure;
    const std::string name =
        procedure ? site.name : "loop@" + site.pos.file + ":" + std::to_string(site.pos.line);
    const std::uint32_t name_string = string(name);
    check(OTF2_GlobalDefWriter_WriteRegion(
              defs, regions.of_site.at(site.id), name_string, name_string, empty,
              procedure ? OTF2_REGION_ROLE_FUNCTION : OTF2_REGION_ROLE_LOOP, OTF2_PARADIGM_USER,
              OTF2_REGION_FLAG_NONE, string(site.pos.file), site.pos.line, site.pos.line),
          "region");
  }
  for (const auto& [function, id] : regions.of_function) {
    const std::uint32_t name = string(function);
    check(OTF2_GlobalDefWriter_WriteRegion(defs, id, name, name, empty, OTF2_REGION_ROLE_FUNCTION,
                                           OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, empty, 0, 0),
          "MPI region");
  }
  check(OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, 0, string("machine"), string("node"),
                                                 OTF2_UNDEFINED_SYSTEM_TREE_NODE),
        "system tree");
  std::vector<std::uint64_t> members;
  for (std::size_t i = 0; i < profile.ranks.size(); ++i) {
    const auto rank = static_cast<std::uint32_t>(profile.ranks[i].rank);
    const std::string name = "rank " + std::to_string(rank);
    check(OTF2_GlobalDefWriter_WriteLocationGroup(defs, rank, string(name),
                                                  OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                  OTF2_UNDEFINED_LOCATION_GROUP),
          "location group");
    check(OTF2_GlobalDefWriter_WriteLocation(
              defs, rank, string(name), OTF2_LOCATION_TYPE_CPU_THREAD, events_per_rank[i], rank),
          "location");
    members.push_back(rank);
  }
  const std::uint32_t world = string("MPI_COMM_WORLD");
  check(OTF2_GlobalDefWriter_WriteGroup(defs, 0, world, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                        OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                        static_cast<std::uint32_t>(members.size()), members.data()),
        "locations group");
  check(OTF2_GlobalDefWriter_WriteGroup(defs, 1, world, OTF2_GROUP_TYPE_COMM_GROUP,
                                        OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                        static_cast<std::uint32_t>(members.size()), members.data()),
        "communicator group");
  check(OTF2_GlobalDefWriter_WriteComm(defs, 0, world, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
        "communicator");
  check(OTF2_Archive_Close(archive), "close archive");
  return all_events;
}

// The rank with the most communication statements directly in loops; those statements and
// the bytes their com records take (encoded as in the profile).
struct LoopStatements {
  std::int32_t rank = 0;
  std::size_t statements = 0;
  std::uint64_t record_bytes = 0;
  std::uint64_t operations = 0;
};

LoopStatements loop_statements(const Profile& profile) {
  LoopStatements best;
  for (const RankRecords& records : profile.ranks) {
    // The site records alone: a calling context is stored against its site's records, so
    // contexts kept while those are cleared would be encoded in full.
    RankRecords only_loops = records;
    only_loops.contexts.clear();
    only_loops.procs.clear();
    only_loops.loops.clear();
    only_loops.coms.clear();
    const std::size_t empty_bytes = encode_rank_records(only_loops).size();
    std::vector<SiteId> statements;
    std::uint64_t operations = 0;
    for (const ComRecord& com : records.coms) {
      const SiteId parent = profile.graph.site(com.comm).parent;
      if (parent != kNoSite && profile.graph.site(parent).kind == SiteKind::Loop) {
        only_loops.coms.push_back(com);
        statements.push_back(com.comm);
        operations += com.count;
      }
    }
    std::sort(statements.begin(), statements.end());
    statements.erase(std::unique(statements.begin(), statements.end()), statements.end());
    if (statements.size() > best.statements) {
      best = {records.rank, statements.size(), encode_rank_records(only_loops).size() - empty_bytes,
              operations};
    }
  }
  return best;
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s PROFILE TRACE_DIR (TRACE_DIR must not exist)\n", argv[0]);
    return 2;
  }
  try {
    const fs::path profile_path = argv[1], trace_dir = fs::absolute(argv[2]);
    if (fs::exists(trace_dir)) {
      throw std::runtime_error(trace_dir.string() + " exists");
    }
    const Profile profile = read_profile_file(profile_path);
    std::uint64_t records_bytes = 0, record_count = 0;
    for (const RankRecords& records : profile.ranks) {
      records_bytes += encode_rank_records(records).size();
      record_count += records.procs.size() + records.loops.size() + records.coms.size();
    }
    const std::uint64_t events = write_trace(profile, trace_dir);
    const LoopStatements loops = loop_statements(profile);
    std::printf("ranks=%zu profile_bytes=%llu records=%llu records_bytes=%llu events=%llu "
                "trace_bytes=%llu "
                "loop_rank=%d loop_statements=%zu loop_records_bytes=%llu "
                "paper_trace_bytes=%llu\n",
                profile.ranks.size(), static_cast<unsigned long long>(fs::file_size(profile_path)),
                static_cast<unsigned long long>(record_count),
                static_cast<unsigned long long>(records_bytes),
                static_cast<unsigned long long>(events),
                static_cast<unsigned long long>(directory_bytes(trace_dir)), loops.rank,
                loops.statements, static_cast<unsigned long long>(loops.record_bytes),
                static_cast<unsigned long long>(2 * loops.operations * kPaperTraceRecordBytes));
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s: %s\n", argv[0], error.what());
    return 1;
  }
}
