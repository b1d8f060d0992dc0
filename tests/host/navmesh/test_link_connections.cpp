// host/navmesh/link_connections.h: the scenario's links are built into the navmesh, on one tile
// and across tiles, and connected at both ends; an end off the navmesh is named in the scenario.
#include "host/navmesh/link_connections.h"
#include "host/navmesh/navmesh.h"
#include "host/scenario/scenario.h"
#include "tests/support/link_worlds.h"

#include <gtest/gtest.h>
#include <string>

namespace crowd {
namespace {

constexpr const char* kTwoLinks =
    R"([{"start": [12, 3], "end": [18, 3]}, {"start": [12, 10], "end": [18, 10], "bidirectional": false}])";

TEST(LinkConnections, EveryLinkIsBuiltAndConnectedAtBothEndsOnOneTileAndAcrossTiles) {
  for (const char* tiles : {"", R"(, "navmesh": {"tile_size": 32})"}) {
    std::string text = test::split_room(kTwoLinks);
    text.replace(text.find(R"(, "links")"), 0, tiles);
    const NavMesh navmesh = NavMesh::build(parse_scenario(text, "links.json"));
    EXPECT_EQ(off_mesh_connection_count(navmesh.detour()), 2) << tiles;
    EXPECT_FALSE(first_unconnected_link_end(navmesh.detour(), 2).has_value()) << tiles;
  }
  EXPECT_EQ(off_mesh_connection_count(
                NavMesh::build(parse_scenario(test::split_room("[]"), "none.json")).detour()),
            0);
}

TEST(LinkConnections, AnEndOffTheNavmeshIsNamedInTheScenario) {
  const auto refusal = [](const std::string& links) -> std::string {
    try {
      (void)NavMesh::build(parse_scenario(test::split_room(links), "links.json"));
    } catch (const ScenarioError& e) {
      return e.json_path() + ": " + e.problem();
    }
    return "built";
  };
  // Ending inside the wall, 1 m from the navmesh (its edge is the agent radius further out).
  const std::string inside = refusal(R"([{"start": [12, 3], "end": [15, 3]}])");
  EXPECT_EQ(inside.rfind("world.links[0].end: no navmesh within the link's radius", 0), 0u)
      << inside;
  // The second link starting outside the world.
  const std::string outside =
      refusal(R"([{"start": [12, 3], "end": [18, 3]}, {"start": [-5, 3], "end": [5, 3]}])");
  EXPECT_EQ(outside.rfind("world.links[1].start: ", 0), 0u) << outside;
  // A radius that reaches the navmesh from inside the wall connects it.
  EXPECT_EQ(refusal(R"([{"start": [12, 3], "end": [15, 3], "radius": 1.6}])"), "built");
}

} // namespace
} // namespace crowd
