// A frame is formatted into one buffer and written with a single write, so the file only ever
// grows by whole frames.
#include "host/output/trajectory_writer.h"

#include "host/checkpoint/archive.h"
#include "host/output/number_format.h"

#include <string>

namespace crowd {
namespace {

constexpr char kHeader[] = "step,time,agent,x,y,z,vx,vz\n";

} // namespace

TrajectoryWriter::TrajectoryWriter(std::filesystem::path path)
    : file_(std::move(path), "trajectory output") {
  file_.append(std::string_view(kHeader, sizeof kHeader - 1));
}

void TrajectoryWriter::write_frame(int step, double time, std::span<const glm::vec3> positions,
                                   std::span<const glm::vec2> velocities,
                                   std::span<const AgentPhase> phases) {
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
  file_.append(out);
}

void TrajectoryWriter::write_frame(const FrameView& frame) {
  write_frame(frame.number, frame.time, frame.positions, frame.velocities, frame.phases);
}

void TrajectoryWriter::finish() {
  file_.commit();
}

void TrajectoryWriter::save(ArchiveWriter& out) {
  file_.save(out);
}

void TrajectoryWriter::restore(ArchiveReader& in) {
  file_.restore(in, /*committed_is_stream=*/true); // the finished file is the stream itself
}

} // namespace crowd
