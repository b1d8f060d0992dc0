// The host's tables of a navmesh (host/paths/portal_table.h, host/paths/polygon_shapes.h) as
// the corridor kernels read them (cuda/kernels/navmesh_tables.h).
#pragma once

#include "cuda/kernels/navmesh_tables.h"
#include "host/paths/polygon_shapes.h"
#include "host/paths/portal_table.h"

namespace crowd {

/// A view of the outlines and edge neighbours of `shapes` (no portals: enough for raycasts),
/// which must outlive it.
inline NavmeshTablesView outline_tables_view(const PolygonShapes& shapes) {
  NavmeshTablesView view;
  view.polygon_count = shapes.index().size();
  view.vertex_start = shapes.vertex_start();
  view.vertices = shapes.vertex_data();
  view.across = shapes.across_data();
  view.neighbour_start = shapes.neighbour_start();
  view.neighbours = shapes.neighbour_data();
  view.flat = shapes.flat_data();
  view.flat_height = shapes.flat_height_data();
  view.passable = shapes.passable_data();
  return view;
}

/// A view of `portals` and `shapes`, which must be built from the same navmesh (they then
/// number its polygons alike) and outlive the view.
inline NavmeshTablesView navmesh_tables_view(const PortalTable& portals,
                                             const PolygonShapes& shapes) {
  NavmeshTablesView view = outline_tables_view(shapes);
  view.portal_start = portals.start();
  view.portals = portals.portals();
  return view;
}

} // namespace crowd
