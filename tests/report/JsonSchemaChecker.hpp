// Checks a JSON document against a JSON Schema, for the subset of keywords the report schema
// uses (type, enum, minimum, required, properties, additionalProperties: false, items, anyOf,
// $ref into #/$defs). nlohmann-json has no validator; a keyword outside the subset is refused
// rather than silently ignored.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace vcmon::report::testing {

class JsonSchemaChecker {
public:
  explicit JsonSchemaChecker(nlohmann::json schema);

  // Every violation as "<json pointer>: <what is wrong>"; empty when the document conforms.
  // Throws std::invalid_argument for a schema keyword outside the subset.
  std::vector<std::string> problems(const nlohmann::json& document) const;

private:
  void check(const nlohmann::json& schema, const nlohmann::json& value, const std::string& where,
             std::vector<std::string>& out) const;
  const nlohmann::json& resolve(const std::string& ref) const;

  nlohmann::json schema_;
};

} // namespace vcmon::report::testing
