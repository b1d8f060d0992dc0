// The navmesh of a straight corridor of width w is w - 2r wide for agents of radius r: never
// wider (the agent's disc would reach the wall), and narrower only by the cell grid. Measured
// with Detour's own raycast across the corridor, on scenarios built with the default cell size:
// 2D worlds of bounds only, corridors between obstacles, thin walls with doors, and OBJ floors.
#include "host/navmesh/default_cell_size.h"
#include "host/navmesh/navmesh.h"

#include <DetourNavMeshQuery.h>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace crowd {
namespace {

namespace fs = std::filesystem;

constexpr float kWidths[] = {1.0f, 1.5f, 2.0f, 3.0f};
constexpr float kRadii[] = {0.2f, 0.3f, 0.4f, 0.5f};
constexpr float kLength = 24.0f;
// Navmesh vertices are floats of a few metres and Detour's raycast interpolates them.
constexpr float kEpsilon = 1e-3f;

/// Where the navmesh ends on either side of a point, along `across` (a unit axis in x/z).
struct CrossSection {
  bool found = false;
  float low = 0.0f, high = 0.0f; ///< Coordinates along `across` of the two edges.
  float width() const { return high - low; }
};

// One Detour raycast from the navmesh point nearest to `centre` towards `target`: the distance
// to the navmesh edge it hits, or -1 when it hits none.
float distance_to_edge(dtNavMeshQuery& query, const NavMesh& mesh, dtPolyRef start,
                       const glm::vec3& from, const glm::vec3& to) {
  float t = 0.0f;
  float normal[3];
  dtPolyRef path[256];
  int count = 0;
  const dtStatus status =
      query.raycast(start, &from.x, &to.x, &mesh.filter(), &t, normal, path, &count, 256);
  if (dtStatusFailed(status) || t > 1.0f) {
    return -1.0f;
  }
  return t * glm::length(to - from);
}

CrossSection cross_section(const NavMesh& mesh, glm::vec2 centre, glm::vec2 across, float reach) {
  NavQueryPtr query = mesh.make_query();
  const float point[3] = {centre.x, 0.0f, centre.y};
  const float half[3] = {0.05f, 1.0f, 0.05f};
  dtPolyRef ref = 0;
  glm::vec3 on(0.0f);
  CrossSection section;
  if (dtStatusFailed(query->findNearestPoly(point, half, &mesh.filter(), &ref, &on.x)) ||
      ref == 0) {
    return section;
  }
  const glm::vec3 dir(across.x, 0.0f, across.y);
  const float up = distance_to_edge(*query, mesh, ref, on, on + reach * dir);
  const float down = distance_to_edge(*query, mesh, ref, on, on - reach * dir);
  if (up < 0.0f || down < 0.0f) {
    return section;
  }
  const float c = glm::dot(glm::vec2(on.x, on.z), across);
  section.found = true;
  section.low = c - down;
  section.high = c + up;
  return section;
}

/// A straight corridor: its walls at `low` and `high` along `across`, running along `along`
/// from `start` to `end`.
struct Corridor {
  glm::vec2 along, across;
  float low, high;
  float start, end;
};

// True when the rule leaves at least a cell of navmesh across a corridor of width w: its
// width is w - 2r less at most `total_cells` cells. (Narrower corridors may close.)
bool must_be_open(float w, float radius, float cs, float total_cells) {
  return w - 2.0f * radius - total_cells * cs >= cs - kEpsilon;
}

// What the rule allows: every cross-section in the middle of the corridor has each edge at
// least r from its wall (the agent's disc keeps off it) and at most r + `side_cells` cells from
// it, and the width w - 2r less at most `total_cells` cells. Where must_be_open is false the
// corridor may have no navmesh; where it has some, the same holds.
void expect_width(const NavMesh& mesh, const Corridor& c, float radius, float side_cells,
                  float total_cells) {
  const float cs = mesh.settings().cell_size;
  const float w = c.high - c.low;
  const float mid = 0.5f * (c.low + c.high);
  const bool open = must_be_open(w, radius, cs, total_cells);
  for (int k = 0; k < 5; ++k) {
    const float s = c.start + (c.end - c.start) * (0.3f + 0.1f * static_cast<float>(k));
    SCOPED_TRACE("cross-section " + std::to_string(k) + " at " + std::to_string(s));
    const CrossSection section = cross_section(mesh, s * c.along + mid * c.across, c.across, w);
    if (!open && !section.found) {
      continue;
    }
    ASSERT_TRUE(section.found) << "no navmesh across the corridor's middle";
    EXPECT_GE(section.low - c.low, radius - kEpsilon);
    EXPECT_GE(c.high - section.high, radius - kEpsilon);
    EXPECT_LT(section.low - c.low, radius + side_cells * cs + kEpsilon);
    EXPECT_LT(c.high - section.high, radius + side_cells * cs + kEpsilon);
    EXPECT_GE(section.width(), w - 2.0f * radius - total_cells * cs - kEpsilon);
    EXPECT_LE(section.width(), w - 2.0f * radius + kEpsilon);
  }
}

Scenario scenario_2d(glm::vec2 lo, glm::vec2 hi, std::vector<Polygon2D> obstacles, float radius) {
  Scenario scenario;
  scenario.file = "corridor.json";
  scenario.world.bounds = WorldSpec::Bounds2D{lo, hi};
  scenario.world.obstacles = std::move(obstacles);
  scenario.world.navmesh.agent_radius = radius;
  return scenario;
}

Polygon2D box(glm::vec2 lo, glm::vec2 hi) {
  return {lo, {hi.x, lo.y}, hi, {lo.x, hi.y}};
}

std::string describe(float w, float r) {
  std::ostringstream out;
  out << "corridor " << w << " m, radius " << r << " m";
  return out.str();
}

// --- 2D worlds -----------------------------------------------------------------------------

// The first scene: a world of bounds only. Its walls are the bounds, the first on the
// cell grid (which starts at the bounds' corner): the width is w - 2r within one cell. Along
// x and along z.
TEST(CorridorWidth, BoundsOnlyWorldIsWidthLessTwoRadiiWithinOneCell) {
  for (const float w : kWidths) {
    for (const float r : kRadii) {
      SCOPED_TRACE(describe(w, r));
      if (w - 2.0f * r < 0.1f) {
        continue; // Narrower than the agent (1 m, 0.5 m): ObstacleCorridorNarrowerThanTheAgent.
      }
      const NavMesh along_x = NavMesh::build(scenario_2d({0, 0}, {kLength, w}, {}, r));
      EXPECT_FLOAT_EQ(along_x.settings().cell_size, r / 2.0f); // The default rule.
      expect_width(along_x, {{1, 0}, {0, 1}, 0.0f, w, 0.0f, kLength}, r, 1.0f, 1.0f);
      const NavMesh along_z =
          NavMesh::build(scenario_2d({-3, 5}, {w - 3.0f, 5.0f + kLength}, {}, r));
      expect_width(along_z, {{0, 1}, {1, 0}, -3.0f, w - 3.0f, 5.0f, 5.0f + kLength}, r, 1.0f, 1.0f);
    }
  }
}

// The second kind of scene: a corridor between obstacles inside larger bounds. With
// one wall on the cell grid (3 m from the bounds' corner, a whole number of cells of r / 2) the
// width is within one cell. With both walls off the grid each edge is still within one cell of
// r from its wall: the navmesh's vertices lie on the cell grid (dtCreateNavMeshData stores them
// in cells), so the two sides may each lose up to a cell, and only the sum of the two
// exceeds one cell.
TEST(CorridorWidth, CorridorBetweenObstaclesKeepsTheRadiusWithinOneCellOnEachSide) {
  for (const float w : kWidths) {
    for (const float r : kRadii) {
      if (w - 2.0f * r < 0.1f) {
        continue; // Narrower than the agent: CorridorNarrowerThanTheAgentHasNoNavmesh.
      }
      const float cs = r / 2.0f;
      for (const float offset : {0.0f, 0.37f * cs, 0.71f * cs}) {
        SCOPED_TRACE(describe(w, r) + ", walls " + std::to_string(offset) + " m off the grid");
        const float low = 3.0f + offset, high = low + w;
        const float total_cells = offset == 0.0f ? 1.0f : 2.0f;
        const Scenario scenario = scenario_2d(
            {0, 0}, {kLength, high + 3.0f},
            {box({-1, -1}, {kLength + 1, low}), box({-1, high}, {kLength + 1, high + 4.0f})}, r);
        if (!must_be_open(w, r, cs, total_cells)) {
          // The corridor is all there is: it may have no navmesh at all.
          try {
            expect_width(NavMesh::build(scenario), {{1, 0}, {0, 1}, low, high, 0.0f, kLength}, r,
                         1.0f, total_cells);
          } catch (const ScenarioError& e) {
            EXPECT_NE(e.problem().find("no walkable area"), std::string::npos) << e.what();
          }
          continue;
        }
        const NavMesh mesh = NavMesh::build(scenario);
        ASSERT_FLOAT_EQ(mesh.settings().cell_size, cs);
        expect_width(mesh, {{1, 0}, {0, 1}, low, high, 0.0f, kLength}, r, 1.0f, total_cells);
      }
    }
  }
}

// The third scene: 0.2 m thick walls with 1 m doors. The door's navmesh is 1 m - 2r
// wide, less up to a cell on each side, and joins the two sides.
TEST(CorridorWidth, DoorInAThinWallIsOneMetreLessTwoRadii) {
  for (const float r : kRadii) {
    SCOPED_TRACE("radius " + std::to_string(r));
    // A wall at x in [10, 10.2] across a 20 x 12 m world, the door at z in [5.5, 6.5].
    Scenario scenario = scenario_2d(
        {0, 0}, {20, 12}, {box({10, -1}, {10.2f, 5.5f}), box({10, 6.5f}, {10.2f, 13})}, r);
    const NavMesh mesh = NavMesh::build(scenario);
    // The jambs lie half a cell off the grid of r / 2 cells for 0.4 m (and a 1 m door is too
    // narrow for 0.5 m agents): each side may lose up to a cell.
    expect_width(mesh, {{1, 0}, {0, 1}, 5.5f, 6.5f, 10.0f, 10.2f}, r, 1.0f, 2.0f);
    if (!must_be_open(1.0f, r, mesh.settings().cell_size, 2.0f)) {
      continue;
    }
    // One polygon graph through the door: a path from one side to the other.
    NavQueryPtr query = mesh.make_query();
    const glm::vec3 ext = mesh.placement_extents();
    const float a[3] = {3, 0, 6}, b[3] = {17, 0, 6};
    dtPolyRef start = 0, goal = 0;
    float pa[3], pb[3];
    query->findNearestPoly(a, &ext.x, &mesh.filter(), &start, pa);
    query->findNearestPoly(b, &ext.x, &mesh.filter(), &goal, pb);
    dtPolyRef path[256];
    int count = 0;
    ASSERT_TRUE(
        dtStatusSucceed(query->findPath(start, goal, pa, pb, &mesh.filter(), path, &count, 256)));
    ASSERT_GT(count, 0);
    EXPECT_EQ(path[count - 1], goal) << "no path through the door";
  }
}

// A corridor narrower than the agent's diameter has no navmesh: refused with the message that
// says so.
TEST(CorridorWidth, CorridorNarrowerThanTheAgentHasNoNavmesh) {
  try {
    NavMesh::build(scenario_2d({0, 0}, {kLength, 1.0f}, {}, 0.55f));
    FAIL() << "no error";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.json_path(), "world");
    EXPECT_NE(e.problem().find("no open space is wider than the agent diameter (1.1 m)"),
              std::string::npos)
        << e.what();
  }
}

