#include "ExportChecks.hpp"

#include "vcmon/report/FoldedStacksRenderer.hpp"
#include "vcmon/report/HatchetRenderer.hpp"
#include "vcmon/report/SpeedscopeRenderer.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

namespace vcmon::report::testing {
namespace {

template <class Renderer> std::string render(const Report& report) {
  std::ostringstream out;
  Renderer().render(report, out);
  return out.str();
}

bool is_uint(const Json& j) {
  return j.is_number_unsigned();
}
bool is_int(const Json& j) {
  return j.is_number_integer();
}

std::vector<std::string> keys_of(const Json& object) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : object.items()) {
    keys.push_back(key);
  }
  return keys;
}

// White space then digits (and an optional fraction) at the end: flamegraph.pl's count.
bool ends_in_count(const std::string& text, std::string* stack, std::string* count) {
  std::size_t end = text.size();
  std::size_t i = end;
  while (i > 0 && (std::isdigit(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '.')) {
    --i;
  }
  if (i == end || !std::isdigit(static_cast<unsigned char>(text[i])) || i == 0 ||
      !std::isspace(static_cast<unsigned char>(text[i - 1]))) {
    return false;
  }
  if (count != nullptr) {
    *count = text.substr(i);
  }
  std::size_t s = i - 1; // `\s+?` is lazy: the stack keeps any further white space
  if (stack != nullptr) {
    *stack = text.substr(0, s);
  }
  return true;
}

} // namespace

std::string render_hatchet(const Report& report) {
  return render<HatchetRenderer>(report);
}
std::string render_speedscope(const Report& report) {
  return render<SpeedscopeRenderer>(report);
}
std::string render_folded(const Report& report) {
  return render<FoldedStacksRenderer>(report);
}

std::vector<std::string> hatchet_problems(const Json& literal) {
  std::vector<std::string> problems;
  auto problem = [&](const std::string& where, const std::string& what) {
    problems.push_back(where + ": " + what);
  };
  if (!literal.is_array()) {
    problem("literal", "not a list of roots");
    return problems;
  }
  const std::vector<std::string> node_keys = {"frame", "metrics", "children"};
  const std::vector<std::string> frame_keys = {"name", "type", "file", "line"};
  const std::vector<std::string> metric_keys = {"time (inc)", "time", "count", "bytes (inc)",
                                                "bytes"};
  const std::set<std::string> types = {"function", "loop", "statement", "partner"};
  struct Item {
    const Json* node;
    std::string where;
    std::string parent_type;
  };
  std::vector<Item> stack;
  for (std::size_t i = 0; i < literal.size(); ++i) {
    stack.push_back({&literal[i], "root " + std::to_string(i), ""});
  }
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    const Json& node = *item.node;
    if (!node.is_object() || keys_of(node) != node_keys) {
      problem(item.where, "a node has exactly frame, metrics, children");
      continue;
    }
    const Json& frame = node["frame"];
    const Json& metrics = node["metrics"];
    const Json& children = node["children"];
    if (!frame.is_object() || keys_of(frame) != frame_keys) {
      problem(item.where, "frame has exactly name, type, file, line");
      continue;
    }
    // The reader takes the dataframe's name from frame["name"], falling back to the node's
    // "name" when it is missing or empty: there is none, so it must be there.
    if (!frame["name"].is_string() || frame["name"].get<std::string>().empty()) {
      problem(item.where, "frame.name is a non-empty string");
      continue;
    }
    const std::string where = item.where + " (" + frame["name"].get<std::string>() + ")";
    if (!frame["type"].is_string() || types.count(frame["type"].get<std::string>()) == 0) {
      problem(where, "frame.type is function, loop, statement or partner");
    }
    if (!frame["file"].is_string() || !is_uint(frame["line"])) {
      problem(where, "frame.file is a string and frame.line an unsigned integer");
    }
    const std::string type = frame["type"].is_string() ? frame["type"].get<std::string>() : "";
    if (type == "partner" && item.parent_type != "statement") {
      problem(where, "a partner is a child of a statement");
    }
    // LiteralReader: one metric set for every node; names with "(inc)" are inclusive.
    if (!metrics.is_object() || keys_of(metrics) != metric_keys) {
      problem(where, "metrics are exactly time (inc), time, count, bytes (inc), bytes");
      continue;
    }
    if (!is_int(metrics["time (inc)"]) || !is_int(metrics["time"]) ||
        !is_uint(metrics["bytes (inc)"]) || !is_uint(metrics["bytes"])) {
      problem(where, "times are integers and bytes unsigned integers");
      continue;
    }
    if (!metrics["count"].is_number() || metrics["count"].get<double>() < 0) {
      problem(where, "count is a number >= 0");
    }
    if (!children.is_array()) {
      problem(where, "children is a list");
      continue;
    }
    std::int64_t time = 0, bytes = 0;
    bool children_ok = true;
    for (std::size_t c = 0; c < children.size(); ++c) {
      const Json& child = children[c];
      if (!child.is_object() || !child.contains("metrics") || !child["metrics"].is_object() ||
          !is_int(child["metrics"].value("time (inc)", Json())) ||
          !is_int(child["metrics"].value("bytes (inc)", Json()))) {
        children_ok = false;
      } else {
        time += child["metrics"]["time (inc)"].get<std::int64_t>();
        bytes += child["metrics"]["bytes (inc)"].get<std::int64_t>();
      }
      stack.push_back({&child, where + " > child " + std::to_string(c), type});
    }
    if (children_ok &&
        metrics["time (inc)"].get<std::int64_t>() != metrics["time"].get<std::int64_t>() + time) {
      problem(where, "time (inc) " + metrics["time (inc)"].dump() + " != time " +
                         metrics["time"].dump() + " + children " + std::to_string(time));
    }
    if (children_ok && metrics["bytes (inc)"].get<std::int64_t>() !=
                           metrics["bytes"].get<std::int64_t>() + bytes) {
      problem(where, "bytes (inc) != bytes + children");
    }
  }
  return problems;
}

