#include "host/output/film_csv_reader.h"

#include "host/output/csv_cells.h"
#include "host/output/locomotion.h"

#include <algorithm>
#include <cmath>
#include <fstream>

namespace crowd {
namespace {

constexpr int kFields = 13;
constexpr const char* kNames[kFields] = {"frame", "time",        "agent",        "type", "x",
                                         "y",     "z",           "vx",           "vz",   "heading",
                                         "gait",  "cycle_phase", "playback_rate"};

/// Splits one line into fields as RFC 4180 says (the writer quotes a type label holding a
/// comma or a quote, doubling its quotes). Returns the field count (all fields are counted, at
/// most kFields kept) or -1 for a quote left open or text after a closing quote.
int split_fields(std::string_view text, std::string (&fields)[kFields]) {
  int count = 0;
  std::size_t at = 0;
  while (true) {
    std::string field;
    if (at < text.size() && text[at] == '"') {
      ++at;
      while (true) {
        if (at >= text.size())
          return -1; // the quote is never closed (a label with a line break is not supported)
        if (text[at] == '"') {
          if (at + 1 < text.size() && text[at + 1] == '"') {
            field += '"';
            at += 2;
            continue;
          }
          ++at;
          break;
        }
        field += text[at++];
      }
      if (at < text.size() && text[at] != ',')
        return -1;
    } else {
      const std::size_t comma = std::min(text.find(',', at), text.size());
      field.assign(text.substr(at, comma - at));
      at = comma;
    }
    if (count < kFields)
      fields[count] = std::move(field);
    ++count;
    if (at >= text.size())
      return count;
    ++at; // the comma
  }
}

} // namespace

double FilmCsv::fps() const {
  if (frames.size() < 2 || !(frames.back().time > frames.front().time))
    return 0.0;
  return static_cast<double>(frames.back().frame - frames.front().frame) /
         (frames.back().time - frames.front().time);
}

bool is_film_csv_header(std::string_view first_line) {
  if (!first_line.empty() && first_line.back() == '\n')
    first_line.remove_suffix(1);
  if (!first_line.empty() && first_line.back() == '\r')
    first_line.remove_suffix(1);
  return first_line == kFilmCsvHeader;
}

FilmCsv read_film_csv(const std::filesystem::path& file, int agents) {
  std::ifstream in(file, std::ios::binary);
  if (!in)
    throw TrajectoryError(file, 0, "cannot open the film CSV");
  return read_film_csv(in, file, agents);
}

FilmCsv read_film_csv(std::istream& in, const std::filesystem::path& file, int agents) {
  FilmCsv film;
  film.agents = agents;
  film.types.assign(static_cast<std::size_t>(std::max(agents, 0)), std::string());
  std::vector<long> type_lines(film.types.size(), 0);
  std::string line_text;
  long line = 0;
  FilmCsvFrame* frame = nullptr;
  int last_agent = -1;
  std::string fields[kFields];
  while (std::getline(in, line_text)) {
    ++line;
    std::string_view text = line_text;
    if (!text.empty() && text.back() == '\r')
      text.remove_suffix(1);
    if (line == 1) {
      if (text != kFilmCsvHeader)
        throw TrajectoryError(file, 1,
                              "the header must be '" + std::string(kFilmCsvHeader) + "', got " +
                                  quoted_cell(text));
      continue;
    }
    if (text.empty())
      throw TrajectoryError(file, line,
                            "empty line (every row has " + std::to_string(kFields) +
                                " fields: " + std::string(kFilmCsvHeader) + ")");
    const int count = split_fields(text, fields);
    if (count < 0)
      throw TrajectoryError(file, line,
                            "a quoted field is not closed, or text follows its closing quote");
    if (count != kFields)
      throw TrajectoryError(file, line,
                            "expected " + std::to_string(kFields) + " fields (" +
                                std::string(kFilmCsvHeader) + "), got " + std::to_string(count));
    int number = 0, agent = 0;
    double time = 0.0;
    if (!parse_cell(std::string_view(fields[0]), number))
      throw TrajectoryError(file, line, "frame must be an integer, got " + quoted_cell(fields[0]));
    if (!parse_cell(std::string_view(fields[1]), time) || !std::isfinite(time))
      throw TrajectoryError(file, line,
                            "time must be a finite number, got " + quoted_cell(fields[1]));
    if (!parse_cell(std::string_view(fields[2]), agent))
      throw TrajectoryError(file, line, "agent must be an integer, got " + quoted_cell(fields[2]));
    // x, y, z, vx, vz, heading, then cycle_phase and playback_rate (checked, not kept).
    constexpr int kNumberFields[] = {4, 5, 6, 7, 8, 9, 11, 12};
    float values[8] = {};
    for (int k = 0; k < 8; ++k) {
      const int f = kNumberFields[k];
      if (!parse_cell(std::string_view(fields[f]), values[k]) || !std::isfinite(values[k]))
        throw TrajectoryError(file, line,
                              std::string(kNames[f]) + " must be a finite number, got " +
                                  quoted_cell(fields[f]));
    }
    if (std::find(kGaitNames.begin(), kGaitNames.end(), fields[10]) == kGaitNames.end())
      throw TrajectoryError(
          file, line, "gait must be idle, walk, run, turn or wait, got " + quoted_cell(fields[10]));
    if (agent < 0 || agent >= agents)
      throw TrajectoryError(file, line,
                            "agent " + std::to_string(agent) + " is not in the scenario (it has " +
                                std::to_string(agents) + " agents, ids 0.." +
                                std::to_string(agents - 1) + ")");
    if (frame == nullptr || number != frame->frame) {
      if (frame != nullptr && number < frame->frame)
        throw TrajectoryError(file, line,
                              "frame " + std::to_string(number) + " comes after frame " +
                                  std::to_string(frame->frame) + " (frames must increase)");
      if (frame != nullptr && !(time > frame->time))
        throw TrajectoryError(file, line,
                              "frame " + std::to_string(number) + " at time " + fields[1] +
                                  " is not later than frame " + std::to_string(frame->frame) +
                                  " on line " + std::to_string(frame->line));
      frame = &film.frames.emplace_back();
      frame->frame = number;
      frame->time = time;
      frame->line = line;
      const auto n = static_cast<std::size_t>(agents);
      frame->positions.assign(n, glm::vec3(0.0f));
      frame->velocities.assign(n, glm::vec2(0.0f));
      frame->headings_degrees.assign(n, 0.0f);
      frame->present.assign(n, 0);
      last_agent = -1;
    } else if (time != frame->time) {
      throw TrajectoryError(file, line,
                            "time " + fields[1] + " differs from the time of frame " +
                                std::to_string(number) + " on line " + std::to_string(frame->line));
    }
    if (agent <= last_agent)
      throw TrajectoryError(file, line,
                            "agent " + std::to_string(agent) +
                                (agent == last_agent
                                     ? " appears twice in frame "
                                     : " comes after agent " + std::to_string(last_agent) +
                                           " (agents increase within frame ") +
                                std::to_string(number) + (agent == last_agent ? "" : ")"));
    last_agent = agent;
    const auto a = static_cast<std::size_t>(agent);
    if (type_lines[a] == 0) {
      film.types[a] = fields[3];
      type_lines[a] = line;
    } else if (film.types[a] != fields[3]) {
      throw TrajectoryError(file, line,
                            "agent " + std::to_string(agent) + " is type " +
                                quoted_cell(fields[3]) + " here but " + quoted_cell(film.types[a]) +
                                " on line " + std::to_string(type_lines[a]));
    }
    frame->positions[a] = {values[0], values[1], values[2]};
    frame->velocities[a] = {values[3], values[4]};
    frame->headings_degrees[a] = values[5];
    frame->present[a] = 1;
  }
  if (line == 0)
    throw TrajectoryError(
        file, 1, "the file is empty (expected the header '" + std::string(kFilmCsvHeader) + "')");
  if (film.frames.empty())
    throw TrajectoryError(file, line, "no frames after the header");
  return film;
}

} // namespace crowd
