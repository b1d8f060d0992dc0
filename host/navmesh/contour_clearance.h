// Puts back contour vertices where Recast's simplification cut a corner of the eroded area.
#pragma once

#include "host/navmesh/clearance.h"

struct rcContourSet;

namespace crowd {

/// rcBuildContours replaces the raw contour of each region (which runs along cell borders, all
/// of it at least the radius from every blocker after Clearance::erode) by a polygon through
/// some of its vertices, within maxError cells of it (simplifyContour in RecastContour.cpp). Where
/// the raw contour bends round a convex corner of an obstacle (an arc of the radius around it)
/// the simplified edge is a chord of that arc, up to maxError cells nearer the obstacle: a 0.4 m
/// agent could cut 0.2 m into the corner at 0.3 m cells. For every wall edge (one with no region
/// across it) whose segment comes nearer than `radius` to a blocker, this inserts the raw vertex
/// farthest from it, and repeats on both halves (Douglas-Peucker on the raw contour), so that
/// every wall edge keeps the radius, up to kClearanceTolerance cells (and GridClearance's
/// sampling). Edges between regions are never changed: both regions' contours share them.
void restore_contour_clearance(rcContourSet& contours, Clearance& clearance, float radius);

} // namespace crowd
