// Scenario extension `world.periodic` (docs/scenario-extensions.md): a 2D world whose bounds
// are one period along x or z. An agent that leaves the bounds at one end of that axis
// re-enters at the other with the same velocity and goal, as in a ring corridor, which is
// what measuring a fundamental diagram needs (RiMEA 3.0 test 4; JuPedSim's and Vadere's
// periodic corridors: Vadere moves agents crossing a line by a fixed shift, its
// TeleporterController).
//
// How it is built:
// * The navmesh continues a "runway" past each periodic end (the floor is extended and the
//   obstacles near the other end are copied there, shifted by one period), so an agent near
//   the end sees the walls it would see at the other end, and a goal can lie ahead of it.
// * A goal on or past a periodic end (x >= xmax, or x <= xmin) is placed in the runway
//   (`runway_goal`), which the agent never reaches: it walks that way around the world
//   forever. Goals inside the bounds are ordinary goals.
// * After each step the simulation moves every agent that is past an end by one period
//   (host/sim/periodic_wrap.h).
//
// What it does not do: agents do not see each other across the seam (neither DetourCrowd nor
// our kernels know of periodic neighbours), so the first metres on each side of the seam are
// not representative; measure far from it.
#pragma once

#include "host/scenario/scenario.h"

#include <glm/glm.hpp>
#include <optional>
#include <vector>

namespace crowd {

/// The periodic axis of a 2D world and everything derived from it.
struct PeriodicFrame {
  int axis = 0;          ///< 0: x, 1: z (index into a ground point (x, z)).
  float lo = 0.0f;       ///< Lower bound of the axis (xmin or zmin).
  float hi = 0.0f;       ///< Upper bound.
  float runway = 0.0f;   ///< Navmesh past each end, metres.
  float goal_gap = 0.0f; ///< Distance of a runway goal past the end, metres.

  float period() const { return hi - lo; }
  /// Where a goal coordinate along the axis goes: past an end into the runway, else unchanged.
  float goal_coordinate(float requested) const;
  /// The shift (a multiple of the period, 0 when inside) that brings `coordinate` into
  /// [lo, hi).
  float wrap_shift(float coordinate) const;
  /// `delta` (a difference of two coordinates along the axis) reduced to the nearest image,
  /// in [-period / 2, period / 2].
  float nearest_image(float delta) const;
};

/// The frame of a periodic 2D world, or nothing. The runway is
/// reach + largest radius + 2 cells, reach = max(2 m, largest collision query range, largest
/// arrival radius + 3 x largest radius): an agent near the end sees the walls and the goal it
/// would see in a longer corridor, and a runway goal is farther than arrival radius plus
/// DetourCrowd's slow-down distance (2 x radius) from the end, so nobody arrives before
/// crossing it.
std::optional<PeriodicFrame> periodic_frame(const Scenario& scenario);

/// The 2D world the navmesh of a periodic scenario is built from: the bounds extended by the
/// runway at both ends of the axis, the obstacles plus their copies shifted by one period that
/// reach into the extended bounds. The scenario's world itself when it is not periodic.
WorldSpec periodic_navmesh_world(const Scenario& scenario);

/// The obstacles of the world plus their images one period away that reach within `reach` of
/// the bounds along the axis (used for the navmesh and by the metrics' wall test).
std::vector<Polygon2D> obstacles_with_images(const WorldSpec& world, const PeriodicFrame& frame,
                                             float reach);

} // namespace crowd
