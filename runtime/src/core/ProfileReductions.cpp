#include "core/ProfileReductions.hpp"

#include "core/ProfileTags.hpp"
#include "core/YieldingCompletion.hpp"

#include <algorithm>
#include <set>

namespace vcmon::runtime {
namespace {

// Names separated by NUL bytes: host names never contain one.
std::string join(const std::set<std::string>& names) {
  std::string joined;
  for (const std::string& name : names) {
    joined += name;
    joined += '\0';
  }
  return joined;
}

void add_joined(std::set<std::string>& names, const std::string& joined) {
  std::size_t start = 0;
  for (std::size_t end = joined.find('\0'); end != std::string::npos;
       start = end + 1, end = joined.find('\0', start)) {
    names.insert(joined.substr(start, end - start));
  }
}

void reduce_longest(void* in, void* inout, int* count, MPI_Datatype* /*type*/) {
  const auto* a = static_cast<const RankTimes*>(in);
  auto* b = static_cast<RankTimes*>(inout);
  for (int i = 0; i < *count; ++i) {
    if (a[i].virtual_ns > b[i].virtual_ns) {
      b[i] = a[i];
    }
  }
}

} // namespace

std::vector<std::string> distinct_hosts_at_rank0(MPI_Comm comm, const std::string& host) {
  int rank = 0;
  int size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  std::set<std::string> names{host};
  // A binomial tree: in step k a rank whose bit k is set sends what it has merged to the rank
  // 2^k below and is done; the others receive from the rank 2^k above, if there is one.
  for (int step = 1; step < size; step <<= 1) {
    if ((rank & step) != 0) {
      const std::string joined = join(names);
      std::uint64_t length = joined.size();
      yielding(PMPI_Isend, &length, 1, MPI_UINT64_T, rank - step, kHostsTag, comm);
      yielding(PMPI_Isend, joined.data(), static_cast<int>(joined.size()), MPI_CHAR, rank - step,
               kHostsTag, comm);
      return {};
    }
    if (rank + step < size) {
      std::uint64_t length = 0;
      yielding(PMPI_Irecv, &length, 1, MPI_UINT64_T, rank + step, kHostsTag, comm);
      std::string joined(length, '\0');
      yielding(PMPI_Irecv, joined.data(), static_cast<int>(length), MPI_CHAR, rank + step,
               kHostsTag, comm);
      add_joined(names, joined);
    }
  }
  return {names.begin(), names.end()};
}

RankTimes longest_rank_at_rank0(MPI_Comm comm, const RankTimes& mine) {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  PMPI_Type_contiguous(3, MPI_UINT64_T, &type);
  PMPI_Type_commit(&type);
  MPI_Op op = MPI_OP_NULL;
  PMPI_Op_create(&reduce_longest, 1, &op);
  RankTimes longest;
  yielding(PMPI_Ireduce, &mine, &longest, 1, type, op, 0, comm);
  PMPI_Op_free(&op);
  PMPI_Type_free(&type);
  return longest;
}

} // namespace vcmon::runtime
