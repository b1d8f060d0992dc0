// usda syntax as in the OpenUSD file-format docs: `#usda 1.0`, a parenthesised layer
// metadata block, `def TYPE "name" { ... }`, `TYPE[] name.timeSamples = { code: value, ... }`
// with arrays in brackets and tuples in parentheses, quaternions written (real, i, j, k),
// relationship targets as <paths>.
#include "host/output/usd_shot_writer.h"

#include "host/checkpoint/archive.h"
#include "host/output/number_format.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <set>
#include <stdexcept>

namespace crowd {
namespace {

constexpr std::array<const char*, 15> kAttributeDeclarations = {
    "point3f[] positions",
    "quath[] orientations",
    "vector3f[] velocities",
    "vector3f[] angularVelocities",
    "float3[] extent",
    "int[] primvars:crowd:gait",
    "float[] primvars:crowd:cyclePhase",
    "float[] primvars:crowd:playbackRate",
    "int64[] ids",
    "int[] protoIndices",
    "int64[] invisibleIds",
    "float3[] scales",
    "color3f[] primvars:displayColor",
    "int[] primvars:crowd:variation",
    "int[] primvars:crowd:variationSeed"};
constexpr std::array<const char*, 15> kAttributeFileSuffixes = {
    ".positions",    ".orientations", ".velocities",   ".angularVelocities",
    ".extent",       ".gait",         ".cyclePhase",   ".playbackRate",
    ".ids",          ".protoIndices", ".invisibleIds", ".scales",
    ".displayColor", ".variation",    ".variationSeed"};
/// Metadata of an attribute ("" for none): the primvars are per instance.
constexpr std::array<const char*, 15> kAttributeMetadata = {
    "",
    "",
    "",
    "",
    "",
    "doc = \"Locomotion gait of each instance: 0 idle, 1 walk, 2 run, 3 turn in place, 4 wait\"\n"
    "            interpolation = \"vertex\"",
    "doc = \"Where each instance is in its gait clip's cycle, [0, 1), from the distance walked\"\n"
    "            interpolation = \"vertex\"",
    "doc = \"Speed of each instance over its gait clip's authored speed (1 for idle, turn, "
    "wait)\"\n"
    "            interpolation = \"vertex\"",
    "",
    "",
    "",
    "",
    "interpolation = \"vertex\"",
    "doc = \"Variation index of each instance, in [0, variations of its type)\"\n"
    "            interpolation = \"vertex\"",
    "doc = \"Per-instance seed for the artist's own variation, from the scenario seed and agent "
    "id\"\n"
    "            interpolation = \"vertex\""};

// The stand-in prototype: a capsule of radius 0.25 m with a 1.2 m spine, feet at the origin
// (1.2 + 2 x 0.25 = 1.7 m tall, centred at 0.85 m). Its bounds about the instance's position
// are the same whatever the heading (it is round about +y).
constexpr float kCapsuleRadius = 0.25f;
constexpr float kCapsuleTop = 1.7f;

constexpr float kDegreesPerRadian = 57.29577951308232f;

const std::string kDefaultType = "agent";

/// "(x, y, z)", each in its shortest round-trip form.
void append_tuple(std::string& out, const glm::vec3& v) {
  out += '(';
  append_float(out, v.x);
  out += ", ";
  append_float(out, v.y);
  out += ", ";
  append_float(out, v.z);
  out += ')';
}

void append_double(std::string& out, double value) {
  char buf[32];
  const auto end = std::to_chars(buf, buf + sizeof buf, value).ptr;
  out.append(buf, end);
}

/// A prim name is an identifier: [A-Za-z_][A-Za-z0-9_]*.
std::string prim_name_for(const std::string& label) {
  std::string name;
  for (const char c : label)
    name += std::isalnum(static_cast<unsigned char>(c)) != 0 ? c : '_';
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) != 0)
    name.insert(0, "_");
  return name;
}

std::string usda_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

void copy_file_into(const std::filesystem::path& from, StreamingFile& to) {
  std::ifstream in(from, std::ios::binary);
  if (!in)
    throw std::runtime_error("film export: cannot read back " + from.string());
  std::string chunk(1 << 20, '\0');
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    const auto n = static_cast<std::size_t>(in.gcount());
    if (n > 0)
      to.append(std::string_view(chunk.data(), n));
  }
  if (in.bad())
    throw std::runtime_error("film export: cannot read back " + from.string());
}

} // namespace

UsdShotWriter::UsdShotWriter(std::filesystem::path path, double fps)
    : path_(std::move(path)), fps_(fps), buffers_(kAttributeCount),
      last_held_(kAttributeCount - kFirstHeld), held_samples_(kAttributeCount - kFirstHeld, 0) {
  for (const char* suffix : kAttributeFileSuffixes) {
    std::filesystem::path part = path_;
    part += suffix;
    samples_.push_back(std::make_unique<StreamingFile>(part, "film export"));
  }
}

UsdShotWriter::~UsdShotWriter() = default;

