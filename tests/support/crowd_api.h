// Helpers of the tests of the Crowd API (host/sim/crowd.h): options for one backend, and the
// distance on the ground between two points, which arrivals are judged by.
#pragma once

#include "host/sim/crowd.h"

#include <cmath>
#include <glm/glm.hpp>

namespace crowd::test {

/// Default options but for the backend.
inline CrowdOptions crowd_on(BackendKind backend) {
  CrowdOptions options;
  options.backend = backend;
  return options;
}

/// Distance in the ground plane (x, z), heights left out.
inline float ground_distance(glm::vec3 a, glm::vec3 b) {
  return std::hypot(a.x - b.x, a.z - b.z);
}

} // namespace crowd::test
