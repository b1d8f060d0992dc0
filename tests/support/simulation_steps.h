// What the whole-run tests compare of a simulation: everything observable of a step as bytes,
// and the metrics without their wall times.
#pragma once

#include "host/sim/simulation.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#ifndef CROWD_SOURCE_DIR
#error "CROWD_SOURCE_DIR must point at the source tree"
#endif

namespace crowd::test {

/// A sample scenario of the repository.
inline std::filesystem::path sample_scenario(const char* name) {
  return std::filesystem::path(CROWD_SOURCE_DIR) / "samples" / "scenarios" / name;
}

/// Everything observable of one step, as bytes (bit-identical means equal bytes).
struct StepState {
  std::vector<glm::vec3> positions;
  std::vector<glm::vec2> velocities;
  std::vector<AgentPhase> phases;
  bool operator==(const StepState& o) const {
    return bytes(positions) == bytes(o.positions) && bytes(velocities) == bytes(o.velocities) &&
           phases == o.phases;
  }
  template <class T> static std::string bytes(const std::vector<T>& v) {
    return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
};

inline StepState state_of(const Simulation& sim) {
  return {{sim.positions().begin(), sim.positions().end()},
          {sim.velocities().begin(), sim.velocities().end()},
          {sim.phases().begin(), sim.phases().end()}};
}

/// The metrics as JSON without the wall-time keys.
inline nlohmann::ordered_json metrics_without_times(const Simulation& sim) {
  nlohmann::ordered_json json = to_json(sim.metrics());
  for (const char* key : {"step_ms_mean", "step_ms_p95", "stage_ms"})
    json.erase(key);
  return json;
}

} // namespace crowd::test
