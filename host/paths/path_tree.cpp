#include "host/paths/path_tree.h"

#include <DetourNavMeshQuery.h>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <utility>

namespace crowd {
namespace {

glm::vec3 vertex(const dtMeshTile& tile, int v) {
  const float* p = &tile.verts[static_cast<std::size_t>(v) * 3];
  return {p[0], p[1], p[2]};
}

// dtNavMeshQuery::getPortalPoints (private there) for the link `link` of `from` that leads to
// `to`; returns the portal's midpoint, as getEdgeMidPoint does.
glm::vec3 portal_midpoint(const dtMeshTile& from_tile, const dtPoly& from, const dtLink& link,
                          dtPolyRef from_ref, const dtMeshTile& to_tile, const dtPoly& to) {
  if (from.getType() == DT_POLYTYPE_OFFMESH_CONNECTION)
    return vertex(from_tile, from.verts[link.edge]);
  if (to.getType() == DT_POLYTYPE_OFFMESH_CONNECTION) {
    for (unsigned int k = to.firstLink; k != DT_NULL_LINK; k = to_tile.links[k].next) {
      if (to_tile.links[k].ref == from_ref)
        return vertex(to_tile, to.verts[to_tile.links[k].edge]);
    }
    return vertex(to_tile, to.verts[0]);
  }
  glm::vec3 left = vertex(from_tile, from.verts[link.edge]);
  glm::vec3 right = vertex(from_tile, from.verts[(link.edge + 1) % from.vertCount]);
  if (link.side != 0xff && (link.bmin != 0 || link.bmax != 255)) {
    // A link across a tile border covers part of the edge.
    const float s = 1.0f / 255.0f;
    const glm::vec3 a = left, b = right;
    left = a + (b - a) * (static_cast<float>(link.bmin) * s);
    right = a + (b - a) * (static_cast<float>(link.bmax) * s);
  }
  return (left + right) * 0.5f;
}

} // namespace

PolygonGraph::PolygonGraph(const dtNavMesh& navmesh, const dtQueryFilter& filter)
    : navmesh_(navmesh) {
  const int tiles = navmesh.getMaxTiles();
  tile_base_.assign(static_cast<std::size_t>(tiles), -1);
  std::vector<std::int32_t> area;
  for (int t = 0; t < tiles; ++t) {
    const dtMeshTile* tile = navmesh.getTile(t);
    if (tile == nullptr || tile->header == nullptr)
      continue;
    tile_base_[static_cast<std::size_t>(t)] = static_cast<std::int32_t>(refs_.size());
    const dtPolyRef base = navmesh.getPolyRefBase(tile);
    for (int p = 0; p < tile->header->polyCount; ++p) {
      const dtPoly& poly = tile->polys[p];
      glm::vec3 c(0.0f);
      for (int v = 0; v < poly.vertCount; ++v)
        c += vertex(*tile, poly.verts[v]);
      refs_.push_back(base | static_cast<dtPolyRef>(p));
      centroid_.push_back(poly.vertCount > 0 ? c / static_cast<float>(poly.vertCount) : c);
      area_cost_.push_back(filter.getAreaCost(poly.getArea()));
    }
  }
  // Forward links w -> u that pass the filter (at both ends), regrouped by u.
  struct Link {
    std::int32_t to, from;
    glm::vec3 mid;
  };
  std::vector<Link> links;
  std::vector<bool> passes(refs_.size());
  for (std::size_t i = 0; i < refs_.size(); ++i) {
    const dtMeshTile* tile = nullptr;
    const dtPoly* poly = nullptr;
    navmesh.getTileAndPolyByRefUnsafe(refs_[i], &tile, &poly);
    (void)tile;
    // dtQueryFilter::passFilter's default test, spelled out: the installed library's symbol
    // for it depends on DT_VIRTUAL_QUERYFILTER, which its headers do not tell us.
    passes[i] = (poly->flags & filter.getIncludeFlags()) != 0 &&
                (poly->flags & filter.getExcludeFlags()) == 0;
  }
  for (std::size_t w = 0; w < refs_.size(); ++w) {
    if (!passes[w])
      continue;
    const dtMeshTile* tile = nullptr;
    const dtPoly* poly = nullptr;
    navmesh.getTileAndPolyByRefUnsafe(refs_[w], &tile, &poly);
    for (unsigned int k = poly->firstLink; k != DT_NULL_LINK; k = tile->links[k].next) {
      const dtLink& link = tile->links[k];
      const int u = index_of(link.ref);
      if (u < 0 || !passes[static_cast<std::size_t>(u)])
        continue;
      const dtMeshTile* to_tile = nullptr;
      const dtPoly* to_poly = nullptr;
      navmesh.getTileAndPolyByRefUnsafe(link.ref, &to_tile, &to_poly);
      links.push_back({u, static_cast<std::int32_t>(w),
                       portal_midpoint(*tile, *poly, link, refs_[w], *to_tile, *to_poly)});
    }
  }
  rev_start_.assign(refs_.size() + 1, 0);
  for (const Link& l : links)
    ++rev_start_[static_cast<std::size_t>(l.to) + 1];
  for (std::size_t u = 0; u < refs_.size(); ++u)
    rev_start_[u + 1] += rev_start_[u];
  rev_from_.resize(links.size());
  rev_mid_.resize(links.size());
  std::vector<std::int32_t> fill(rev_start_.begin(), rev_start_.end() - 1);
  for (const Link& l : links) {
    const auto slot = static_cast<std::size_t>(fill[static_cast<std::size_t>(l.to)]++);
    rev_from_[slot] = l.from;
    rev_mid_[slot] = l.mid;
  }
  // Filtered-out polygons are unknown to the searches.
  for (std::size_t i = 0; i < refs_.size(); ++i) {
    if (!passes[i])
      refs_[i] = 0;
  }
}

int PolygonGraph::index_of(dtPolyRef ref) const {
  if (ref == 0)
    return -1;
  unsigned int salt = 0, it = 0, ip = 0;
  navmesh_.decodePolyId(ref, salt, it, ip);
  if (it >= tile_base_.size() || tile_base_[it] < 0)
    return -1;
  const std::size_t index = static_cast<std::size_t>(tile_base_[it]) + ip;
  if (index >= refs_.size() || refs_[index] != ref)
    return -1;
  return static_cast<int>(index);
}

void PolygonGraph::build_tree(int goal, PathTree& tree) const {
  const std::size_t n = refs_.size();
  tree.goal = goal;
  tree.next.assign(n, PathTree::kUnreached);
  // Per-thread scratch: a tree is built by one worker at a time, and reusing the buffers
  // avoids three allocations of the polygon count per tree.
  thread_local std::vector<float> cost;
  thread_local std::vector<glm::vec3> pos;
  thread_local std::vector<std::pair<float, std::int32_t>> heap;
  cost.assign(n, std::numeric_limits<float>::infinity());
  pos.resize(n);
  heap.clear();
  // A min-heap on (cost, polygon index): ties go to the lower index, so the tree is one fixed
  // function of the goal.
  const auto later = std::greater<std::pair<float, std::int32_t>>();
  const auto g = static_cast<std::size_t>(goal);
  cost[g] = 0.0f;
  pos[g] = centroid_[g];
  tree.next[g] = PathTree::kGoal;
  heap.push_back({0.0f, goal});
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    const auto [c, u] = heap.back();
    heap.pop_back();
    const auto uu = static_cast<std::size_t>(u);
    if (c > cost[uu])
      continue; // stale entry
    const glm::vec3 pu = pos[uu];
    const float area = area_cost_[uu];
    for (std::int32_t e = rev_start_[uu]; e < rev_start_[uu + 1]; ++e) {
      const auto w = static_cast<std::size_t>(rev_from_[static_cast<std::size_t>(e)]);
      const glm::vec3 mid = rev_mid_[static_cast<std::size_t>(e)];
      // The stretch from the portal into u toward u's own point lies in u: u's area cost
      // (dtQueryFilter::getCost charges the polygon being crossed).
      const float nc = c + glm::distance(pu, mid) * area;
      if (nc < cost[w]) {
        cost[w] = nc;
        pos[w] = mid;
        tree.next[w] = u;
        heap.push_back({nc, static_cast<std::int32_t>(w)});
        std::push_heap(heap.begin(), heap.end(), later);
      }
    }
  }
}

int PolygonGraph::extract_path(const PathTree& tree, int start, std::span<dtPolyRef> out,
                               bool& complete) const {
  complete = false;
  if (start < 0 || tree.next[static_cast<std::size_t>(start)] == PathTree::kUnreached)
    return 0;
  int count = 0;
  int p = start;
  while (count < static_cast<int>(out.size())) {
    out[static_cast<std::size_t>(count++)] = refs_[static_cast<std::size_t>(p)];
    const std::int32_t next = tree.next[static_cast<std::size_t>(p)];
    if (next == PathTree::kGoal) {
      complete = true;
      break;
    }
    p = next;
  }
  return count;
}

std::size_t PolygonGraph::memory_bytes() const {
  return refs_.capacity() * sizeof(dtPolyRef) + tile_base_.capacity() * sizeof(std::int32_t) +
         centroid_.capacity() * sizeof(glm::vec3) + area_cost_.capacity() * sizeof(float) +
         (rev_start_.capacity() + rev_from_.capacity()) * sizeof(std::int32_t) +
         rev_mid_.capacity() * sizeof(glm::vec3);
}

} // namespace crowd
