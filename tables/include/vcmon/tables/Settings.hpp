// Every VCMON_* environment variable the runtime reads: its name, the values it takes, its
// default and what it does. The one description of them: the runtime parses with it,
// vcmon-config prints it, and the table in docs/runtime.md is generated from it (a test
// compares the two). No MPI: tools read it as well as the runtime.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace vcmon::tables {

enum class SettingKind {
  Integer,   // a decimal integer in [min, max]
  Choice,    // one of `choices`; the value is its index
  Directory, // a path (whether it can be used is for the reader to check)
};

struct Setting {
  std::string_view name{};
  SettingKind kind{};
  // Integer: the default value; Choice: the index of the default choice; Directory: unused.
  std::int64_t default_value = 0;
  std::int64_t min = 0; // Integer only
  std::int64_t max = 0;
  // Integer: what the number counts, for messages ("nanoseconds from 0 to 1000").
  std::string_view unit{};
  std::array<std::string_view, 4> choices{}; // Choice only; empty entries end the list
  std::string_view unset{};                  // Directory: what happens when it is not set
  std::string_view effect{};                 // one line, Markdown
};

inline constexpr Setting kSettings[] = {
    {.name = "VCMON_DISABLE",
     .kind = SettingKind::Choice,
     .choices = {"0", "1"},
     .effect = "`1`: probes return at once, MPI calls pass straight through, no profile"},
    {.name = "VCMON_OUTPUT",
     .kind = SettingKind::Directory,
     .unset = "the working directory",
     .effect = "where profiles are written; made (with its parents) when it does not exist; a "
               "relative path is from the working directory the program starts in, also when "
               "the program changes it later"},
    {.name = "VCMON_INJECT_PROBE_NS",
     .kind = SettingKind::Integer,
     .min = 0,
     .max = 1'000'000'000, // one second per probe: larger values are typing mistakes
     .unit = "nanoseconds",
     .effect = "testing: every probe costs N ns more (charged to intrusion)"},
    {.name = "VCMON_TEST_CLOCK_OFFSET_NS",
     .kind = SettingKind::Integer,
     .min = -3'600'000'000'000,
     .max = 3'600'000'000'000,
     .unit = "nanoseconds",
     .effect = "testing: rank r's clock is r × N ns ahead, for the offset correction to remove"},
    {.name = "VCMON_TEST_OFFSET_ERROR_NS",
     .kind = SettingKind::Integer,
     .min = -1'000'000'000,
     .max = 1'000'000'000,
     .unit = "nanoseconds",
     .effect = "testing: rank r's estimated clock offset is r × N ns short, so its clock reads "
               "r × N ns ahead of rank 0's after the correction, as a wrong estimate leaves it"},
    {.name = "VCMON_TEST_ESTIMATE_OFFSETS",
     .kind = SettingKind::Choice,
     .choices = {"0", "1"},
     .effect = "testing: `1`: clock offsets are estimated by round trips as between hosts, also "
               "between ranks of one host (which otherwise compute them exactly)"},
    {.name = "VCMON_DEADLOCK",
     .kind = SettingKind::Choice,
     .choices = {"cycle", "nullmsg"},
     .effect = "waiting-cycle strategy (docs/design.md, \"Waiting cycles\"; docs/deadlock.md)"},
    {.name = "VCMON_LOOKAHEAD_NS",
     .kind = SettingKind::Integer,
     .default_value = 1000,
     .min = 1,
     .max = 1'000'000'000,
     .unit = "nanoseconds",
     .effect = "`nullmsg` only: the lookahead a blocked rank adds to the bound it announces"},
    {.name = "VCMON_DEADLOCK_TIMEOUT_MS",
     .kind = SettingKind::Integer,
     .default_value = 1000,
     .min = 10,
     .max = 3'600'000,
     .unit = "milliseconds",
     .effect = "how long a call waits before it checks whether the program is deadlocked"},
    {.name = "VCMON_TRACE_WILDCARD",
     .kind = SettingKind::Directory,
     .unset = "no trace",
     .effect = "testing: every wildcard outcome, one line each, in `DIR/wildcard.<rank>.txt`, "
               "always a new file (`O_CREAT\\|O_EXCL\\|O_NOFOLLOW`: never through a link left "
               "there); when the name is taken, the first free `wildcard.<rank>-N.txt`, said "
               "once on stderr"},
    {.name = "VCMON_OVERFLOW_RECORDS",
     .kind = SettingKind::Integer,
     .default_value = 8192,
     .min = 64,
     .max = 1 << 24,
     .unit = "a record count",
     .effect = "entries of the shared overflow table (rounded up to a power of two)"},
    {.name = "VCMON_MAX_CONTEXTS",
     .kind = SettingKind::Integer,
     .default_value = 100'000,
     .min = 64,
     .max = 1 << 22,
     .unit = "a context count",
     .effect = "calling contexts per thread; activations beyond fold into their caller's "
               "context, counted as folded (docs/runtime.md, \"Calling contexts\")"},
    {.name = "VCMON_WTIME",
     .kind = SettingKind::Choice,
     .choices = {"real", "virtual"},
     .effect = "`virtual`: `MPI_Wtime` returns this rank's virtual time (real time minus the "
               "monitor's intrusion), so the program's own timers describe the unmonitored "
               "program"},
    {.name = "VCMON_THROTTLE_CALLS",
     .kind = SettingKind::Integer,
     .default_value = 100'000,
     .min = 0,
     .max = 1'000'000'000,
     .unit = "an activation count",
     .effect = "activations of a procedure on a thread after which it is throttled if fast "
               "(see \"Throttling\"); `0`: never"},
    {.name = "VCMON_THROTTLE_NS",
     .kind = SettingKind::Integer,
     .default_value = 1000,
     .min = 1,
     .max = 1'000'000'000,
     .unit = "nanoseconds",
     .effect = "the mean time per activation below which it is throttled"},
    {.name = "VCMON_LOG",
     .kind = SettingKind::Choice,
     .default_value = 2,
     .choices = {"error", "warning", "info", "debug"},
     .effect = "how much the runtime says on stderr, one line per message, `vcmon: ` first: "
               "errors (a profile not written), warnings (a bad setting, no shared memory, "
               "folded activations), the run's summary line and the profile's path, and with "
               "`debug` how long the monitor's start-up and shutdown took on each rank and "
               "what it charges for each probe there"},
    {.name = "VCMON_STAMP_RING",
     .kind = SettingKind::Integer,
     .default_value = 128,
     .min = 0,
     .max = 65536,
     .unit = "a slot count",
     .effect = "slots of each shared-memory stamp ring between two ranks of a node (64 bytes "
               "each, rounded up to a power of two); `0`: every stamp travels as an MPI message, "
               "as between nodes (docs/pmpi.md, stamp transport)"},
    {.name = "VCMON_PROFILE_IO",
     .kind = SettingKind::Choice,
     .choices = {"mpiio", "gather"},
     .effect = "how the ranks write the profile: `mpiio`, each its own records at its own "
               "offset (MPI-IO), rank 0 collecting them where MPI-IO cannot open the file; "
               "`gather`, rank 0 always collects them, a few ranks at a time (docs/runtime.md, "
               "\"Writing the profile\")"},
    {.name = "VCMON_PUBLISH_MS",
     .kind = SettingKind::Integer,
     .default_value = 500,
     .min = 0,
     .max = 3'600'000,
     .unit = "milliseconds",
     .effect = "how often each rank refreshes its live segment for `vcmon-query` (docs/query.md); "
               "`0`: no live publication"},
};