std::vector<HatchetNode> flatten_hatchet(const Json& literal) {
  std::vector<HatchetNode> out;
  struct Item {
    const Json* node;
    std::string prefix;
    std::size_t depth;
  };
  std::vector<Item> stack;
  for (std::size_t i = literal.size(); i-- > 0;) {
    stack.push_back({&literal[i], "", 0});
  }
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    const Json& node = *item.node;
    HatchetNode h;
    h.name = node["frame"]["name"].get<std::string>();
    h.type = node["frame"]["type"].get<std::string>();
    h.path = item.prefix.empty() ? h.name : item.prefix + ";" + h.name;
    h.inclusive = node["metrics"]["time (inc)"].get<std::int64_t>();
    h.exclusive = node["metrics"]["time"].get<std::int64_t>();
    h.bytes_inclusive = node["metrics"]["bytes (inc)"].get<std::int64_t>();
    h.bytes_exclusive = node["metrics"]["bytes"].get<std::int64_t>();
    h.count = node["metrics"]["count"].get<double>();
    h.depth = item.depth;
    h.children = node["children"].size();
    const auto& children = node["children"];
    for (std::size_t c = children.size(); c-- > 0;) {
      stack.push_back({&children[c], h.path, item.depth + 1});
    }
    out.push_back(std::move(h));
  }
  return out;
}

