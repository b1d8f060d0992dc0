// The path validity look-ahead (cuda/kernels/corridor_validity.h) answers as
// dtPathCorridor::isValid: for corridors that are fine, for a filter that passes nothing, and
// for a polygon that no longer exists, before and beyond the look-ahead; and check_corridor
// finds what dtCrowd's checkPathValidity acts on, as Detour's queries tell it, on a device as
// on the CPU.
#include "cuda/kernels/corridor_validity.h"
#include "host/navmesh/navmesh.h"
#include "host/paths/navmesh_tables.h"
#include "tests/support/pillar_field.h"
#include "tests/support/random_path.h"

#if defined(CROWD_HAS_CUDA)
#include "cuda/executor/corridor_kernels.h"
#include "tests/support/cuda_device.h"
#endif

#include <DetourPathCorridor.h>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace crowd {
namespace {

constexpr int kLookAhead = kCorridorCheckLookahead; // dtCrowd CHECK_LOOKAHEAD, 10

// The corridor's polygons as dense indices, as the agent arrays' corridor rows hold them.
std::vector<std::int32_t> dense_row(const dtPathCorridor& corridor, const PolygonIndex& polygons) {
  std::vector<std::int32_t> row(static_cast<std::size_t>(corridor.getPathCount()));
  for (std::size_t k = 0; k < row.size(); ++k)
    row[k] = polygons.index_of(corridor.getPath()[k]);
  return row;
}

/// f(corridor, rng) for 300 corridors along random paths of the pillar field, from `seed`.
template <class F>
void for_random_corridors(const NavMesh& navmesh, dtNavMeshQuery& query, unsigned seed, F&& f) {
  std::mt19937 rng(seed);
  test::RandomPath path;
  for (int corridors = 0; corridors < 300;) {
    if (!test::random_path(query, navmesh.filter(), navmesh.placement_extents(), rng, 64, path))
      continue;
    ++corridors;
    dtPathCorridor corridor;
    test::load_corridors(path, 64, {&corridor});
    f(corridor, rng);
  }
}

/// The pillar field, a query, and its polygon tables under the navmesh's filter and under a
/// filter that passes nothing.
class CorridorValidity : public ::testing::Test {
protected:
  const NavMesh navmesh = NavMesh::build(test::pillar_field());
  NavQueryPtr query = navmesh.make_query();
  const PolygonShapes shapes{navmesh.detour(), navmesh.filter()};
  const dtQueryFilter nothing = [] {
    dtQueryFilter filter;
    filter.setIncludeFlags(0);
    return filter;
  }();
  const PolygonShapes closed{navmesh.detour(), nothing};
};

TEST_F(CorridorValidity, AnswersAsIsValid) {
  int stale_seen = 0, stale_beyond = 0;
  for_random_corridors(navmesh, *query, 4, [&](dtPathCorridor& corridor, std::mt19937& rng) {
    const std::vector<std::int32_t> row = dense_row(corridor, shapes.index());
    const int n = corridor.getPathCount();
    EXPECT_TRUE(corridor.isValid(kLookAhead, query.get(), &navmesh.filter()));
    EXPECT_TRUE(corridor_is_valid(outline_tables_view(shapes), row.data(), n, kLookAhead));
    EXPECT_FALSE(corridor.isValid(kLookAhead, query.get(), &nothing));
    EXPECT_FALSE(corridor_is_valid(outline_tables_view(closed), row.data(), n, kLookAhead));
    // A polygon that no longer exists (its salt changed) somewhere along the corridor.
    std::vector<dtPolyRef> polys(corridor.getPath(), corridor.getPath() + n);
    const int at = static_cast<int>(rng() % static_cast<unsigned>(n));
    unsigned int salt = 0, tile = 0, poly = 0;
    navmesh.detour().decodePolyId(polys[static_cast<std::size_t>(at)], salt, tile, poly);
    polys[static_cast<std::size_t>(at)] = navmesh.detour().encodePolyId(salt + 1, tile, poly);
    corridor.setCorridor(corridor.getTarget(), polys.data(), n);
    const std::vector<std::int32_t> stale = dense_row(corridor, shapes.index());
    const bool detour = corridor.isValid(kLookAhead, query.get(), &navmesh.filter());
    EXPECT_EQ(corridor_is_valid(outline_tables_view(shapes), stale.data(), n, kLookAhead), detour)
        << "stale polygon at " << at << " of " << n;
    stale_seen += detour ? 0 : 1;
    stale_beyond += detour ? 1 : 0;
  });
  EXPECT_GT(stale_seen, 50);
  EXPECT_GT(stale_beyond, 10) << "some stale polygons lie beyond the look-ahead";
}

TEST_F(CorridorValidity, CheckFindsWhatCheckPathValidityActsOn) {
  const NavmeshTablesView open_tables = outline_tables_view(shapes);
  const NavmeshTablesView closed_tables = outline_tables_view(closed);
  int corridors = 0, short_ones = 0, stale_starts = 0;
  for_random_corridors(navmesh, *query, 8, [&](dtPathCorridor& corridor, std::mt19937&) {
    ++corridors;
    std::vector<std::int32_t> row = dense_row(corridor, shapes.index());
    const int n = corridor.getPathCount();
    const std::int32_t last = row.back();
    const std::int32_t elsewhere = (last + 1) % open_tables.polygon_count;
    // A corridor that reaches its goal's polygon, and the same heading elsewhere.
    EXPECT_EQ(check_corridor(open_tables, row.data(), n, last), 0);
    const std::uint8_t heading_elsewhere = check_corridor(open_tables, row.data(), n, elsewhere);
    EXPECT_EQ(heading_elsewhere, n < kLookAhead ? kCorridorNearEnd : 0) << n << " polygons";
    short_ones += n < kLookAhead ? 1 : 0;
    // A filter that refuses every polygon: the start and the look-ahead are both invalid.
    EXPECT_EQ(check_corridor(closed_tables, row.data(), n, last),
              kCorridorStartInvalid | kCorridorAheadInvalid);
    // The polygon the agent stands on gone (a stale ref, as after a tile rebuild).
    std::vector<dtPolyRef> polys(corridor.getPath(), corridor.getPath() + n);
    unsigned int salt = 0, tile = 0, poly = 0;
    navmesh.detour().decodePolyId(polys[0], salt, tile, poly);
    polys[0] = navmesh.detour().encodePolyId(salt + 1, tile, poly);
    corridor.setCorridor(corridor.getTarget(), polys.data(), n);
    row = dense_row(corridor, shapes.index());
    const std::uint8_t found = check_corridor(open_tables, row.data(), n, last);
    EXPECT_EQ((found & kCorridorStartInvalid) != 0,
              !query->isValidPolyRef(polys[0], &navmesh.filter()));
    EXPECT_EQ((found & kCorridorAheadInvalid) != 0,
              !corridor.isValid(kLookAhead, query.get(), &navmesh.filter()));
    stale_starts += (found & kCorridorStartInvalid) ? 1 : 0;
  });
  EXPECT_GT(short_ones, 20);
  EXPECT_EQ(stale_starts, corridors);
  // An empty corridor stands on nothing and ends short of any goal.
  EXPECT_EQ(check_corridor(open_tables, nullptr, 0, 3), kCorridorStartInvalid | kCorridorNearEnd);
}

#if defined(CROWD_HAS_CUDA)
class CudaCorridorValidity : public CorridorValidity {};

TEST_F(CudaCorridorValidity, ChecksAreTheCpus) {
  if (cuda_device_count() == 0)
    GTEST_SKIP() << test::kNoCudaDevice;
  const NavmeshTablesView tables = outline_tables_view(shapes);
  // Corridors of every kind: whole, short, with a stale start or a stale polygon further on,
  // heading for their last polygon or elsewhere.
  CorridorRows corridors;
  corridors.capacity = 64;
  std::vector<std::int32_t> goals;
  for_random_corridors(navmesh, *query, 12, [&](dtPathCorridor& corridor, std::mt19937& rng) {
    std::vector<std::int32_t> row = dense_row(corridor, shapes.index());
    const int n = static_cast<int>(row.size());
    if (rng() % 3 == 0)
      row[rng() % static_cast<unsigned>(n)] = -1; // a polygon the navmesh no longer has
    row.resize(64, -1);
    corridors.polys.insert(corridors.polys.end(), row.begin(), row.end());
    corridors.size.push_back(n);
    corridors.position.insert(corridors.position.end(), corridor.getPos(), corridor.getPos() + 3);
    corridors.target.insert(corridors.target.end(), corridor.getTarget(), corridor.getTarget() + 3);
    goals.push_back(rng() % 2 ? row[static_cast<std::size_t>(n - 1)]
                              : static_cast<std::int32_t>(rng() % 50));
  });
  std::vector<std::uint8_t> cpu(goals.size());
  int each[3] = {0, 0, 0};
  for (std::size_t i = 0; i < goals.size(); ++i) {
    cpu[i] = check_corridor(tables, &corridors.polys[i * 64], corridors.size[i], goals[i]);
    for (int bit = 0; bit < 3; ++bit)
      each[bit] += (cpu[i] >> bit) & 1;
  }
  EXPECT_GT(each[0], 0);
  EXPECT_GT(each[1], 0);
  EXPECT_GT(each[2], 0);
  const DeviceNavmeshTables device_tables(tables);
  EXPECT_EQ(check_corridors_on_device(device_tables, corridors, goals), cpu);
}
#endif

} // namespace
} // namespace crowd
