// Wavefront OBJ reader for mesh worlds: `v` and `f` records only. Every other record (vn, vt,
// g, o, s, usemtl, mtllib, l, ...) and comments are ignored: Recast only needs the triangles,
// and walkability comes from the slope test, not from materials.
#include "host/navmesh/input_geometry.h"

#include <charconv>
#include <cmath>
#include <cstddef>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace crowd {

namespace {

// Where an error in the OBJ file is: the scenario and JSON path that reference the mesh (as
// every ScenarioError names them), then the OBJ file and line in the usual "file:line" form,
// e.g. "plaza.json: world.mesh: level.obj:12: face index 40 out of range (38 vertices)".
struct Location {
  const std::filesystem::path& obj_file;
  const std::string& scenario_file;
  const std::string& json_path;
};

[[noreturn]] void fail_at(const Location& where, std::size_t line, const std::string& problem) {
  throw ScenarioError(where.scenario_file, where.json_path,
                      where.obj_file.string() + ":" + std::to_string(line) + ": " + problem);
}

// Splits a line at spaces and tabs.
std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) {
      ++i;
    }
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') {
      ++i;
    }
    if (i > start) {
      fields.push_back(line.substr(start, i - start));
    }
  }
  return fields;
}

// Parses the whole field as a number; false when it is not one. A leading '+' is accepted
// (std::from_chars does not), and a value too large for a float is reported as infinite so
// that the caller's finiteness check names it.
bool parse_float(std::string_view text, float& value) {
  if (!text.empty() && text.front() == '+') {
    text.remove_prefix(1);
  }
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec == std::errc::result_out_of_range && ptr == end) {
    value = HUGE_VALF;
    return true;
  }
  return ec == std::errc() && ptr == end;
}

bool parse_int(std::string_view text, long long& value) {
  if (!text.empty() && text.front() == '+') {
    text.remove_prefix(1);
  }
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end;
}

// A face vertex `a`, `a/b`, `a/b/c` or `a//c`: sets the position index a. The texture and
// normal indices are not used, but they must be integers when present.
bool parse_face_vertex(std::string_view field, long long& index) {
  const std::size_t slash = field.find('/');
  if (!parse_int(field.substr(0, slash), index)) {
    return false;
  }
  if (slash == std::string_view::npos) {
    return true;
  }
  std::string_view rest = field.substr(slash + 1);
  const std::size_t slash2 = rest.find('/');
  const std::string_view texture = rest.substr(0, slash2);
  const std::string_view normal =
      slash2 == std::string_view::npos ? std::string_view() : rest.substr(slash2 + 1);
  long long unused = 0;
  const bool texture_ok = texture.empty() ? slash2 != std::string_view::npos // "a/" is not valid
                                          : parse_int(texture, unused);
  const bool normal_ok = slash2 == std::string_view::npos || parse_int(normal, unused);
  return texture_ok && normal_ok;
}

std::string quoted(std::string_view text) {
  return "'" + std::string(text) + "'";
}

} // namespace

InputGeometry load_obj(const std::filesystem::path& obj_file, const std::string& scenario_file,
                       const std::string& json_path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(obj_file, ec)) {
    throw ScenarioError(scenario_file, json_path, "file not found: " + obj_file.string());
  }
  std::ifstream in(obj_file, std::ios::binary);
  if (!in) {
    throw ScenarioError(scenario_file, json_path, "cannot open file: " + obj_file.string());
  }

  const Location where{obj_file, scenario_file, json_path};
  InputGeometry geometry;
  std::string line;
  std::size_t line_number = 0;
  std::vector<int> face;
  while (std::getline(in, line)) {
    ++line_number;
    std::string_view text(line);
    if (const std::size_t hash = text.find('#'); hash != std::string_view::npos) {
      text = text.substr(0, hash);
    }
    if (!text.empty() && text.back() == '\r') {
      text.remove_suffix(1); // CRLF files.
    }
    const std::vector<std::string_view> fields = split_fields(text);
    if (fields.empty()) {
      continue;
    }

    if (fields[0] == "v") {
      // `v x y z [w]`; anything after z (w, or the r g b colours some exporters append) is
      // not used.
      if (fields.size() < 4) {
        fail_at(where, line_number, "vertex needs 3 coordinates (v x y z)");
      }
      glm::vec3 v;
      for (int k = 0; k < 3; ++k) {
        const std::string_view field = fields[static_cast<std::size_t>(k) + 1];
        float value = 0.0f;
        if (!parse_float(field, value)) {
          fail_at(where, line_number, "vertex coordinate " + quoted(field) + " is not a number");
        }
        if (!std::isfinite(value)) {
          fail_at(where, line_number, "vertex coordinate " + quoted(field) + " is not finite");
        }
        v[k] = value;
      }
      geometry.vertices.push_back(v);
    } else if (fields[0] == "f") {
      if (fields.size() < 4) {
        fail_at(where, line_number, "face needs at least 3 vertices");
      }
      face.clear();
      const long long count = static_cast<long long>(geometry.vertices.size());
      for (std::size_t k = 1; k < fields.size(); ++k) {
        // `a`, `a/b`, `a/b/c` or `a//c`: only the position index a is used.
        const std::string_view field = fields[k];
        long long index = 0;
        if (!parse_face_vertex(field, index)) {
          fail_at(where, line_number, "face vertex " + quoted(field) + " is not an index");
        }
        // Positive indices count from 1; negative ones from the last vertex read so far.
        const long long resolved = index > 0 ? index - 1 : count + index;
        if (index == 0 || resolved < 0 || resolved >= count) {
          fail_at(where, line_number,
                  "face index " + std::to_string(index) + " out of range (" +
                      std::to_string(count) + " vertices)");
        }
        face.push_back(static_cast<int>(resolved));
      }
      // Fan triangulation, as OBJ polygons are meant to be planar and convex.
      for (std::size_t k = 1; k + 1 < face.size(); ++k) {
        geometry.triangles.emplace_back(face[0], face[k], face[k + 1]);
        geometry.walkable.push_back(1);
      }
    }
  }
  if (in.bad()) {
    throw ScenarioError(scenario_file, json_path, "cannot read file: " + obj_file.string());
  }
  if (geometry.triangles.empty()) {
    throw ScenarioError(scenario_file, json_path,
                        obj_file.string() + ": the mesh has no faces (no f records)");
  }
  geometry.update_bounds();
  return geometry;
}

} // namespace crowd
