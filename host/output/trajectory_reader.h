// Reads back the trajectory CSV of shared/spec/outputs.md (`step,time,agent,x,y,z,vx,vz`), as
// `crowd run --out` writes it, and checks it against the scenario it claims to come from, for
// replay in `crowd view` and `crowd render`.
#pragma once

#include "host/scenario/population.h"
#include "host/scenario/scenario.h"

#include <filesystem>
#include <glm/glm.hpp>
#include <istream>
#include <stdexcept>
#include <string>
#include <vector>

namespace crowd {

/// A trajectory file that cannot be replayed. what() is "<file>:<line>: <problem>" (line 0
/// when the problem is the file as a whole).
class TrajectoryError : public std::runtime_error {
public:
  TrajectoryError(const std::filesystem::path& file, long line, const std::string& problem);
};

/// One written frame: every agent present, by id.
struct TrajectoryFrame {
  int step = 0;
  double time = 0.0;
  long line = 0;                     ///< Line of the frame's first row (for messages).
  std::vector<glm::vec3> positions;  ///< [agents]
  std::vector<glm::vec2> velocities; ///< [agents] (vx, vz)
  std::vector<std::uint8_t> present; ///< [agents] 1 when the frame has a row for the agent
};

struct Trajectory {
  int agents = 0;
  std::vector<TrajectoryFrame> frames; ///< In file order, steps increasing.
};

/// Parses the CSV. Throws TrajectoryError naming the line for: a missing or wrong header, a
/// row without 8 fields, a field that is not a number (or is NaN/infinite), a negative or
/// decreasing step, a frame whose agents are not in increasing order or repeat one, an agent
/// id outside [0, agents).
Trajectory read_trajectory(const std::filesystem::path& file, int agents);
/// The same from a stream; `file` names it in messages.
Trajectory read_trajectory(std::istream& in, const std::filesystem::path& file, int agents);

/// Checks that the trajectory belongs to this scenario: frame 0 is the initial state with
/// every agent where the scenario places it; each frame's time is step x dt; an agent missing
/// from a frame is one the scenario removes on arrival, and it does not come back. Throws
/// TrajectoryError naming the first line that does not match.
void check_trajectory_matches(const Trajectory& trajectory, const std::filesystem::path& file,
                              const Scenario& scenario, const std::vector<AgentSetup>& setups);

} // namespace crowd
