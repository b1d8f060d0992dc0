// The Recast cell size a scenario gets when its `world.navmesh` names none.
#pragma once

#include <glm/glm.hpp>

namespace crowd {

/// The specification's default cell size (shared/spec/scenario.md, `world.navmesh`), which is
/// also RecastDemo's (Sample_SoloMesh: cell size 0.3 for its default agent radius 0.6).
inline constexpr float kSpecCellSize = 0.3f;

/// Cells the default never makes a grid larger than (2048 x 2048), unless the specification's
/// 0.3 m would need more: Recast needs about 40 bytes a cell, and the build time grows with the
/// cell count (README, "The navmesh").
inline constexpr double kDefaultCellBudget = 4194304.0;

/// The cell size for agents of `agent_radius` metres in a world `extent` metres wide (x, z):
///
/// - half the radius, at most 0.3 m: RecastDemo's own ratio (radius 0.6, cell 0.3; its guidance
///   is "a half to a third of the agent radius"). The navmesh can only change at cell borders, so
///   each side of a passage loses up to a cell beyond the radius: at 0.3 m cells a 0.2 m agent
///   would lose more than its radius on each side. Half the radius is also exactly two cells in
///   floating point (halving is exact), so walls on the cell grid lose nothing beyond the radius.
/// - larger when that grid would exceed kDefaultCellBudget cells: the smallest size (rounded up
///   to a millimetre) within the budget, but never more than 0.3 m, so that the default never
///   gives a coarser navmesh than the specification's default would.
/// - 0.3 m for a radius of 0.
float default_cell_size(float agent_radius, glm::vec2 extent);

} // namespace crowd
