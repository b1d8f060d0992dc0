// Number formats (outputs.md leaves them open; chosen so that identical runs give identical
// bytes and the file reads back exactly):
// * x, y, z, vx, vz: std::to_chars(float) shortest round-trip form ("1.5", "-0.25", "1e-05");
//   negative zero is written "0".
// * time: the shortest decimal with at most 9 decimals that lies within 2^-23 x time of the
//   double given ("0.9" for step 9 of dt = 0.1f, whose exact product is 0.90000001341...; "70"
//   for step 700, never "70.000001" or "7e+01"); otherwise the shortest round-trip fixed form.
//   The `step` column is exact; time is for reading and plotting.
// * step, agent: decimal integers.
// A frame is formatted into one buffer and written with a single fwrite.
#include "host/output/trajectory_writer.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <system_error>

namespace crowd {
namespace {

constexpr char kHeader[] = "step,time,agent,x,y,z,vx,vz\n";

void append_float(std::string& out, float v) {
  if (v == 0.0f) {
    v = 0.0f; // -0 -> 0
  }
  char buf[32];
  const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  out.append(buf, end);
}

void append_time(std::string& out, double t) {
  // The shortest decimal (at most 9 decimals) within 2^-23 x t of the value: a float dt
  // multiplied by the step number is off the decimal time by up to 2^-24 relative (0.1f x 9 =
  // 0.9000000134...), which this absorbs, while frames stay distinct for millions of steps.
  const double tolerance = std::abs(t) * 0x1p-23;
  double scale = 1.0;
  char buf[400]; // Fixed notation of a huge double can be ~310 digits.
  for (int decimals = 0; decimals <= 9; ++decimals, scale *= 10.0) {
    const double rounded = std::round(t * scale) / scale;
    if (std::abs(rounded - t) <= tolerance) {
      const auto end = std::to_chars(buf, buf + sizeof buf, rounded == 0.0 ? 0.0 : rounded,
                                     std::chars_format::fixed, decimals)
                           .ptr;
      out.append(buf, end);
      return;
    }
  }
  const auto end = std::to_chars(buf, buf + sizeof buf, t, std::chars_format::fixed).ptr;
  out.append(buf, end);
}

void append_int(std::string& out, long long v) {
  char buf[24];
  const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  out.append(buf, end);
}

std::string io_error(const std::string& what, const std::filesystem::path& path) {
  return "trajectory output: " + what + " " + path.string();
}

} // namespace

TrajectoryWriter::TrajectoryWriter(std::filesystem::path path) : path_(std::move(path)) {
  // Beside the target (same directory, hence the same file system: rename is atomic), hidden,
  // with a random suffix so that two runs writing the same name do not collide.
  std::random_device rd;
  const auto suffix = std::to_string(rd()) + std::to_string(rd());
  temp_path_ =
      path_.parent_path() / ("." + path_.filename().string() + ".tmp" + suffix.substr(0, 12));
  file_ = std::fopen(temp_path_.string().c_str(), "wb");
  if (file_ == nullptr) {
    throw std::runtime_error(io_error("cannot create", temp_path_) + ": " +
                             std::generic_category().message(errno));
  }
  if (std::fwrite(kHeader, 1, sizeof kHeader - 1, file_) != sizeof kHeader - 1) {
    std::fclose(file_);
    file_ = nullptr;
    std::error_code ec;
    std::filesystem::remove(temp_path_, ec);
    throw std::runtime_error(io_error("cannot write", temp_path_));
  }
}

TrajectoryWriter::~TrajectoryWriter() {
  if (file_ != nullptr) {
    std::fclose(file_);
    std::error_code ec;
    std::filesystem::remove(temp_path_, ec);
  }
}

void TrajectoryWriter::write_frame(int step, double time, std::span<const glm::vec3> positions,
                                   std::span<const glm::vec2> velocities,
                                   std::span<const AgentPhase> phases) {
  if (file_ == nullptr) {
    throw std::runtime_error(io_error("write after finish to", path_));
  }
  std::string prefix;
  append_int(prefix, step);
  prefix += ',';
  append_time(prefix, time);
  prefix += ',';

  std::string out;
  out.reserve(positions.size() * (prefix.size() + 64));
  for (std::size_t i = 0; i < positions.size(); ++i) {
    if (i < phases.size() && !is_present(phases[i])) {
      continue;
    }
    const glm::vec2 v = i < velocities.size() ? velocities[i] : glm::vec2(0.0f);
    out += prefix;
    append_int(out, static_cast<long long>(i));
    out += ',';
    append_float(out, positions[i].x);
    out += ',';
    append_float(out, positions[i].y);
    out += ',';
    append_float(out, positions[i].z);
    out += ',';
    append_float(out, v.x);
    out += ',';
    append_float(out, v.y);
    out += '\n';
  }
  if (!out.empty() && std::fwrite(out.data(), 1, out.size(), file_) != out.size()) {
    throw std::runtime_error(io_error("cannot write", temp_path_));
  }
}

void TrajectoryWriter::finish() {
  if (file_ == nullptr) {
    throw std::runtime_error(io_error("finish called twice for", path_));
  }
  const bool flushed = std::fflush(file_) == 0 && std::ferror(file_) == 0;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  std::error_code ec;
  if (!flushed || !closed) {
    std::filesystem::remove(temp_path_, ec);
    throw std::runtime_error(io_error("cannot write", temp_path_));
  }
  std::filesystem::rename(temp_path_, path_, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(temp_path_, ignored);
    throw std::runtime_error(io_error("cannot rename " + temp_path_.string() + " to", path_) +
                             ": " + ec.message());
  }
}

} // namespace crowd
