// A reader for the USD ASCII layers `crowd` writes, for tests (usdcat and Python's pxr are
// not Debian packages, so the tests cannot ask USD itself). It accepts the subset of the
// usda grammar the shot writer uses -- layer metadata `key = value`, `def TYPE "name"`
// blocks, `TYPE[] name.timeSamples = { code: [values], ... }`, `rel name = [<path>, ...]` --
// and fails the calling test (via the error string) on anything it does not understand.
#pragma once

#include <array>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace crowd::testing {

struct UsdaSamples {
  std::string type; ///< e.g. "point3f[]"
  /// Time code -> the array at that code; tuples flattened (point3f: 3 numbers per element,
  /// quath: 4), integers as numbers.
  std::map<long long, std::vector<double>> by_code;
  /// The plain value (`TYPE[] name = [...]`), for an attribute that is not time-sampled.
  std::vector<double> value;
  bool has_value = false;
  /// Attribute metadata (`TYPE name (\n key = value\n )`), values as written.
  std::map<std::string, std::string> metadata;

  /// The value at time `code` as USD resolves a held (not interpolated) attribute: the plain
  /// value when there are no samples, else the last sample at or before `code` (the first
  /// before the first sample). Empty when neither exists.
  std::vector<double> held_at(long long code) const {
    if (by_code.empty())
      return value;
    auto it = by_code.upper_bound(code);
    if (it != by_code.begin())
      --it;
    return it->second;
  }
};

struct UsdaLayer {
  std::string error; ///< Empty when the whole file was understood.
  std::string first_line;
  std::map<std::string, std::string> metadata;   ///< Layer metadata, values as written.
  std::vector<std::string> prims;                ///< "/Crowd", "/Crowd/Agents", ... in order.
  std::vector<std::string> prim_types;           ///< Same order: "Xform", "PointInstancer", ...
  std::vector<std::string> prim_specifiers;      ///< Same order: "def" or "over".
  std::map<std::string, UsdaSamples> attributes; ///< By "/Prim/path.name".
  std::map<std::string, std::vector<std::string>> relationships; ///< By "/Prim/path.name".
};

namespace usda_detail {

inline std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos)
    return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

/// "[(1, 2, 3), (4, 5, 6)]" or "[1, 2]" -> numbers; false on a syntax error or a tuple of
/// the wrong size.
inline bool parse_array(const std::string& text, std::size_t tuple_size, std::vector<double>& out) {
  if (text.size() < 2 || text.front() != '[' || text.back() != ']')
    return false;
  std::size_t i = 1;
  const std::size_t end = text.size() - 1;
  const auto skip_space = [&] {
    while (i < end && text[i] == ' ')
      ++i;
  };
  const auto number = [&]() -> bool {
    skip_space();
    std::size_t used = 0;
    try {
      out.push_back(std::stod(text.substr(i, 40), &used));
    } catch (...) {
      return false;
    }
    i += used;
    skip_space();
    return true;
  };
  skip_space();
  while (i < end) {
    if (tuple_size > 1) {
      if (text[i] != '(')
        return false;
      ++i;
      for (std::size_t k = 0; k < tuple_size; ++k) {
        if (!number())
          return false;
        if (k + 1 < tuple_size) {
          if (text[i] != ',')
            return false;
          ++i;
        }
      }
      if (text[i] != ')')
        return false;
      ++i;
    } else if (!number()) {
      return false;
    }
    skip_space();
    if (i < end) {
      if (text[i] != ',')
        return false;
      ++i;
      skip_space();
    }
  }
  return true;
}

inline std::size_t tuple_size_of(const std::string& type) {
  if (type == "point3f[]" || type == "vector3f[]" || type == "float3[]" || type == "color3f[]")
    return 3;
  if (type == "quath[]")
    return 4;
  return 1;
}

} // namespace usda_detail

