// Reads back the film CSV that `crowd run --fps F --out film.csv` writes (film_csv_writer.h:
// `frame,time,agent,type,x,y,z,vx,vz,heading,gait,cycle_phase,playback_rate`), for replay in
// `crowd render` and `crowd view`. Errors are TrajectoryError ("<file>:<line>: <problem>"), as
// for the per-step trajectory (trajectory_reader.h).
#pragma once

#include "host/output/trajectory_reader.h"

#include <filesystem>
#include <glm/glm.hpp>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace crowd {

/// The film CSV's header line (without its line break).
inline constexpr std::string_view kFilmCsvHeader =
    "frame,time,agent,type,x,y,z,vx,vz,heading,gait,cycle_phase,playback_rate";

/// One film frame: every agent shown in it, by id.
struct FilmCsvFrame {
  int frame = 0;                       ///< Film frame number.
  double time = 0.0;                   ///< Simulation time, seconds.
  long line = 0;                       ///< Line of the frame's first row (for messages).
  std::vector<glm::vec3> positions;    ///< [agents]
  std::vector<glm::vec2> velocities;   ///< [agents] (vx, vz)
  std::vector<float> headings_degrees; ///< [agents] as written: degrees about +y, 0 = +z
  std::vector<std::uint8_t> present;   ///< [agents] 1 when the frame has a row for the agent
};

struct FilmCsv {
  int agents = 0;
  /// Each agent's type label, from its rows ("" for an agent in no row).
  std::vector<std::string> types;
  std::vector<FilmCsvFrame> frames; ///< In file order, frame numbers increasing.
  /// Frames per second, from the first and last frames' numbers and times; 0 when the file
  /// has a single frame.
  double fps() const;
};

/// True when `first_line` (a line break or "\r" at its end is ignored) is the film header.
bool is_film_csv_header(std::string_view first_line);

/// Parses the CSV. Throws TrajectoryError naming the line for: a missing or wrong header, a
/// row without 13 fields (the type may be quoted as RFC 4180 says; a quote left open is an
/// error), a number field that is not a finite number, a frame number that is not an integer
/// or does not increase, two rows of one frame with different times, agents not increasing
/// within a frame, an agent id outside [0, agents), an agent whose type changes, an unknown
/// gait name, a file with no frames.
FilmCsv read_film_csv(const std::filesystem::path& file, int agents);
/// The same from a stream; `file` names it in messages.
FilmCsv read_film_csv(std::istream& in, const std::filesystem::path& file, int agents);

} // namespace crowd
