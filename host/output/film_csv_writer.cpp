#include "host/output/film_csv_writer.h"

#include "host/checkpoint/archive.h"
#include "host/output/number_format.h"
#include "host/output/ordered_rows.h"

#include <string>

namespace crowd {
namespace {

constexpr char kHeader[] =
    "frame,time,agent,type,x,y,z,vx,vz,heading,gait,cycle_phase,playback_rate\n";
constexpr float kDegreesPerRadian = 57.29577951308232f;

void append_csv_field(std::string& out, const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) {
    out += text;
    return;
  }
  out += '"';
  for (const char c : text) {
    if (c == '"')
      out += '"';
    out += c;
  }
  out += '"';
}

} // namespace

float heading_in_degrees(float radians) {
  return radians * kDegreesPerRadian;
}

FilmCsvWriter::FilmCsvWriter(std::filesystem::path path) : file_(std::move(path), "film export") {
  file_.append(std::string_view(kHeader, sizeof kHeader - 1));
}

void FilmCsvWriter::write_frame(const FrameView& frame) {
  std::string prefix;
  append_int(prefix, frame.number);
  prefix += ',';
  append_time(prefix, frame.time);
  prefix += ',';
  const std::string out = ordered_rows(frame.positions.size(), [&](std::string& row,
                                                                   std::size_t i) {
    if (i < frame.phases.size() && !is_present(frame.phases[i]))
      return;
    const glm::vec2 v = i < frame.velocities.size() ? frame.velocities[i] : glm::vec2(0.0f);
    row += prefix;
    append_int(row, static_cast<long long>(i));
    row += ',';
    append_csv_field(row, i < frame.types.size() ? frame.types[i] : std::string("agent"));
    for (const float value :
         {frame.positions[i].x, frame.positions[i].y, frame.positions[i].z, v.x, v.y,
          heading_in_degrees(i < frame.headings.size() ? frame.headings[i] : 0.0f)}) {
      row += ',';
      append_float(row, value);
    }
    row += ',';
    row +=
        kGaitNames[static_cast<std::size_t>(i < frame.gaits.size() ? frame.gaits[i] : Gait::Idle)];
    for (const float value : {i < frame.cycle_phases.size() ? frame.cycle_phases[i] : 0.0f,
                              i < frame.playback_rates.size() ? frame.playback_rates[i] : 1.0f}) {
      row += ',';
      append_float(row, value);
    }
    row += '\n';
  });
  file_.append(out);
}

void FilmCsvWriter::finish() {
  file_.commit();
}

void FilmCsvWriter::save(ArchiveWriter& out) {
  file_.save(out);
}

void FilmCsvWriter::restore(ArchiveReader& in) {
  file_.restore(in, /*committed_is_stream=*/true); // the finished file is the stream itself
}

} // namespace crowd
