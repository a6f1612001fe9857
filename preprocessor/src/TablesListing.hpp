// --list-tables: the six static tables as text, one row per line, sorted, each site shown by
// its position PATH:LINE:COLUMN (PATH as given on the command line):
//   PC <proc> <call> <callee>   PL <proc> <loop>   PCom <proc> <comm>
//   LL <loop> <inner>           LC <loop> <call> <callee>   LCom <loop> <comm>
// A callee that is not a procedure of the given files (or known only at run time) shows as "-".
#pragma once

#include "vcmon/tables/ProgramGraph.hpp"

#include <string>

namespace vcmon::preprocessor {

std::string list_tables(const tables::ProgramGraph& graph);

} // namespace vcmon::preprocessor
