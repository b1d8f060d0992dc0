// Worlds with off-mesh links (scenario `world.links`) for the link tests: a room split by a
// wall from its floor to 3 m short of its far side, so that walking round the wall from one
// side's bottom to the other's is about 37 m, 20 m as the crow flies.
#pragma once

#include <string>

namespace crowd::test {

/// The split room with `links` (JSON array) and one agent from (5, z) to (25, z); `gap`: the
/// wall has a 4 m opening at z 8-12 instead, on the way of an agent at z = 10.
inline std::string split_room(const std::string& links, float z = 3.0f, bool gap = false) {
  const std::string wall =
      gap ? R"([[14, 0], [16, 0], [16, 8], [14, 8]], [[14, 12], [16, 12], [16, 17], [14, 17]])"
          : R"([[14, 0], [16, 0], [16, 17], [14, 17]])";
  const std::string at = std::to_string(z);
  return R"({"name": "split_room", "seed": 1, "dt": 0.1, "duration": 60,
    "world": {"bounds": [[0, 0], [30, 20]], "obstacles": [)" +
         wall + R"(], "links": )" + links + R"(},
    "agents": [{"position": [5, )" +
         at + R"(], "goal": [25, )" + at + R"(]}]})";
}

} // namespace crowd::test
