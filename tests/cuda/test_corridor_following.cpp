// The corridor phases of an executor (Executor::follow_corridors and move_corridors, on the
// bodies of cuda/kernels/corridor_following.h) on the agent arrays' corridor rows: for every
// agent the tables can answer for, the corners, the shortened corridor and the moved corridor
// are Detour's (findCorners, optimizePathVisibility, movePosition) to the bit, on one tile and
// across tile borders; an agent they cannot answer for is flagged and left as it was; the
// corridor state bits decide who follows and whose corridor shrinks.
#include "cuda/core/agent_arrays.h"
#include "cuda/core/executor.h"
#include "host/navmesh/navmesh.h"
#include "host/paths/navmesh_tables.h"
#include "tests/support/pillar_field.h"
#include "tests/support/random_path.h"
#include "tests/support/random_strides.h"

#include <DetourPathCorridor.h>
#include <cmath>
#include <cstring>
#include <deque>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace crowd {
namespace {

constexpr int kCapacity = 64;
constexpr int kCorners = 4;
constexpr float kRangeFactor = 30.0f;
constexpr float kRadius = 0.3f;
constexpr float kSpeed = 1.4f;

struct Crowd {
  AgentArrays arrays;
  std::deque<dtPathCorridor> detour; ///< the same corridors, for Detour's own calls
};

Crowd random_crowd(const NavMesh& navmesh, const PolygonIndex& index, int count) {
  NavQueryPtr query = navmesh.make_query();
  std::mt19937 rng(5);
  Crowd crowd;
  crowd.arrays.corridors.capacity = kCapacity;
  crowd.arrays.corridors.corner_capacity = kCorners;
  test::RandomPath path;
  while (crowd.arrays.count() < count) {
    if (!test::random_path_with_a_detour(*query, navmesh.filter(), navmesh.placement_extents(), rng,
                                         kCapacity - 1, path))
      continue;
    dtPathCorridor& corridor = crowd.detour.emplace_back();
    test::load_corridors(path, kCapacity, {&corridor});
    const float* p = corridor.getPos();
    const glm::vec3 pos{p[0], p[1], p[2]};
    const int i = crowd.arrays.append(pos, kRadius, 2.0f, 8.0f, 3.6f, 2.0f, 0);
    crowd.arrays.desired_speed[static_cast<std::size_t>(i)] = kSpeed;
    CorridorArrays& rows = crowd.arrays.corridors;
    rows.append(pos);
    for (int k = 0; k < corridor.getPathCount(); ++k)
      rows.row(i)[k] = index.index_of(corridor.getPath()[k]);
    rows.size[static_cast<std::size_t>(i)] = corridor.getPathCount();
    const float* t = corridor.getTarget();
    rows.target[static_cast<std::size_t>(i)] = {t[0], t[1], t[2]};
    rows.state[static_cast<std::size_t>(i)] = kCorridorFollow | kCorridorKeepPath;
  }
  return crowd;
}

std::vector<std::int32_t> row_of(const CorridorArrays& rows, int i) {
  const std::int32_t* row = rows.row(i);
  return {row, row + rows.size[static_cast<std::size_t>(i)]};
}

std::vector<std::int32_t> dense_of(const dtPathCorridor& corridor, const PolygonIndex& index) {
  std::vector<std::int32_t> dense;
  for (int k = 0; k < corridor.getPathCount(); ++k)
    dense.push_back(index.index_of(corridor.getPath()[k]));
  return dense;
}

class CorridorFollowing : public ::testing::TestWithParam<int> {
protected:
  NavMesh build() const { return NavMesh::build(test::pillar_field_in_tiles(GetParam())); }
};

TEST_P(CorridorFollowing, PhasesFollowAndMoveCorridorsAsDetourDoes) {
  const NavMesh navmesh = build();
  NavQueryPtr query = navmesh.make_query();
  const PortalTable portals(navmesh.detour());
  const PolygonShapes shapes(navmesh.detour(), navmesh.filter());
  const PolygonIndex& index = shapes.index();
  Crowd crowd = random_crowd(navmesh, index, 300);
  AgentArrays& arrays = crowd.arrays;
  const CorridorArrays& rows = arrays.corridors;
  const std::unique_ptr<Executor> executor = make_cpu_executor(2);
  executor->set_navmesh_tables(navmesh_tables_view(portals, shapes));
  const AgentArrays before = arrays;

  executor->follow_corridors(arrays, kRangeFactor);
  std::vector<std::int32_t> flagged;
  for (int i = 0; i < arrays.count(); ++i) {
    const std::size_t k = static_cast<std::size_t>(i);
    dtPathCorridor& corridor = crowd.detour[k];
    if (rows.state[k] & kCorridorAskBits) {
      flagged.push_back(i);
      if (rows.state[k] & kCorridorAskCorners) {
        EXPECT_EQ(row_of(rows, i), row_of(before.corridors, i)) << "agent " << i;
        EXPECT_EQ(arrays.preferred_velocity[k], before.preferred_velocity[k]) << "agent " << i;
      }
      continue;
    }
    float verts[kCorners * 3];
    unsigned char flags[kCorners];
    dtPolyRef polys[kCorners];
    const int n =
        corridor.findCorners(verts, flags, polys, kCorners, query.get(), &navmesh.filter());
    ASSERT_EQ(rows.corner_count[k], n) << "agent " << i;
    EXPECT_EQ(std::memcmp(&rows.corner_verts[k * kCorners].x, verts, sizeof(float) * 3 * n), 0)
        << "agent " << i;
    EXPECT_EQ(std::memcmp(&rows.corner_flags[k * kCorners], flags, n), 0) << "agent " << i;
    if (n > 0)
      corridor.optimizePathVisibility(&verts[std::min(1, n - 1) * 3], kRangeFactor * kRadius,
                                      query.get(), &navmesh.filter());
    EXPECT_EQ(row_of(rows, i), dense_of(corridor, index)) << "agent " << i;
    const glm::vec2 expected =
        preferred_velocity(arrays.position[k], verts, reinterpret_cast<const std::uint8_t*>(flags),
                           n, kRadius, kSpeed);
    EXPECT_EQ(std::memcmp(&arrays.preferred_velocity[k], &expected, sizeof expected), 0)
        << "agent " << i;
  }
  EXPECT_LT(flagged.size(), arrays.corridors.size.size() / 10)
      << "the tables answer for nearly every agent";
  EXPECT_EQ(rows.asked, flagged) << "the host's list holds the flagged agents, ascending";

  // Every agent wants to go up to 1.5 m in some direction: into pillars, across polygons.
  test::random_strides(arrays.position, 9, 1.5f);
  const AgentArrays wanted = arrays;
  const NavmeshCorrections corrections = executor->move_corridors(arrays);
  NavmeshCorrections expected_corrections;
  flagged.clear();
  for (int i = 0; i < arrays.count(); ++i) {
    const std::size_t k = static_cast<std::size_t>(i);
    if (rows.state[k] & kCorridorAskMove) {
      flagged.push_back(i);
      EXPECT_EQ(row_of(rows, i), row_of(wanted.corridors, i)) << "agent " << i;
      EXPECT_EQ(arrays.position[k], wanted.position[k]) << "agent " << i;
      continue;
    }
    dtPathCorridor& corridor = crowd.detour[k];
    ASSERT_TRUE(corridor.movePosition(&wanted.position[k].x, query.get(), &navmesh.filter()));
    EXPECT_EQ(row_of(rows, i), dense_of(corridor, index)) << "agent " << i;
    EXPECT_EQ(std::memcmp(&arrays.position[k], corridor.getPos(), sizeof(glm::vec3)), 0)
        << "agent " << i;
    const glm::vec3 p = arrays.position[k], w = wanted.position[k];
    expected_corrections.add(std::hypot(p.x - w.x, p.z - w.z), kRadius);
  }
  EXPECT_EQ(corrections.count, expected_corrections.count);
  EXPECT_EQ(corrections.max_distance, expected_corrections.max_distance);
  EXPECT_GT(corrections.count, 0) << "some agents wanted to walk into pillars";
  EXPECT_EQ(rows.asked, flagged);
}

TEST_P(CorridorFollowing, StateBitsDecideWhoFollowsAndWhoseCorridorShrinks) {
  const NavMesh navmesh = build();
  const PortalTable portals(navmesh.detour());
  const PolygonShapes shapes(navmesh.detour(), navmesh.filter());
  Crowd crowd = random_crowd(navmesh, shapes.index(), 20);
  AgentArrays& arrays = crowd.arrays;
  CorridorArrays& rows = arrays.corridors;
  const std::unique_ptr<Executor> executor = make_cpu_executor(1);
  executor->set_navmesh_tables(navmesh_tables_view(portals, shapes));
  // Even agents neither follow nor keep their path; odd ones follow and keep it. Every agent
  // starts with a stale corner count and a preferred velocity the phase must not keep.
  for (int i = 0; i < arrays.count(); ++i) {
    const std::size_t k = static_cast<std::size_t>(i);
    rows.state[k] = i % 2 ? (kCorridorFollow | kCorridorKeepPath) : kCorridorAskMove;
    rows.corner_count[k] = 3;
    arrays.preferred_velocity[k] = glm::vec2(9.0f);
  }
  executor->follow_corridors(arrays, kRangeFactor);
  for (int i = 0; i < arrays.count(); ++i) {
    const std::size_t k = static_cast<std::size_t>(i);
    EXPECT_EQ(rows.state[k] & kCorridorAskMove, 0) << "a new step clears the host's requests";
    if (i % 2) {
      EXPECT_GT(rows.corner_count[k], 0) << "agent " << i;
      EXPECT_NE(arrays.preferred_velocity[k], glm::vec2(9.0f)) << "agent " << i;
    } else {
      EXPECT_EQ(rows.corner_count[k], 0) << "agent " << i;
      EXPECT_EQ(arrays.preferred_velocity[k], glm::vec2(9.0f)) << "set by the host, not here";
    }
  }
  executor->move_corridors(arrays);
  for (int i = 0; i < arrays.count(); ++i) {
    const std::size_t k = static_cast<std::size_t>(i);
    if (i % 2) {
      EXPECT_GT(rows.size[k], 1) << "agent " << i << " keeps its path";
    } else {
      EXPECT_EQ(rows.size[k], 1) << "agent " << i << ": the polygon it stands on";
      EXPECT_EQ(rows.target[k], arrays.position[k]);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(OneTileAndTiles, CorridorFollowing, ::testing::Values(0, 32),
                         [](const ::testing::TestParamInfo<int>& param) {
                           return param.param == 0 ? std::string("one_tile")
                                                   : "tiles_of_" + std::to_string(param.param);
                         });

} // namespace
} // namespace crowd
