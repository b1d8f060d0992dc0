#include "host/output/trajectory_reader.h"

#include "host/output/csv_cells.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string_view>

namespace crowd {
namespace {

constexpr std::string_view kHeader = "step,time,agent,x,y,z,vx,vz";
constexpr int kFields = 8;

/// How far frame 0 may put an agent from where the scenario places it: both are the same
/// snapped position in a run of this scenario, while another scenario's agents are metres off.
constexpr float kPlacementTolerance = 0.05f;

std::string format_number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

} // namespace

TrajectoryError::TrajectoryError(const std::filesystem::path& file, long line,
                                 const std::string& problem)
    : std::runtime_error(file.string() + ":" + std::to_string(line) + ": " + problem) {}

Trajectory read_trajectory(const std::filesystem::path& file, int agents) {
  std::ifstream in(file, std::ios::binary);
  if (!in)
    throw TrajectoryError(file, 0, "cannot open the trajectory file");
  return read_trajectory(in, file, agents);
}

Trajectory read_trajectory(std::istream& in, const std::filesystem::path& file, int agents) {
  Trajectory trajectory;
  trajectory.agents = agents;
  std::string line_text;
  long line = 0;
  static constexpr const char* kNames[kFields] = {"step", "time", "agent", "x",
                                                  "y",    "z",    "vx",    "vz"};
  TrajectoryFrame* frame = nullptr;
  int last_agent = -1;
  while (std::getline(in, line_text)) {
    ++line;
    std::string_view text = line_text;
    if (!text.empty() && text.back() == '\r')
      text.remove_suffix(1);
    if (line == 1) {
      if (text != kHeader)
        throw TrajectoryError(
            file, 1, "the header must be '" + std::string(kHeader) + "', got " + quoted_cell(text));
      continue;
    }
    if (text.empty())
      throw TrajectoryError(file, line,
                            "empty line (every row has " + std::to_string(kFields) +
                                " fields: " + std::string(kHeader) + ")");
    std::string_view fields[kFields];
    int count = 0;
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = text.find(',', start);
      if (count < kFields)
        fields[count] = text.substr(start, comma == std::string_view::npos ? comma : comma - start);
      ++count;
      if (comma == std::string_view::npos)
        break;
      start = comma + 1;
    }
    if (count != kFields)
      throw TrajectoryError(file, line,
                            "expected " + std::to_string(kFields) + " fields (" +
                                std::string(kHeader) + "), got " + std::to_string(count));
    int step = 0, agent = 0;
    double time = 0.0;
    float values[5] = {};
    if (!parse_cell(fields[0], step) || step < 0)
      throw TrajectoryError(file, line,
                            "step must be an integer >= 0, got " + quoted_cell(fields[0]));
    if (!parse_cell(fields[1], time) || !std::isfinite(time))
      throw TrajectoryError(file, line,
                            "time must be a finite number, got " + quoted_cell(fields[1]));
    if (!parse_cell(fields[2], agent))
      throw TrajectoryError(file, line, "agent must be an integer, got " + quoted_cell(fields[2]));
    for (int k = 0; k < 5; ++k)
      if (!parse_cell(fields[3 + k], values[k]) || !std::isfinite(values[k]))
        throw TrajectoryError(file, line,
                              std::string(kNames[3 + k]) + " must be a finite number, got " +
                                  quoted_cell(fields[3 + k]));
    if (agent < 0 || agent >= agents)
      throw TrajectoryError(file, line,
                            "agent " + std::to_string(agent) + " is not in the scenario (it has " +
                                std::to_string(agents) + " agents, ids 0.." +
                                std::to_string(agents - 1) + ")");
    if (frame == nullptr || step != frame->step) {
      if (frame != nullptr && step < frame->step)
        throw TrajectoryError(file, line,
                              "step " + std::to_string(step) + " comes after step " +
                                  std::to_string(frame->step) + " (steps must increase)");
      frame = &trajectory.frames.emplace_back();
      frame->step = step;
      frame->time = time;
      frame->line = line;
      frame->positions.assign(static_cast<std::size_t>(agents), glm::vec3(0.0f));
      frame->velocities.assign(static_cast<std::size_t>(agents), glm::vec2(0.0f));
      frame->present.assign(static_cast<std::size_t>(agents), 0);
      last_agent = -1;
    } else if (time != frame->time) {
      throw TrajectoryError(file, line,
                            "time " + std::string(fields[1]) + " differs from the time of step " +
                                std::to_string(step) + " on line " + std::to_string(frame->line));
    }
    if (agent <= last_agent)
      throw TrajectoryError(file, line,
                            "agent " + std::to_string(agent) +
                                (agent == last_agent
                                     ? " appears twice in step "
                                     : " comes after agent " + std::to_string(last_agent) +
                                           " (agents increase within ") +
                                std::to_string(step) + (agent == last_agent ? "" : ")"));
    last_agent = agent;
    const auto a = static_cast<std::size_t>(agent);
    frame->positions[a] = {values[0], values[1], values[2]};
    frame->velocities[a] = {values[3], values[4]};
    frame->present[a] = 1;
  }
  if (line == 0)
    throw TrajectoryError(file, 1,
                          "the file is empty (expected the header '" + std::string(kHeader) + "')");
  if (trajectory.frames.empty())
    throw TrajectoryError(file, line, "no frames after the header");
  return trajectory;
}