std::vector<std::string> speedscope_problems(const Json& file) {
  std::vector<std::string> problems;
  auto problem = [&](const std::string& what) { problems.push_back(what); };
  if (!file.is_object()) {
    problem("the file is not an object");
    return problems;
  }
  // FileFormat.File: required $schema, profiles, shared; optional name, activeProfileIndex,
  // exporter (version appears in the TypeScript interface, not in the schema).
  const std::set<std::string> known = {
      "$schema", "shared", "profiles", "name", "activeProfileIndex", "exporter", "version"};
  for (const auto& key : keys_of(file)) {
    if (known.count(key) == 0) {
      problem("unknown top-level field " + key);
    }
  }
  for (const char* required : {"$schema", "profiles", "shared"}) {
    if (!file.contains(required)) {
      problem(std::string("missing ") + required);
    }
  }
  if (!problems.empty()) {
    return problems;
  }
  if (file["$schema"] != "https://www.speedscope.app/file-format-schema.json") {
    problem("$schema is not speedscope's");
  }
  if (file.contains("name") && !file["name"].is_string()) {
    problem("name is not a string");
  }
  if (file.contains("exporter") && !file["exporter"].is_string()) {
    problem("exporter is not a string");
  }
  const Json& shared = file["shared"];
  if (!shared.is_object() || !shared.contains("frames") || !shared["frames"].is_array()) {
    problem("shared.frames is not a list");
    return problems;
  }
  const Json& frames = shared["frames"];
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const Json& f = frames[i];
    const std::string where = "frame " + std::to_string(i);
    if (!f.is_object() || !f.contains("name") || !f["name"].is_string()) {
      problem(where + ": name is required and a string");
      continue;
    }
    for (const auto& key : keys_of(f)) {
      if (key != "name" && key != "file" && key != "line" && key != "col") {
        problem(where + ": unknown field " + key);
      }
    }
    if ((f.contains("file") && !f["file"].is_string()) ||
        (f.contains("line") && !f["line"].is_number()) ||
        (f.contains("col") && !f["col"].is_number())) {
      problem(where + ": file is a string, line and col numbers");
    }
  }
  const Json& profiles = file["profiles"];
  if (!profiles.is_array() || profiles.empty()) {
    problem("profiles is not a non-empty list");
    return problems;
  }
  if (file.contains("activeProfileIndex") &&
      (!file["activeProfileIndex"].is_number_unsigned() ||
       file["activeProfileIndex"].get<std::size_t>() >= profiles.size())) {
    problem("activeProfileIndex is not a profile's index");
  }
  const std::set<std::string> units = {"none",         "nanoseconds", "microseconds",
                                       "milliseconds", "seconds",     "bytes"};
  for (std::size_t p = 0; p < profiles.size(); ++p) {
    const Json& profile = profiles[p];
    const std::string where = "profile " + std::to_string(p);
    bool complete = profile.is_object();
    for (const char* required :
         {"type", "name", "unit", "startValue", "endValue", "samples", "weights"}) {
      complete = complete && profile.contains(required);
    }
    if (!complete) {
      problem(where + ": a sampled profile has type, name, unit, startValue, endValue, samples "
                      "and weights");
      continue;
    }
    if (profile["type"] != "sampled") {
      problem(where + ": type is not sampled");
    }
    if (!profile["name"].is_string()) {
      problem(where + ": name is not a string");
    }
    if (!profile["unit"].is_string() || units.count(profile["unit"].get<std::string>()) == 0) {
      problem(where + ": unit is not one of speedscope's");
    }
    if (!profile["startValue"].is_number() || !profile["endValue"].is_number()) {
      problem(where + ": startValue and endValue are not numbers");
      continue;
    }
    const Json& samples = profile["samples"];
    const Json& weights = profile["weights"];
    if (!samples.is_array() || !weights.is_array() || samples.size() != weights.size()) {
      problem(where + ": samples and weights are not lists of the same length");
      continue;
    }
    std::int64_t total = 0;
    for (std::size_t s = 0; s < samples.size(); ++s) {
      if (!samples[s].is_array() || samples[s].empty()) {
        problem(where + ": sample " + std::to_string(s) + " is not a non-empty stack");
        continue;
      }
      for (const auto& index : samples[s]) {
        if (!index.is_number_unsigned() || index.get<std::size_t>() >= frames.size()) {
          problem(where + ": sample " + std::to_string(s) + " names no frame");
        }
      }
      if (!weights[s].is_number_integer() || weights[s].get<std::int64_t>() <= 0) {
        problem(where + ": weight " + std::to_string(s) + " is not a positive integer");
      } else {
        total += weights[s].get<std::int64_t>();
      }
    }
    const double span = profile["endValue"].get<double>() - profile["startValue"].get<double>();
    if (span < 0) {
      problem(where + ": endValue is before startValue");
    }
    if (span != static_cast<double>(total)) {
      problem(where + ": endValue - startValue != the sum of the weights");
    }
  }
  return problems;
}

std::vector<FoldedLine> parse_folded(const std::string& text, std::vector<std::string>& problems) {
  std::vector<FoldedLine> lines;
  std::istringstream in(text);
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::string where = "line " + std::to_string(number) + " '" + line + "'";
    std::string stack, count;
    if (!ends_in_count(line, &stack, &count)) {
      problems.push_back(where + ": flamegraph.pl would ignore it");
      continue;
    }
    if (ends_in_count(stack, nullptr, nullptr)) {
      problems.push_back(where + ": flamegraph.pl would read it as a differential");
      continue;
    }
    FoldedLine folded;
    if (count.find('.') != std::string::npos) {
      problems.push_back(where + ": the value is not an integer");
      continue;
    }
    folded.value = std::stoll(count);
    if (folded.value <= 0) {
      problems.push_back(where + ": the value is not positive");
    }
    std::size_t start = 0;
    while (true) {
      const std::size_t end = stack.find(';', start);
      folded.frames.push_back(stack.substr(start, end - start));
      if (end == std::string::npos) {
        break;
      }
      start = end + 1;
    }
    for (const auto& frame : folded.frames) {
      if (frame.empty() || std::any_of(frame.begin(), frame.end(), [](char c) {
            return std::isspace(static_cast<unsigned char>(c)) != 0;
          })) {
        problems.push_back(where + ": empty frame or white space in a frame");
      }
    }
    lines.push_back(std::move(folded));
  }
  return lines;
}

} // namespace vcmon::report::testing