inline UsdaLayer read_usda(const std::string& path) {
  using namespace usda_detail;
  UsdaLayer layer;
  std::ifstream in(path);
  std::string line;
  int number = 0;
  const auto fail = [&](const std::string& why) {
    layer.error = path + ":" + std::to_string(number) + ": " + why + ": " + line;
    return layer;
  };
  if (!std::getline(in, line))
    return fail("empty file");
  ++number;
  layer.first_line = line;
  std::vector<std::string> scope; // prim path components; "" for non-prim braces
  bool in_metadata = false, pending_def = false, in_samples = false, in_rel = false;
  int metadata_depth = 0;
  std::string current_attribute, current_rel, pending_name;
  std::string metadata_attribute; // the attribute whose metadata block is being read
  while (std::getline(in, line)) {
    ++number;
    std::string t = trim(line);
    if (t.empty())
      continue;
    const std::string prim_path = [&] {
      std::string p;
      for (const auto& s : scope)
        if (!s.empty())
          p += "/" + s;
      return p;
    }();
    if (in_samples) {
      if (t == "}") {
        in_samples = false;
        continue;
      }
      const auto colon = t.find(':');
      if (colon == std::string::npos || t.back() != ',')
        return fail("bad time sample");
      UsdaSamples& samples = layer.attributes[current_attribute];
      std::vector<double> values;
      if (!parse_array(trim(t.substr(colon + 1, t.size() - colon - 2)), tuple_size_of(samples.type),
                       values))
        return fail("bad array");
      samples.by_code[std::stoll(t.substr(0, colon))] = std::move(values);
      continue;
    }
    if (in_rel) {
      if (t == "]") {
        in_rel = false;
        continue;
      }
      if (t.front() != '<' || t.substr(t.size() - 2) != ">,")
        return fail("bad relationship target");
      layer.relationships[current_rel].push_back(t.substr(1, t.size() - 3));
      continue;
    }
    if (layer.prims.empty() && scope.empty() && t == "(" && !in_metadata) {
      in_metadata = true;
      continue;
    }
    if (in_metadata && scope.empty()) {
      if (t == ")") {
        in_metadata = false;
        continue;
      }
      const auto eq = t.find(" = ");
      if (eq == std::string::npos)
        return fail("bad layer metadata");
      layer.metadata[t.substr(0, eq)] = t.substr(eq + 3);
      continue;
    }
    const bool over = t.rfind("over ", 0) == 0;
    if (t.rfind("def ", 0) == 0 || over) {
      const auto q1 = t.find('"'), q2 = t.rfind('"');
      if (q1 == std::string::npos || q2 <= q1)
        return fail("bad def");
      pending_name = t.substr(q1 + 1, q2 - q1 - 1);
      layer.prims.push_back(prim_path + "/" + pending_name);
      const std::size_t keyword = over ? 5 : 4;
      layer.prim_types.push_back(trim(t.substr(keyword, q1 - keyword)));
      layer.prim_specifiers.push_back(over ? "over" : "def");
      pending_def = true;
      if (t.back() == '(')
        metadata_depth = 1;
      continue;
    }
    if (metadata_depth > 0) { // prim metadata: skipped; attribute metadata: kept
      if (t == ")") {
        metadata_depth = 0;
        metadata_attribute.clear();
      } else if (!metadata_attribute.empty()) {
        const auto eq = t.find(" = ");
        if (eq == std::string::npos)
          return fail("bad attribute metadata");
        layer.attributes[metadata_attribute].metadata[t.substr(0, eq)] = t.substr(eq + 3);
      }
      continue;
    }
    // An attribute's declaration opening its metadata: `TYPE name (`.
    if (t.size() > 2 && t.substr(t.size() - 2) == " (" && t.find(" = ") == std::string::npos) {
      const std::string declaration = t.substr(0, t.size() - 2);
      const auto space = declaration.rfind(' ');
      if (space == std::string::npos)
        return fail("bad attribute declaration");
      metadata_attribute = prim_path + "." + declaration.substr(space + 1);
      layer.attributes[metadata_attribute].type = declaration.substr(0, space);
      metadata_depth = 1;
      continue;
    }
    if (t == "{") {
      scope.push_back(pending_def ? pending_name : "");
      pending_def = false;
      continue;
    }
    if (t == "}") {
      if (scope.empty())
        return fail("unbalanced }");
      scope.pop_back();
      continue;
    }
    const auto ts = t.find(".timeSamples = {");
    if (ts != std::string::npos) {
      const auto space = t.rfind(' ', ts);
      current_attribute = prim_path + "." + t.substr(space + 1, ts - space - 1);
      layer.attributes[current_attribute].type = t.substr(0, space);
      layer.attributes[current_attribute].by_code.clear();
      in_samples = true;
      continue;
    }
    if (t.rfind("rel ", 0) == 0 && t.back() == '[') {
      current_rel = prim_path + "." + trim(t.substr(4, t.find('=') - 4));
      in_rel = true;
      continue;
    }
    // Other authored properties: `type name = value`, maybe followed by its metadata block
    // (`type name = value (`); arrays are kept as plain values.
    const auto eq = t.find(" = ");
    if (eq == std::string::npos)
      return fail("not understood");
    const bool opens_metadata = t.size() > 2 && t.substr(t.size() - 2) == " (";
    if (opens_metadata)
      t = t.substr(0, t.size() - 2);
    const auto space = t.rfind(' ', eq - 1);
    const std::string type = space == std::string::npos ? "" : trim(t.substr(0, space));
    const std::string value_type = type.rfind("uniform ", 0) == 0 ? type.substr(8) : type;
    const bool numeric_array = value_type == "float3[]" || value_type == "point3f[]" ||
                               value_type == "vector3f[]" || value_type == "quath[]" ||
                               value_type == "color3f[]" || value_type == "int[]" ||
                               value_type == "int64[]";
    if (numeric_array) {
      UsdaSamples& plain = layer.attributes[prim_path + "." + t.substr(space + 1, eq - space - 1)];
      plain.type = value_type;
      if (!parse_array(trim(t.substr(eq + 3)), tuple_size_of(plain.type), plain.value))
        return fail("bad array");
      plain.has_value = true;
    }
    if (opens_metadata) {
      metadata_attribute = prim_path + "." + t.substr(space + 1, eq - space - 1);
      metadata_depth = 1;
    }
  }
  if (!scope.empty() || in_samples || in_rel || in_metadata)
    return fail("file ends inside a block");
  return layer;
}

} // namespace crowd::testing