void check_trajectory_matches(const Trajectory& trajectory, const std::filesystem::path& file,
                              const Scenario& scenario, const std::vector<AgentSetup>& setups) {
  const std::string scenario_name = scenario.file.filename().string();
  const TrajectoryFrame& first = trajectory.frames.front();
  if (first.step != 0)
    throw TrajectoryError(file, first.line,
                          "the first frame is step " + std::to_string(first.step) +
                              ", expected step 0 (the initial state)");
  const double dt = std::stod(format_number(static_cast<double>(scenario.dt)));
  // Agents with a start time after 0 (start delays, emitters) appear once, when they enter.
  std::vector<std::uint8_t> seen(setups.size(), 0);
  for (std::size_t a = 0; a < setups.size(); ++a) {
    if (!first.present[a] && setups[a].start_time > 0.0)
      continue;
    seen[a] = 1;
    if (!first.present[a])
      throw TrajectoryError(file, first.line,
                            "step 0 has no row for agent " + std::to_string(a) + " (" +
                                setups[a].json_path + " of " + scenario_name + ")");
    const glm::vec3 d = first.positions[a] - setups[a].position;
    if (std::sqrt(d.x * d.x + d.z * d.z) > kPlacementTolerance)
      throw TrajectoryError(
          file, first.line,
          "agent " + std::to_string(a) + " starts at (" + format_number(first.positions[a].x) +
              ", " + format_number(first.positions[a].z) + ") but " + scenario_name +
              " places it at (" + format_number(setups[a].position.x) + ", " +
              format_number(setups[a].position.z) + "): the trajectory is not from this scenario");
  }
  const TrajectoryFrame* previous = nullptr;
  for (const TrajectoryFrame& frame : trajectory.frames) {
    const double expected = frame.step * dt;
    if (std::fabs(frame.time - expected) > 1e-6 * std::max(1.0, expected))
      throw TrajectoryError(file, frame.line,
                            "time " + format_number(frame.time) + " at step " +
                                std::to_string(frame.step) + " does not match " + scenario_name +
                                "'s dt of " + format_number(dt) + " s (expected " +
                                format_number(expected) + ")");
    if (previous != nullptr) {
      for (std::size_t a = 0; a < setups.size(); ++a) {
        if (frame.present[a] && !previous->present[a] && !seen[a]) {
          seen[a] = 1;
          if (frame.time + 1e-6 < setups[a].start_time)
            throw TrajectoryError(file, frame.line,
                                  "agent " + std::to_string(a) + " appears at step " +
                                      std::to_string(frame.step) + ", before its start time " +
                                      format_number(setups[a].start_time) + " s (" +
                                      setups[a].json_path + " of " + scenario_name + ")");
          continue;
        }
        if (frame.present[a] && !previous->present[a])
          throw TrajectoryError(file, frame.line,
                                "agent " + std::to_string(a) + " is back at step " +
                                    std::to_string(frame.step) + " after missing from step " +
                                    std::to_string(previous->step) +
                                    " (removed agents do not return)");
        if (!frame.present[a] && previous->present[a] &&
            setups[a].params.on_arrival != OnArrival::Remove)
          throw TrajectoryError(file, frame.line,
                                "step " + std::to_string(frame.step) + " has no row for agent " +
                                    std::to_string(a) + " (" + setups[a].json_path +
                                    " stops on arrival, so it is never removed)");
      }
    }
    previous = &frame;
  }
}

} // namespace crowd
