// Navmesh tables that leave some of the navmesh to Detour, so that the corridor phases flag
// agents for the host every step (the event path: the rows asked about, fetched, answered).
#pragma once

#include "cuda/kernels/navmesh_tables.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace crowd::test {

/// The navmesh tables with every third polygon left to Detour: its edges ask, and it is not
/// flat, so the corners through it, shortcuts across it and moves into it are the host's.
struct PartlyAskingTables {
  std::vector<std::int32_t> across;
  std::vector<std::uint8_t> flat;
  NavmeshTablesView view;

  explicit PartlyAskingTables(const NavmeshTablesView& full) : view(full) {
    across.assign(full.across, full.across + full.vertex_start[full.polygon_count]);
    flat.assign(full.flat, full.flat + full.polygon_count);
    for (int p = 0; p < full.polygon_count; p += 3) {
      flat[static_cast<std::size_t>(p)] = 0;
      for (int e = full.vertex_start[p]; e < full.vertex_start[p + 1]; ++e)
        across[static_cast<std::size_t>(e)] = kEdgeAskDetour;
    }
    view.across = across.data();
    view.flat = flat.data();
  }
  PartlyAskingTables(const PartlyAskingTables&) = delete; // the view points into this one
  PartlyAskingTables& operator=(const PartlyAskingTables&) = delete;
};

} // namespace crowd::test
