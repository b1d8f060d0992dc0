// The sides of an agent's corridor section: the edges of the polygons it walks through up to
// its second portal (its own polygon and the next one) that lead out of the corridor into
// another polygon. The navmesh's own boundary is in the wall grid already (wall_grid.h); these
// are the walls the time-to-collision model adds in its corridor mode, so that a sample that
// leaves the corridor is judged as one that leaves the navmesh (ttc_avoidance.h).
#pragma once

#include "cuda/common/hd.h"
#include "cuda/kernels/agent_view.h"
#include "cuda/kernels/navmesh_geometry.h"

#include <cstdint>

namespace crowd {

/// The most sides a section has: two polygons of nav::kMaxPolygonVertices edges each (at least one
/// of each is a portal, so the bound is never reached).
inline constexpr int kMaxCorridorSides = 2 * nav::kMaxPolygonVertices;

/// Calls visit(k, p, q) (x/z ends, p to q in the polygon's edge order, as the wall segments
/// run) for the k-th side of agent i's corridor section, k = 0, 1, ...; returns how many there
/// are. An edge is a side when a raycast leaving across it enters a polygon (navmesh_tables.h's
/// across) other than the corridor's first three, the one the section's far portal leads into
/// included. None where the agent has no rows or its corridor no portal left in the tables (its
/// goal's polygon, an off-mesh connection next): as corridor_section_direction, which the
/// model's fan is then not centred on either. Edges to no polygon are the navmesh's boundary,
/// and partial tile-border links (kEdgeAskDetour) may be partly a portal: neither counts.
template <class Visit>
CROWD_HD int for_each_corridor_side(const AgentCorridorsView& c, int i, Visit&& visit) {
  if (c.polys == nullptr)
    return 0;
  const int size = c.size[i];
  const std::int32_t* path = c.polys + static_cast<long long>(i) * c.capacity;
  if (size < 2 || c.nav.find_portal(path[0], path[1]) == nullptr)
    return 0;
  const int ahead = size < 3 ? size : 3; // the polygons an edge may lead into and stay inside
  int count = 0;
  for (int k = 0; k < 2; ++k) {
    const int polygon = path[k];
    const int edges = c.nav.vertex_count(polygon);
    const float* verts = c.nav.polygon_vertices(polygon);
    for (int e = 0; e < edges && count < kMaxCorridorSides; ++e) {
      const std::int32_t across = c.nav.across_edge(polygon, e);
      bool inside = across < 0;
      for (int m = 0; m < ahead; ++m)
        inside = inside || across == path[m];
      if (inside)
        continue;
      const int f = e + 1 < edges ? e + 1 : 0;
      visit(count, glm::vec2(verts[e * 3], verts[e * 3 + 2]),
            glm::vec2(verts[f * 3], verts[f * 3 + 2]));
      ++count;
    }
  }
  return count;
}

/// How many sides agent i's corridor section has (for_each_corridor_side).
CROWD_HD int corridor_side_count(const AgentCorridorsView& c, int i) {
  return for_each_corridor_side(c, i, [](int, glm::vec2, glm::vec2) {});
}

} // namespace crowd
