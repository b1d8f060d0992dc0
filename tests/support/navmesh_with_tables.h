// A test navmesh with its Detour query and the tables the corridor kernels read
// (host/paths/navmesh_tables.h), built together as the crowd builds them.
#pragma once

#include "host/navmesh/navmesh.h"
#include "host/paths/navmesh_tables.h"
#include "host/scenario/scenario.h"

namespace crowd::test {

struct NavmeshWithTables {
  explicit NavmeshWithTables(const Scenario& world)
      : navmesh(NavMesh::build(world)), query(navmesh.make_query()), portals(navmesh.detour()),
        shapes(navmesh.detour(), navmesh.filter()), tables(navmesh_tables_view(portals, shapes)) {}
  NavmeshWithTables(const NavmeshWithTables&) = delete;
  NavmeshWithTables& operator=(const NavmeshWithTables&) = delete;

  NavMesh navmesh;
  NavQueryPtr query;
  PortalTable portals;
  PolygonShapes shapes;
  NavmeshTablesView tables; ///< Of portals and shapes.
};

} // namespace crowd::test