// An explicit cell size is used as given, and the rule still holds to within its cells (here
// coarser than the radius: each side may lose a cell, plus one when the radius is not a whole
// number of cells).
TEST(CorridorWidth, ExplicitCellSizeIsHonoured) {
  for (const float cs : {0.1f, 0.25f, 0.3f}) {
    SCOPED_TRACE("cell size " + std::to_string(cs));
    Scenario scenario = scenario_2d({0, 0}, {kLength, 2.0f}, {}, 0.2f);
    scenario.world.navmesh.cell_size = cs;
    const NavMesh mesh = NavMesh::build(scenario);
    EXPECT_EQ(mesh.settings().cell_size, cs);
    expect_width(mesh, {{1, 0}, {0, 1}, 0.0f, 2.0f, 0.0f, kLength}, 0.2f, 1.0f, 1.0f);
  }
}

// --- OBJ floors ------------------------------------------------------------------------------

class CorridorWidthObj : public ::testing::Test {
protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = fs::temp_directory_path() / ("crowd_corridor_width_test_" + std::to_string(::getpid()) +
                                        "_" + std::to_string(counter++));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A scenario over an OBJ of the given quads (x0, z0, x1, z1) at height 0.
  Scenario mesh_scenario(const std::vector<glm::vec4>& quads, float radius) {
    std::ostringstream obj;
    int base = 1;
    for (const glm::vec4& q : quads) {
      obj << "v " << q.x << " 0 " << q.y << "\nv " << q.x << " 0 " << q.w << "\nv " << q.z << " 0 "
          << q.w << "\nv " << q.z << " 0 " << q.y << "\nf " << base << " " << base + 1 << " "
          << base + 2 << " " << base + 3 << "\n";
      base += 4;
    }
    const fs::path path = dir_ / ("floor" + std::to_string(files_++) + ".obj");
    std::ofstream(path) << obj.str();
    Scenario scenario;
    scenario.file = dir_ / "scene.json";
    scenario.world.mesh = path;
    scenario.world.navmesh.agent_radius = radius;
    return scenario;
  }

