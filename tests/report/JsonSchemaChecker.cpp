#include "JsonSchemaChecker.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace vcmon::report::testing {
namespace {

using nlohmann::json;

bool has_type(const json& value, const std::string& type) {
  if (type == "object")
    return value.is_object();
  if (type == "array")
    return value.is_array();
  if (type == "string")
    return value.is_string();
  if (type == "boolean")
    return value.is_boolean();
  if (type == "null")
    return value.is_null();
  if (type == "integer")
    return value.is_number_integer();
  if (type == "number")
    return value.is_number();
  throw std::invalid_argument("unknown schema type " + type);
}

// Keywords that only describe.
const std::set<std::string> kAnnotations = {"$schema", "$id", "title", "description", "$defs"};
const std::set<std::string> kChecked = {"type",     "enum",       "minimum",
                                        "required", "properties", "additionalProperties",
                                        "items",    "anyOf",      "$ref"};

} // namespace

JsonSchemaChecker::JsonSchemaChecker(json schema) : schema_(std::move(schema)) {}

std::vector<std::string> JsonSchemaChecker::problems(const json& document) const {
  std::vector<std::string> out;
  check(schema_, document, "", out);
  return out;
}

const json& JsonSchemaChecker::resolve(const std::string& ref) const {
  const std::string prefix = "#/$defs/";
  if (ref.rfind(prefix, 0) != 0 || !schema_["$defs"].contains(ref.substr(prefix.size()))) {
    throw std::invalid_argument("unsupported or dangling $ref " + ref);
  }
  return schema_["$defs"][ref.substr(prefix.size())];
}

void JsonSchemaChecker::check(const json& schema, const json& value, const std::string& where,
                              std::vector<std::string>& out) const {
  for (const auto& [keyword, _] : schema.items()) {
    if (!kAnnotations.contains(keyword) && !kChecked.contains(keyword)) {
      throw std::invalid_argument("schema keyword " + keyword + " is outside the checked subset");
    }
  }
  const std::string at = where.empty() ? "/" : where;
  if (schema.contains("$ref")) {
    check(resolve(schema["$ref"]), value, where, out);
  }
  if (schema.contains("anyOf")) {
    // When no option fits, the closest one's problems say what is wrong.
    std::vector<std::string> closest;
    bool any = false;
    for (const auto& option : schema["anyOf"]) {
      std::vector<std::string> found;
      check(option, value, where, found);
      if (found.empty()) {
        any = true;
        break;
      }
      // An option of the value's own type explains more than one that wanted another type.
      const bool wrong_type = found.front().rfind(at + ": is ", 0) == 0;
      if (closest.empty() || !wrong_type) {
        closest = std::move(found);
      }
    }
    if (!any) {
      out.push_back(at + ": matches none of anyOf");
      out.insert(out.end(), closest.begin(), closest.end());
    }
  }
  if (schema.contains("type")) {
    const auto& type = schema["type"];
    const bool ok = type.is_array() ? std::any_of(type.begin(), type.end(),
                                                  [&](const json& t) { return has_type(value, t); })
                                    : has_type(value, type);
    if (!ok) {
      out.push_back(at + ": is " + std::string(value.type_name()) + ", expected " + type.dump());
      return;
    }
  }
  if (schema.contains("enum")) {
    const auto& choices = schema["enum"];
    if (std::find(choices.begin(), choices.end(), value) == choices.end()) {
      out.push_back(at + ": " + value.dump() + " is not one of " + choices.dump());
    }
  }
  if (schema.contains("minimum") && value.is_number() &&
      value.get<double>() < schema["minimum"].get<double>()) {
    out.push_back(at + ": " + value.dump() + " is below " + schema["minimum"].dump());
  }
  if (value.is_object()) {
    for (const auto& key : schema.value("required", json::array())) {
      if (!value.contains(key.get<std::string>())) {
        out.push_back(at + ": lacks required key " + key.get<std::string>());
      }
    }
    const json properties = schema.value("properties", json::object());
    for (const auto& [key, member] : value.items()) {
      if (properties.contains(key)) {
        check(properties[key], member, where + "/" + key, out);
      } else if (schema.contains("additionalProperties") && !schema["additionalProperties"]) {
        out.push_back(at + ": unexpected key " + key);
      }
    }
  }
  if (value.is_array() && schema.contains("items")) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      check(schema["items"], value[i], where + "/" + std::to_string(i), out);
    }
  }
}

} // namespace vcmon::report::testing
