// The path validity look-ahead (cuda/kernels/corridor_validity.h) answers as
// dtPathCorridor::isValid: for corridors that are fine, for a filter that passes nothing, and
// for a polygon that no longer exists, before and beyond the look-ahead.
#include "cuda/kernels/corridor_validity.h"
#include "host/navmesh/navmesh.h"
#include "host/paths/navmesh_tables.h"
#include "tests/support/pillar_field.h"
#include "tests/support/random_path.h"

#include <DetourPathCorridor.h>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace crowd {
namespace {

constexpr int kLookAhead = 10;

// The corridor's polygons as dense indices, as the agent arrays' corridor rows hold them.
std::vector<std::int32_t> dense_row(const dtPathCorridor& corridor, const PolygonIndex& polygons) {
  std::vector<std::int32_t> row(static_cast<std::size_t>(corridor.getPathCount()));
  for (std::size_t k = 0; k < row.size(); ++k)
    row[k] = polygons.index_of(corridor.getPath()[k]);
  return row;
}

TEST(CorridorValidity, AnswersAsIsValid) {
  const NavMesh navmesh = NavMesh::build(test::pillar_field());
  NavQueryPtr query = navmesh.make_query();
  const PolygonShapes shapes(navmesh.detour(), navmesh.filter());
  dtQueryFilter nothing;
  nothing.setIncludeFlags(0);
  const PolygonShapes closed(navmesh.detour(), nothing);
  std::mt19937 rng(4);
  test::RandomPath path;
  int corridors = 0, stale_seen = 0, stale_beyond = 0;
  while (corridors < 300) {
    if (!test::random_path(*query, navmesh.filter(), navmesh.placement_extents(), rng, 64, path))
      continue;
    ++corridors;
    dtPathCorridor corridor;
    test::load_corridors(path, 64, {&corridor});
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
  }
  EXPECT_GT(stale_seen, 50);
  EXPECT_GT(stale_beyond, 10) << "some stale polygons lie beyond the look-ahead";
}

} // namespace
} // namespace crowd
