// The clusters of a tiled navmesh as a graph, and A* over it (tile_graph.h).
#include "host/paths/tile_graph.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <utility>

namespace crowd {

namespace {

int find_root(std::vector<std::int32_t>& parent, int x) {
  while (parent[static_cast<std::size_t>(x)] != x) {
    parent[static_cast<std::size_t>(x)] =
        parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
    x = parent[static_cast<std::size_t>(x)];
  }
  return x;
}

} // namespace

TileGraph::TileGraph(const dtNavMesh& navmesh) : navmesh_(&navmesh) {
  const auto slots = static_cast<std::size_t>(navmesh.getMaxTiles());
  position_.assign(slots, glm::ivec2(0));
  first_cluster_.assign(slots, -1);
  glm::ivec2 lo(std::numeric_limits<int>::max()), hi(std::numeric_limits<int>::min());
  // Clusters: union-find over each tile's links to polygons of the same tile.
  std::vector<std::int32_t> parent;
  std::vector<int> members; // polygons of each cluster
  for (std::size_t t = 0; t < slots; ++t) {
    const dtMeshTile* tile = navmesh.getTile(static_cast<int>(t));
    if (tile == nullptr || tile->header == nullptr)
      continue;
    position_[t] = {tile->header->x, tile->header->y};
    lo = glm::min(lo, position_[t]);
    hi = glm::max(hi, position_[t]);
    first_cluster_[t] = static_cast<std::int32_t>(poly_cluster_.size());
    const int polys = tile->header->polyCount;
    parent.resize(static_cast<std::size_t>(polys));
    std::iota(parent.begin(), parent.end(), 0);
    for (int p = 0; p < polys; ++p) {
      for (unsigned int k = tile->polys[p].firstLink; k != DT_NULL_LINK; k = tile->links[k].next) {
        const dtPolyRef ref = tile->links[k].ref;
        if (navmesh.decodePolyIdTile(ref) != t)
          continue;
        const int a = find_root(parent, p);
        const int b = find_root(parent, static_cast<int>(navmesh.decodePolyIdPoly(ref)));
        parent[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
      }
    }
    // Number the clusters in order of their lowest polygon, after those of earlier tiles;
    // centroid_ sums its polygons' centroids until the division below.
    std::vector<std::int32_t> number(static_cast<std::size_t>(polys), -1);
    for (int p = 0; p < polys; ++p) {
      const auto root = static_cast<std::size_t>(find_root(parent, p));
      if (number[root] < 0) {
        number[root] = static_cast<std::int32_t>(tile_.size());
        tile_.push_back(static_cast<std::int32_t>(t));
        centroid_.emplace_back(0.0f);
        members.push_back(0);
      }
      const auto cluster = static_cast<std::size_t>(number[root]);
      poly_cluster_.push_back(number[root]);
      const dtPoly& poly = tile->polys[p];
      glm::vec3 c(0.0f);
      for (int v = 0; v < poly.vertCount; ++v) {
        const float* q = &tile->verts[static_cast<std::size_t>(poly.verts[v]) * 3];
        c += glm::vec3(q[0], q[1], q[2]);
      }
      centroid_[cluster] += poly.vertCount > 0 ? c / static_cast<float>(poly.vertCount) : c;
      ++members[cluster];
    }
  }
  for (std::size_t k = 0; k < centroid_.size(); ++k)
    centroid_[k] /= static_cast<float>(members[k]);
  // Links between clusters of different tiles.
  std::vector<std::pair<std::int32_t, std::int32_t>> pairs;
  for (std::size_t t = 0; t < slots; ++t) {
    const dtMeshTile* tile = navmesh.getTile(static_cast<int>(t));
    if (first_cluster_[t] < 0)
      continue;
    for (int p = 0; p < tile->header->polyCount; ++p) {
      const int from = poly_cluster_[static_cast<std::size_t>(first_cluster_[t] + p)];
      for (unsigned int k = tile->polys[p].firstLink; k != DT_NULL_LINK; k = tile->links[k].next) {
        const int to = cluster_of(tile->links[k].ref);
        if (to >= 0 && to != from)
          pairs.emplace_back(from, to);
      }
    }
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  link_start_.assign(tile_.size() + 1, 0);
  for (const auto& [from, to] : pairs)
    ++link_start_[static_cast<std::size_t>(from) + 1];
  std::partial_sum(link_start_.begin(), link_start_.end(), link_start_.begin());
  for (const auto& [from, to] : pairs)
    links_.push_back(to);

  if (lo.x > hi.x)
    return;
  grid_min_ = lo;
  grid_size_ = hi - lo + 1;
  slot_of_cell_.assign(
      static_cast<std::size_t>(grid_size_.x) * static_cast<std::size_t>(grid_size_.y), -1);
  for (std::size_t t = 0; t < slots; ++t) {
    if (first_cluster_[t] < 0)
      continue;
    const glm::ivec2 c = position_[t] - grid_min_;
    slot_of_cell_[static_cast<std::size_t>(c.y) * static_cast<std::size_t>(grid_size_.x) +
                  static_cast<std::size_t>(c.x)] = static_cast<std::int32_t>(t);
  }
}

int TileGraph::cluster_of(dtPolyRef ref) const {
  if (ref == 0)
    return -1;
  const unsigned int slot = navmesh_->decodePolyIdTile(ref);
  const unsigned int poly = navmesh_->decodePolyIdPoly(ref);
  if (slot >= first_cluster_.size() || first_cluster_[slot] < 0)
    return -1;
  const dtMeshTile* tile = navmesh_->getTile(static_cast<int>(slot));
  if (static_cast<int>(poly) >= tile->header->polyCount)
    return -1;
  return poly_cluster_[static_cast<std::size_t>(first_cluster_[slot]) + poly];
}

int TileGraph::slot_at(int x, int z) const {
  const glm::ivec2 c = glm::ivec2(x, z) - grid_min_;
  if (c.x < 0 || c.y < 0 || c.x >= grid_size_.x || c.y >= grid_size_.y)
    return -1;
  return slot_of_cell_[static_cast<std::size_t>(c.y) * static_cast<std::size_t>(grid_size_.x) +
                       static_cast<std::size_t>(c.x)];
}

int TileGraph::tile_distance(int slot_a, int slot_b) const {
  const glm::ivec2 d = glm::abs(position_[static_cast<std::size_t>(slot_a)] -
                                position_[static_cast<std::size_t>(slot_b)]);
  return std::max(d.x, d.y);
}

std::vector<int> TileGraph::route(int from, int to) const {
  const std::size_t n = tile_.size();
  std::vector<float> cost(n, std::numeric_limits<float>::infinity());
  std::vector<int> previous(n, -1);
  const glm::vec3 target = centroid_[static_cast<std::size_t>(to)];
  const auto heuristic = [&](int c) {
    return glm::distance(centroid_[static_cast<std::size_t>(c)], target);
  };
  // (cost + heuristic, cluster): ties go to the lower cluster.
  std::vector<std::pair<float, int>> heap{{heuristic(from), from}};
  const auto later = std::greater<std::pair<float, int>>();
  cost[static_cast<std::size_t>(from)] = 0.0f;
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    const auto [f, u] = heap.back();
    heap.pop_back();
    const float c = cost[static_cast<std::size_t>(u)];
    if (f > c + heuristic(u))
      continue; // stale entry
    if (u == to)
      break;
    for (std::int32_t e = link_start_[static_cast<std::size_t>(u)];
         e < link_start_[static_cast<std::size_t>(u) + 1]; ++e) {
      const int w = links_[static_cast<std::size_t>(e)];
      const float nc = c + glm::distance(centroid_[static_cast<std::size_t>(u)],
                                         centroid_[static_cast<std::size_t>(w)]);
      if (nc < cost[static_cast<std::size_t>(w)]) {
        cost[static_cast<std::size_t>(w)] = nc;
        previous[static_cast<std::size_t>(w)] = u;
        heap.push_back({nc + heuristic(w), w});
        std::push_heap(heap.begin(), heap.end(), later);
      }
    }
  }
  std::vector<int> clusters;
  if (cost[static_cast<std::size_t>(to)] == std::numeric_limits<float>::infinity())
    return clusters;
  for (int c = to; c != -1; c = previous[static_cast<std::size_t>(c)])
    clusters.push_back(c);
  std::reverse(clusters.begin(), clusters.end());
  return clusters;
}

void TileGraph::mark_around(const std::vector<int>& slots, int margin, TileMask& mask) const {
  mask.assign(position_.size(), 0);
  for (const int slot : slots) {
    const glm::ivec2 p = position_[static_cast<std::size_t>(slot)];
    for (int z = p.y - margin; z <= p.y + margin; ++z) {
      for (int x = p.x - margin; x <= p.x + margin; ++x) {
        const int near = slot_at(x, z);
        if (near >= 0)
          mask[static_cast<std::size_t>(near)] = 1;
      }
    }
  }
}

void TileGraph::tiles_on_line(int from, int to, std::vector<int>& out) const {
  const glm::vec2 a = glm::vec2(position_[static_cast<std::size_t>(from)]) + 0.5f;
  const glm::vec2 b = glm::vec2(position_[static_cast<std::size_t>(to)]) + 0.5f;
  // Steps of a quarter tile: a line can cut a tile's corner by less, and then the margin
  // around its neighbours covers it.
  const int steps = static_cast<int>(std::ceil(4.0f * glm::distance(a, b))) + 1;
  int last = -1;
  for (int i = 0; i <= steps; ++i) {
    const glm::vec2 p = a + (b - a) * (static_cast<float>(i) / static_cast<float>(steps));
    const int slot = slot_at(static_cast<int>(std::floor(p.x)), static_cast<int>(std::floor(p.y)));
    if (slot >= 0 && slot != last)
      out.push_back(slot);
    last = slot;
  }
}

std::size_t TileGraph::memory_bytes() const {
  return position_.capacity() * sizeof(glm::ivec2) +
         (first_cluster_.capacity() + poly_cluster_.capacity() + tile_.capacity() +
          link_start_.capacity() + links_.capacity() + slot_of_cell_.capacity()) *
             sizeof(std::int32_t) +
         centroid_.capacity() * sizeof(glm::vec3);
}

} // namespace crowd
