// Clearance on the compact heightfield: exact Euclidean distances to the squares where the
// walkable floor ends (grid_clearance.h says which squares and why).
#include "host/navmesh/grid_clearance.h"

#include <Recast.h>
#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace crowd {

namespace {

// segment_clearance samples a segment at least this often, in cells: the distance to a
// square changes by at most the distance moved, so between two samples it can dip at most half
// the step below them (a sixteenth of a cell).
constexpr double kSampleStepCells = 0.125;

double gap_cells(int dx, int dz) {
  const double gx = std::max(std::abs(dx) - 1, 0), gz = std::max(std::abs(dz) - 1, 0);
  return std::sqrt(gx * gx + gz * gz);
}

} // namespace

GridClearance::GridClearance(const rcCompactHeightfield& chf, float radius)
    : chf_(chf), radius_cells_(std::max(0.0, static_cast<double>(radius) / chf.cs)),
      reach_(static_cast<int>(std::ceil(radius_cells_))),
      column_of_(static_cast<std::size_t>(chf.spanCount)),
      stamp_(static_cast<std::size_t>(chf.spanCount), 0) {
  for (int column = 0; column < chf.width * chf.height; ++column) {
    const rcCompactCell& cell = chf.cells[column];
    for (unsigned int i = cell.index, end = cell.index + cell.count; i < end; ++i) {
      column_of_[i] = column;
    }
  }
}

template <typename Visit> void GridClearance::visit_window(int start, int reach, Visit&& visit) {
  if (++epoch_ == 0) { // Wrapped: clear the stamps once every 2^32 windows.
    std::fill(stamp_.begin(), stamp_.end(), 0);
    epoch_ = 1;
  }
  const int w = chf_.width;
  const int sx = column_of_[static_cast<std::size_t>(start)] % w;
  const int sz = column_of_[static_cast<std::size_t>(start)] / w;
  queue_.clear();
  queue_.push_back(start);
  stamp_[static_cast<std::size_t>(start)] = epoch_;
  for (std::size_t head = 0; head < queue_.size(); ++head) {
    const int span = queue_[head];
    const int column = column_of_[static_cast<std::size_t>(span)];
    const int x = column % w, z = column / w;
    if (!visit(span, x, z)) {
      return;
    }
    const rcCompactSpan& s = chf_.spans[span];
    for (int dir = 0; dir < 4; ++dir) {
      const int con = rcGetCon(s, dir);
      if (con == RC_NOT_CONNECTED) {
        continue;
      }
      const int nx = x + rcGetDirOffsetX(dir), nz = z + rcGetDirOffsetY(dir);
      if (std::abs(nx - sx) > reach || std::abs(nz - sz) > reach) {
        continue;
      }
      const int neighbour = static_cast<int>(chf_.cells[nx + nz * w].index) + con;
      if (stamp_[static_cast<std::size_t>(neighbour)] != epoch_) {
        stamp_[static_cast<std::size_t>(neighbour)] = epoch_;
        queue_.push_back(neighbour);
      }
    }
  }
}

double GridClearance::square_clearance(int start, double limit) {
  const int w = chf_.width;
  const int sx = column_of_[static_cast<std::size_t>(start)] % w;
  const int sz = column_of_[static_cast<std::size_t>(start)] / w;
  double best = limit;
  visit_window(start, reach_, [&](int span, int x, int z) {
    const rcCompactSpan& s = chf_.spans[span];
    for (int dir = 0; dir < 4; ++dir) {
      if (rcGetCon(s, dir) == RC_NOT_CONNECTED) {
        best =
            std::min(best, gap_cells(x + rcGetDirOffsetX(dir) - sx, z + rcGetDirOffsetY(dir) - sz));
      }
    }
    return best >= limit;
  });
  return best;
}

double GridClearance::point_clearance(glm::dvec2 p, int start, int reach, double limit) {
  double best = limit;
  visit_window(start, reach, [&](int span, int x, int z) {
    const rcCompactSpan& s = chf_.spans[span];
    for (int dir = 0; dir < 4; ++dir) {
      if (rcGetCon(s, dir) != RC_NOT_CONNECTED) {
        continue;
      }
      const glm::dvec2 lo(x + rcGetDirOffsetX(dir), z + rcGetDirOffsetY(dir));
      const glm::dvec2 d = glm::max(glm::max(lo - p, p - (lo + 1.0)), glm::dvec2(0.0));
      best = std::min(best, glm::length(d));
    }
    return true;
  });
  return best;
}

