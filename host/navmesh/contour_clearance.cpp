// Contour wall edges kept the radius clear of blockers by putting back raw contour vertices
// (contour_clearance.h).
#include "host/navmesh/contour_clearance.h"

#include <Recast.h>
#include <RecastAlloc.h>
#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <utility>
#include <vector>

namespace crowd {

namespace {

std::uint64_t vertex_key(int region, int x, int z) {
  // Grid coordinates stay below 65535 (navmesh.cpp refuses larger grids).
  return (static_cast<std::uint64_t>(region) << 40) |
         (static_cast<std::uint64_t>(x & 0xfffff) << 20) | static_cast<std::uint64_t>(z & 0xfffff);
}

// Squared distance of p from the line through a and b, in cells (x/z).
double line_distance2(const int* p, const int* a, const int* b) {
  const double dx = b[0] - a[0], dz = b[2] - a[2];
  const double cross = dx * (p[2] - a[2]) - dz * (p[0] - a[0]);
  const double len2 = dx * dx + dz * dz;
  return len2 > 0.0 ? cross * cross / len2 : 0.0;
}

class ContourRefiner {
public:
  ContourRefiner(rcContourSet& contours, Clearance& clearance, float radius)
      : contours_(contours), clearance_(clearance),
        threshold_(static_cast<double>(radius) - kClearanceTolerance * contours.cs) {
    for (int k = 0; k < contours.nconts; ++k) {
      const rcContour& c = contours.conts[k];
      for (int j = 0; j < c.nrverts; ++j) {
        raw_at_[vertex_key(c.reg, c.rverts[4 * j], c.rverts[4 * j + 2])].emplace_back(k, j);
      }
    }
  }

  void refine(rcContour& contour) {
    const int n = contour.nverts;
    if (n < 3) {
      return;
    }
    std::vector<int> out;
    out.reserve(static_cast<std::size_t>(4 * n));
    bool changed = false;
    for (int i = 0; i < n; ++i) {
      const int* a = &contour.verts[4 * i];
      const int* b = &contour.verts[4 * ((i + 1) % n)];
      out.insert(out.end(), a, a + 4);
      if ((a[3] & RC_CONTOUR_REG_MASK) != 0) {
        continue; // A portal to another region, shared with its contour: left as it is.
      }
      int raw_contour = -1, first = 0, count = 0;
      if (!raw_path(contour.reg, a, b, raw_contour, first, count) || count == 0) {
        continue;
      }

      const rcContour& raw = contours_.conts[raw_contour];
      inserted_.clear();
      split(a, b, raw, first, count);
      for (const int j : inserted_) {
        const int* r = &raw.rverts[4 * j];
        out.insert(out.end(),
                   {r[0], r[1], r[2],
                    (a[3] & (RC_CONTOUR_REG_MASK | RC_AREA_BORDER)) | (r[3] & RC_BORDER_VERTEX)});
        changed = true;
      }
    }
    if (!changed) {
      return;
    }
    int* verts = static_cast<int*>(rcAlloc(sizeof(int) * out.size(), RC_ALLOC_PERM));
    if (verts == nullptr) {
      return; // Out of memory: keep Recast's contour.
    }
    std::memcpy(verts, out.data(), sizeof(int) * out.size());
    rcFree(contour.verts);
    contour.verts = verts;
    contour.nverts = static_cast<int>(out.size() / 4);
  }

private:
  glm::vec3 world(const int* v) const {
    return {contours_.bmin[0] + static_cast<float>(v[0]) * contours_.cs,
            contours_.bmin[1] + static_cast<float>(v[1]) * contours_.ch,
            contours_.bmin[2] + static_cast<float>(v[2]) * contours_.cs};
  }

  // The raw contour stretch from a to b (simplified vertices are raw vertices, in the raw
  // order): the raw contour that holds a (in the region's outline, or in a hole Recast merged
  // into it) and the shortest walk forward from a to b. Its inner vertices are raw indices
  // first, first + 1, ... (modulo the raw count), count of them.
  bool raw_path(int region, const int* a, const int* b, int& raw_contour, int& first, int& count) {
    const auto it = raw_at_.find(vertex_key(region, a[0], a[2]));
    if (it == raw_at_.end()) {
      return false;
    }
    bool found = false;
    for (const auto& [k, start] : it->second) {
      const rcContour& c = contours_.conts[k];
      for (int step = 1; step < c.nrverts && (!found || step - 1 < count); ++step) {
        const int* r = &c.rverts[4 * ((start + step) % c.nrverts)];
        if (r[0] == b[0] && r[2] == b[2]) {
          if (!found || step - 1 < count) {
            found = true;
            raw_contour = k;
            first = (start + 1) % c.nrverts;
            count = step - 1;
          }
          break;
        }
      }
    }
    return found;
  }

  // Douglas-Peucker on the stretch's inner vertices, splitting only where the chord a-b comes
  // nearer than the radius to a blocker. Appends the raw indices kept, in order.
  void split(const int* a, const int* b, const rcContour& raw, int first, int count) {
    if (count == 0) {
      return;
    }
    double farthest = 0.0;
    int pick = -1;
    for (int t = 0; t < count; ++t) {
      const double d = line_distance2(&raw.rverts[4 * ((first + t) % raw.nrverts)], a, b);
      if (d > farthest) {
        farthest = d;
        pick = t;
      }
    }
    if (pick < 0) {
      return; // The stretch is straight: the chord is the raw contour itself.
    }
    if (clearance_.segment_clearance(world(a), world(b)) >= threshold_) {
      return;
    }
    const int m = (first + pick) % raw.nrverts;
    const int* mid = &raw.rverts[4 * m];
    split(a, mid, raw, first, pick);
    inserted_.push_back(m);
    split(mid, b, raw, (m + 1) % raw.nrverts, count - pick - 1);
  }

  rcContourSet& contours_;
  Clearance& clearance_;
  double threshold_;
  std::unordered_map<std::uint64_t, std::vector<std::pair<int, int>>> raw_at_;
  std::vector<int> inserted_;
};

} // namespace

void restore_contour_clearance(rcContourSet& contours, Clearance& clearance, float radius) {
  if (radius <= 0.0f) {
    return;
  }
  ContourRefiner refiner(contours, clearance, radius);
  for (int k = 0; k < contours.nconts; ++k) {
    refiner.refine(contours.conts[k]);
  }
}

} // namespace crowd