int UsdShotWriter::prototype_index(const std::string& name, const std::string& type) {
  const auto [it, inserted] =
      prototype_index_of_.emplace(name, static_cast<int>(prototype_names_.size()));
  if (inserted) {
    prototype_names_.push_back(name);
    prototype_types_.push_back(type);
  }
  return it->second;
}

void UsdShotWriter::write_frame(const FrameView& frame) {
  if (last_frame_ < 0)
    first_frame_ = frame.number;
  last_frame_ = frame.number;

  for (std::string& array : buffers_)
    array = "[";
  bool first_invisible = true;
  glm::vec3 lo{0.0f}, hi{0.0f};
  bool any_shown = false;
  const std::size_t count = frame.positions.size();
  for (std::size_t i = 0; i < count; ++i) {
    const char* sep = i == 0 ? "" : ", ";
    const glm::vec3 p = frame.positions[i];
    const glm::vec2 v = i < frame.velocities.size() ? frame.velocities[i] : glm::vec2(0.0f);
    buffers_[kPositions] += sep;
    append_tuple(buffers_[kPositions], p);
    // A rotation by h about +y: (cos h/2, 0, sin h/2, 0).
    const float h = i < frame.headings.size() ? frame.headings[i] : 0.0f;
    std::string& rot = buffers_[kOrientations];
    rot += sep;
    rot += '(';
    append_float(rot, std::cos(0.5f * h));
    rot += ", 0, ";
    append_float(rot, std::sin(0.5f * h));
    rot += ", 0)";
    std::string& vel = buffers_[kVelocities];
    vel += sep;
    vel += '(';
    append_float(vel, v.x);
    vel += ", 0, ";
    append_float(vel, v.y);
    vel += ')';
    std::string& spin = buffers_[kAngularVelocities];
    spin += sep;
    spin += "(0, ";
    append_float(spin,
                 (i < frame.turn_rates.size() ? frame.turn_rates[i] : 0.0f) * kDegreesPerRadian);
    spin += ", 0)";
    buffers_[kGait] += sep;
    append_int(buffers_[kGait],
               i < frame.gaits.size() ? static_cast<long long>(frame.gaits[i]) : 0LL);
    buffers_[kCyclePhase] += sep;
    append_float(buffers_[kCyclePhase],
                 i < frame.cycle_phases.size() ? frame.cycle_phases[i] : 0.0f);
    buffers_[kPlaybackRate] += sep;
    append_float(buffers_[kPlaybackRate],
                 i < frame.playback_rates.size() ? frame.playback_rates[i] : 1.0f);
    buffers_[kIds] += sep;
    append_int(buffers_[kIds], static_cast<long long>(i));
    const std::string& type = i < frame.types.size() ? frame.types[i] : kDefaultType;
    const CharacterLook* look = i < frame.looks.size() ? &frame.looks[i] : nullptr;
    buffers_[kProtoIndices] += sep;
    append_int(buffers_[kProtoIndices], prototype_index(look ? look->prototype : type, type));
    const float scale = look ? look->scale : 1.0f;
    buffers_[kScales] += sep;
    append_tuple(buffers_[kScales], glm::vec3(scale));
    buffers_[kDisplayColor] += sep;
    append_tuple(buffers_[kDisplayColor], look ? look->color : glm::vec3(1.0f));
    buffers_[kVariation] += sep;
    append_int(buffers_[kVariation], look ? look->variation : 0);
    buffers_[kVariationSeed] += sep;
    append_int(buffers_[kVariationSeed], look ? static_cast<long long>(look->seed) : 0LL);
    if (i < frame.phases.size() && !is_present(frame.phases[i])) {
      if (!first_invisible)
        buffers_[kInvisible] += ", ";
      first_invisible = false;
      append_int(buffers_[kInvisible], static_cast<long long>(i));
      continue;
    }
    const glm::vec3 low = p + scale * glm::vec3(-kCapsuleRadius, 0.0f, -kCapsuleRadius);
    const glm::vec3 high = p + scale * glm::vec3(kCapsuleRadius, kCapsuleTop, kCapsuleRadius);
    lo = any_shown ? glm::min(lo, low) : low;
    hi = any_shown ? glm::max(hi, high) : high;
    any_shown = true;
  }
  std::string& extent = buffers_[kExtent];
  append_tuple(extent, lo);
  extent += ", ";
  append_tuple(extent, hi);
  std::string line;
  for (int a = 0; a < kAttributeCount; ++a) {
    const auto index = static_cast<std::size_t>(a);
    buffers_[index] += ']';
    if (a >= kFirstHeld) {
      // Held between samples: a new sample only where the value changes.
      std::string& last = last_held_[index - kFirstHeld];
      if (held_samples_[index - kFirstHeld] > 0 && buffers_[index] == last)
        continue;
      last = buffers_[index];
      ++held_samples_[index - kFirstHeld];
    }
    line = "            ";
    append_int(line, frame.number);
    line += ": ";
    line += buffers_[index];
    line += ",\n";
    samples_[index]->append(line);
  }
}

