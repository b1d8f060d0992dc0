// What the RiMEA scenarios of the verification suite share: the scenario settings, agent
// groups drawn from RiMEA's speed table, and the report's number formatting.
#pragma once

#include "host/verify/rimea_reference.h"
#include "host/verify/verify_types.h"

#include <glm/glm.hpp>
#include <string>
#include <vector>

namespace crowd {

/// Radius of every agent of the suite: 0.2 m, a body of 0.4 m shoulder width (Vadere's
/// default pedestrian radius is 0.195 m; JuPedSim's ellipses have semi-axes of 0.15-0.25 m).
/// The scenario format's default, 0.4 m, is RecastDemo's and too wide for doors of 1 m.
inline constexpr float kAgentRadius = 0.2f;

/// A scenario with the suite's settings: seed 1, dt 0.1 s, the given duration, a 2D world of
/// the given bounds, agents of radius kAgentRadius at Weidmann's free speed (1.34 m/s), and
/// navmesh cells of 0.1 m. The default cell (0.3 m) erodes a whole cell for a 0.2 m agent and
/// gives a 1 m door no navmesh at all; 0.1 m erodes exactly the radius.
Scenario rimea_scenario(const std::string& name, glm::vec2 lo, glm::vec2 hi, float duration);

/// A rect-spawned group of `count` agents heading for `goal`, the scenario's defaults with
/// on_arrival `remove` (evacuation: they leave once out).
GroupSpec rect_group(const Scenario& scenario, int count, glm::vec2 lo, glm::vec2 hi,
                     glm::vec2 goal);

/// Groups of adults as RiMEA test 9 asks ("a population of adult persons" from the speed
/// table, kRimeaSpeedGroups' first three rows): `count` agents split as evenly as possible
/// into the three groups, each group's speed uniform over its row's range, all in the rect,
/// heading for `goal`, leaving on arrival.
void add_adult_groups(Scenario& scenario, int count, glm::vec2 lo, glm::vec2 hi, glm::vec2 goal);

/// `value` with `decimals` decimals.
std::string fixed(double value, int decimals);

} // namespace crowd