// VCMON_* variables that vcmon's command-line tools read, not the runtime (docs/instrument.md):
// a monitored program started from a shell that builds with them must not call them unknown.
inline constexpr std::string_view kToolVariables[] = {"VCMON_STRICT", "VCMON_INSTRUMENT_FLAGS",
                                                      "VCMON_LIBDIR", "VCMON_WRAPPED_COMPILER",
                                                      "VCMON_MPIEXEC"};

// Whether `name` is a setting or a tool variable.
bool known_variable(std::string_view name);
// One line (without the "vcmon: " prefix) for each VCMON_* variable of `environment` (an
// `environ`-style list) that is neither, naming the closest setting:
// "VCMON_OUTPT is not a vcmon setting; ignored (did you mean VCMON_OUTPUT?)".
std::vector<std::string> unknown_variable_notices(const char* const* environment);
// Whether `path` is a directory this process can create files in: what a Directory setting
// must name.
bool writable_directory(const std::string& path);

// The setting named `name`. In a constant expression an unknown name does not compile.
constexpr const Setting& setting(std::string_view name) {
  for (const Setting& s : kSettings) {
    if (s.name == name) {
      return s;
    }
  }
  throw "no such VCMON_* setting";
}

// The value `text` gives the setting (Integer: the number; Choice: the index of the choice;
// Directory: 0 for any non-empty path), or nullopt when it is not one the setting takes.
std::optional<std::int64_t> parse_setting(const Setting& setting, std::string_view text);
// What an invalid value should have been: "nanoseconds from 0 to 1000000000", "cycle or
// nullmsg", "a writable directory".
std::string expected_values(const Setting& setting);
// The default as a message shows it: "1000", "cycle", "(the working directory)".
std::string default_text(const Setting& setting);
// The one line said about an invalid value (without the "vcmon: " prefix):
// "VCMON_X=value: expected ...; using default ...".
std::string rejection(const Setting& setting, std::string_view text);
// The known setting whose name is closest to `name` (edit distance): for a misspelt variable.
const Setting& closest_setting(std::string_view name);
// The table of docs/runtime.md, "Configuration": a Markdown table, one row per setting.
std::string settings_markdown_table();

} // namespace vcmon::tables
