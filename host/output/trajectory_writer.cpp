// A frame is formatted into one buffer and written with a single write, so the file only ever
// grows by whole frames.
#include "host/output/trajectory_writer.h"

#include "host/checkpoint/archive.h"
#include "host/output/number_format.h"
#include "host/output/ordered_rows.h"

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

  const std::string out = ordered_rows(positions.size(), [&](std::string& row, std::size_t i) {
    if (i < phases.size() && !is_present(phases[i]))
      return;
    const glm::vec2 v = i < velocities.size() ? velocities[i] : glm::vec2(0.0f);
    row += prefix;
    append_int(row, static_cast<long long>(i));
    row += ',';
    append_float(row, positions[i].x);
    row += ',';
    append_float(row, positions[i].y);
    row += ',';
    append_float(row, positions[i].z);
    row += ',';
    append_float(row, v.x);
    row += ',';
    append_float(row, v.y);
    row += '\n';
  });
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