void UsdShotWriter::finish() {
  StreamingFile out(path_, "film export");
  std::string head = "#usda 1.0\n(\n    defaultPrim = \"Crowd\"\n";
  head += "    doc = \"Crowd shot written by crowdsim: /Crowd/Agents is a PointInstancer with one "
          "prototype per character\"\n";
  head += "    endTimeCode = ";
  append_int(head, last_frame_ < 0 ? first_frame_ : last_frame_);
  head += "\n    framesPerSecond = ";
  append_double(head, fps_);
  head += "\n    metersPerUnit = 1\n    startTimeCode = ";
  append_int(head, first_frame_);
  head += "\n    timeCodesPerSecond = ";
  append_double(head, fps_);
  head += "\n    upAxis = \"Y\"\n)\n\n";
  head += "def Xform \"Crowd\"\n{\n    def PointInstancer \"Agents\"\n    {\n";
  out.append(head);
  for (int a = 0; a < kAttributeCount; ++a) {
    const auto index = static_cast<std::size_t>(a);
    if (a >= kFirstHeld && held_samples_[index - kFirstHeld] == 1) {
      // The same all shot long: a plain value (its metadata after it, as usda has it).
      std::string plain = std::string("        ") + kAttributeDeclarations[index] + " = " +
                          last_held_[index - kFirstHeld];
      if (kAttributeMetadata[index][0] != '\0')
        plain += std::string(" (\n            ") + kAttributeMetadata[index] + "\n        )";
      out.append(plain + "\n");
      continue;
    }
    if (kAttributeMetadata[index][0] != '\0')
      out.append(std::string("        ") + kAttributeDeclarations[index] + " (\n            " +
                 kAttributeMetadata[index] + "\n        )\n");
    out.append(std::string("        ") + kAttributeDeclarations[index] + ".timeSamples = {\n");
    copy_file_into(samples_[index]->temporary_path(), out);
    out.append("        }\n");
  }
  // Prototype prim names: the label made an identifier, made unique.
  std::vector<std::string> names;
  std::set<std::string> taken;
  for (const std::string& prototype : prototype_names_) {
    std::string name = prim_name_for(prototype);
    for (int n = 2; taken.contains(name); ++n)
      name = prim_name_for(prototype) + "_" + std::to_string(n);
    taken.insert(name);
    names.push_back(name);
  }
  std::string tail = "        rel prototypes = [\n";
  for (const std::string& name : names)
    tail += "            </Crowd/Agents/Prototypes/" + name + ">,\n";
  tail += "        ]\n\n        over \"Prototypes\"\n        {\n";
  for (std::size_t p = 0; p < names.size(); ++p) {
    tail += "            def Xform \"" + names[p] +
            "\" (\n                customData = {\n"
            "                    string crowdPrototype = " +
            usda_string(prototype_names_[p]) +
            "\n                    string crowdType = " + usda_string(prototype_types_[p]) +
            "\n                }\n            )\n            {\n";
    // Feet at the origin: 1.2 m spine + two 0.25 m caps = 1.7 m, centred at 0.85 m.
    tail += "                def Capsule \"body\"\n                {\n"
            "                    uniform token axis = \"Y\"\n"
            "                    float3[] extent = [(-0.25, -0.85, -0.25), (0.25, 0.85, 0.25)]\n"
            "                    double height = 1.2\n"
            "                    double radius = 0.25\n"
            "                    double3 xformOp:translate = (0, 0.85, 0)\n"
            "                    uniform token[] xformOpOrder = [\"xformOp:translate\"]\n"
            "                }\n            }\n";
  }
  tail += "        }\n    }\n}\n";
  out.append(tail);
  out.commit();
  if (keep_streams_)
    for (const auto& sample : samples_)
      sample->release();
  samples_.clear(); // removes the per-attribute temporaries (unless released)
}

void UsdShotWriter::save(ArchiveWriter& out) {
  for (const auto& sample : samples_)
    sample->save(out);
  out.fields(prototype_names_, prototype_types_);
  out.put(first_frame_);
  out.put(last_frame_);
  out.fields(last_held_, held_samples_);
}

void UsdShotWriter::restore(ArchiveReader& in) {
  for (const auto& sample : samples_)
    sample->restore(in, /*committed_is_stream=*/false);
  in.fields(prototype_names_, prototype_types_);
  in.expect(prototype_types_.size(), prototype_names_.size(), "the shot's prototype types");
  prototype_index_of_.clear();
  for (std::size_t p = 0; p < prototype_names_.size(); ++p)
    prototype_index_of_.emplace(prototype_names_[p], static_cast<int>(p));
  in.get(first_frame_);
  in.get(last_frame_);
  in.fields(last_held_, held_samples_);
  in.expect(last_held_.size(), static_cast<std::uint64_t>(kAttributeCount - kFirstHeld),
            "the shot's held attributes");
  in.expect(held_samples_.size(), last_held_.size(), "the shot's held sample counts");
}

std::vector<std::filesystem::path> UsdShotWriter::keep_streams_after_finish() {
  keep_streams_ = true;
  std::vector<std::filesystem::path> kept;
  for (const auto& sample : samples_)
    kept.push_back(sample->temporary_path());
  return kept;
}

} // namespace crowd
