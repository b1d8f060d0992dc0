// The floor of RiMEA tests 8 and 10: twelve rooms of 5 m x 4.8 m, six on each side of a 2 m
// corridor 30 m long, each with a 1 m door onto it; the corridor's two ends are the exits, the
// left one (x = 0) and the right one (x = 30), onto open ground 3 m deep. RiMEA's test 10
// figure is a floor of 12 rooms on a corridor with two exits; the dimensions are ours.
#pragma once

#include "host/scenario/scenario.h"

#include <glm/glm.hpp>
#include <string>

namespace crowd {

inline constexpr int kOfficeRooms = 12;
inline constexpr float kOfficeLength = 30.0f;

/// A scenario of that floor (rimea_scenario settings), no agents yet.
Scenario office_floor(const std::string& name, float duration);

/// Room r's inner rect, 0.3 m clear of its walls: rooms 0-5 below the corridor, left to
/// right, 6-11 above it.
std::pair<glm::vec2, glm::vec2> office_room(int room);

/// Goals 1.5 m outside the left (x < 0) and right (x > 30) exits.
glm::vec2 office_exit_goal(bool right);

/// The exits' lines across the corridor's ends.
std::pair<glm::vec2, glm::vec2> office_exit_line(bool right);

} // namespace crowd
