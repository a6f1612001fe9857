#include "MpiSummary.hpp"

#include <algorithm>
#include <iterator>
#include <map>

namespace vcmon::report {

TimeSplit split_time(const tables::JobSummary& summary) {
  TimeSplit split;
  const std::size_t n = summary.ranks.size();
  std::vector<std::int32_t> ranks(n);
  std::vector<double> application(n), mpi(n), percent(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& rank = summary.ranks[i];
    ranks[i] = rank.rank;
    application[i] = rank.application_ns;
    mpi[i] = rank.mpi_ns;
    split.ranks.push_back({rank.rank, rank.application_ns, rank.mpi_ns});
    percent[i] = split.ranks.back().mpi_percent();
  }
  split.application = RankStats::of(application, ranks);
  split.mpi = RankStats::of(mpi, ranks);
  split.mpi_percent = RankStats::of(percent, ranks);
  return split;
}

std::vector<MpiFunction> summarize_mpi_functions(std::span<const CommStatement> statements,
                                                 const TimeSplit& split) {
  std::map<std::string, MpiFunction> by_name;
  for (const auto& statement : statements) {
    auto& function = by_name[statement.name];
    function.name = statement.name;
    ++function.sites;
    function.count += statement.count;
    function.time_ns += statement.time.total;
  }
  std::vector<MpiFunction> functions;
  for (auto& [name, function] : by_name) {
    const double mpi = split.mpi.total, application = split.application.total;
    function.mpi_percent = mpi > 0 ? 100.0 * function.time_ns / mpi : 0;
    function.application_percent = application > 0 ? 100.0 * function.time_ns / application : 0;
    functions.push_back(std::move(function));
  }
  std::stable_sort(functions.begin(), functions.end(),
                   [](const auto& a, const auto& b) { return a.time_ns > b.time_ns; });
  return functions;
}

std::vector<CommStatement> order_by_bytes(std::span<const CommStatement> statements) {
  std::vector<CommStatement> sizes;
  std::copy_if(statements.begin(), statements.end(), std::back_inserter(sizes),
               [](const CommStatement& statement) { return statement.bytes > 0; });
  std::stable_sort(sizes.begin(), sizes.end(),
                   [](const auto& a, const auto& b) { return a.bytes > b.bytes; });
  return sizes;
}

} // namespace vcmon::report
