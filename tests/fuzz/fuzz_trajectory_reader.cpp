// libFuzzer target: any bytes as a trajectory CSV (`crowd render --trajectory`) must give a
// Trajectory or one TrajectoryError, never a crash, a hang or another exception.
#include "host/output/trajectory_reader.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    // The agent count of the seed trajectory (tests/fuzz/run.sh: checkpoint_scenario.json).
    const crowd::Trajectory trajectory = crowd::read_trajectory(in, "fuzz.csv", 6);
    (void)trajectory;
  } catch (const crowd::TrajectoryError&) {
    // The expected answer to bad input.
  }
  return 0;
}