  fs::path dir_;
  int files_ = 0;
};

// A floor strip given as a mesh: its edges are drops, not walls. The strip starts at the
// mesh's corner, on the cell grid, so the width is within one cell; a second floor patch
// further down puts the grid's origin off the strip's edges, and then each side is within one
// cell of the radius.
TEST_F(CorridorWidthObj, FloorStripIsWidthLessTwoRadii) {
  for (const float w : kWidths) {
    for (const float r : kRadii) {
      if (w - 2.0f * r < 0.1f) {
        continue;
      }
      SCOPED_TRACE(describe(w, r));
      const NavMesh strip = NavMesh::build(mesh_scenario({{0, 0, kLength, w}}, r));
      EXPECT_FLOAT_EQ(strip.settings().cell_size, r / 2.0f);
      expect_width(strip, {{1, 0}, {0, 1}, 0.0f, w, 0.0f, kLength}, r, 1.0f, 1.0f);
      const NavMesh off_grid =
          NavMesh::build(mesh_scenario({{0, 0, kLength, w}, {0, -4.37f, 3, -2.0f}}, r));
      expect_width(off_grid, {{1, 0}, {0, 1}, 0.0f, w, 0.0f, kLength}, r, 1.0f, 2.0f);
    }
  }
}

} // namespace
} // namespace crowd