void GridClearance::erode(rcCompactHeightfield& chf) {
  if (radius_cells_ <= 0.0) {
    return;
  }
  const int spans = chf.spanCount, w = chf.width;
  // Only spans a few steps from where the floor ends can be nearer than the radius to it: a
  // blocker within reach_ + 1 columns is at most 2 (reach_ + 1) steps away through connected
  // spans, or a nearer one lies between. Breadth-first steps from every span that has one.
  const int max_steps = 2 * (reach_ + 1);
  std::vector<int> steps(static_cast<std::size_t>(spans), max_steps + 1);
  std::vector<int> frontier;
  for (int i = 0; i < spans; ++i) {
    for (int dir = 0; dir < 4; ++dir) {
      if (rcGetCon(chf.spans[i], dir) == RC_NOT_CONNECTED) {
        steps[static_cast<std::size_t>(i)] = 0;
        frontier.push_back(i);
        break;
      }
    }
  }
  for (std::size_t head = 0; head < frontier.size(); ++head) {
    const int span = frontier[head];
    const int next = steps[static_cast<std::size_t>(span)] + 1;
    if (next > max_steps) {
      continue;
    }
    const int column = column_of_[static_cast<std::size_t>(span)];
    const int x = column % w, z = column / w;
    for (int dir = 0; dir < 4; ++dir) {
      const int con = rcGetCon(chf.spans[span], dir);
      if (con == RC_NOT_CONNECTED) {
        continue;
      }
      const int neighbour =
          static_cast<int>(
              chf.cells[x + rcGetDirOffsetX(dir) + (z + rcGetDirOffsetY(dir)) * w].index) +
          con;
      if (steps[static_cast<std::size_t>(neighbour)] > next) {
        steps[static_cast<std::size_t>(neighbour)] = next;
        frontier.push_back(neighbour);
      }
    }
  }

  const double threshold = radius_cells_ - kClearanceTolerance;
  std::vector<int> blocked;
  for (int i = 0; i < spans; ++i) {
    if (steps[static_cast<std::size_t>(i)] <= max_steps &&
        square_clearance(i, threshold) < threshold) {
      blocked.push_back(i);
    }
  }
  for (const int i : blocked) {
    chf.areas[i] = RC_NULL_AREA;
  }
}

float GridClearance::segment_clearance(const glm::vec3& p, const glm::vec3& q) {
  const double cs = chf_.cs, ch = chf_.ch;
  const glm::dvec3 a((p.x - chf_.bmin[0]) / cs, (p.y - chf_.bmin[1]) / ch,
                     (p.z - chf_.bmin[2]) / cs);
  const glm::dvec3 b((q.x - chf_.bmin[0]) / cs, (q.y - chf_.bmin[1]) / ch,
                     (q.z - chf_.bmin[2]) / cs);
  const double length = glm::length(glm::dvec2(b.x - a.x, b.z - a.z));
  const int samples = static_cast<int>(std::ceil(length / kSampleStepCells)) + 1;
  double best = radius_cells_;
  for (int k = 0; k < samples && best > 0.0; ++k) {
    const double t = samples > 1 ? static_cast<double>(k) / (samples - 1) : 0.0;
    const glm::dvec3 point = a + t * (b - a);
    // The span under the point, at the segment's height: in one of the (up to four) columns
    // whose closed square holds the point.
    int span = -1;
    const int cx = static_cast<int>(std::floor(point.x)),
              cz = static_cast<int>(std::floor(point.z));
    for (int dz = 0; dz <= 1 && span < 0; ++dz) {
      for (int dx = 0; dx <= 1 && span < 0; ++dx) {
        const int x = cx - dx, z = cz - dz;
        if ((dx == 1 && point.x != cx) || (dz == 1 && point.z != cz) || x < 0 || z < 0 ||
            x >= chf_.width || z >= chf_.height) {
          continue;
        }
        const rcCompactCell& cell = chf_.cells[x + z * chf_.width];
        double nearest = chf_.walkableClimb + 0.5;
        for (unsigned int i = cell.index, end = cell.index + cell.count; i < end; ++i) {
          const double dy = std::abs(chf_.spans[i].y - point.y);
          if (dy < nearest) {
            nearest = dy;
            span = static_cast<int>(i);
          }
        }
      }
    }
    if (span < 0) {
      return 0.0f; // No floor at this height here.
    }
    best = std::min(best, point_clearance({point.x, point.z}, span, reach_ + 1, best));
  }
  return static_cast<float>(best * cs);
}

} // namespace crowd
