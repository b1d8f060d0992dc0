#include "host/paths/path_tree.h"

#include "cuda/kernels/path_trees.h"
#include "host/paths/portal_table.h"

#include <DetourNavMeshQuery.h>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

namespace crowd {
namespace {

/// A tree that visited at least 1/kDenseTreeFraction of the mesh's polygons lists its rows by a
/// pass over every polygon rather than by sorting the visited ones (about log2 of the visited
/// count compares each, against one test per polygon).
constexpr std::size_t kDenseTreeFraction = 8;

/// The open list of a tree's search: a 4-ary min-heap of (cost + heuristic, polygon). Pairs
/// compare by cost, then by polygon, a total order on distinct entries, so that any exact
/// min-heap pops them in the same order and the tree does not depend on which; this one is half
/// as deep as a binary heap, with a node's four children side by side in memory.
class OpenList {
public:
  using Entry = std::pair<float, std::int32_t>;

  void clear() { items_.clear(); }
  bool empty() const { return items_.empty(); }

  void push(Entry entry) {
    std::size_t i = items_.size();
    items_.push_back(entry);
    while (i > 0) {
      const std::size_t parent = (i - 1) / kArity;
      if (!(entry < items_[parent]))
        break;
      items_[i] = items_[parent];
      i = parent;
    }
    items_[i] = entry;
  }

  Entry pop() {
    const Entry top = items_.front();
    const Entry last = items_.back();
    items_.pop_back();
    const std::size_t n = items_.size();
    if (n == 0)
      return top;
    std::size_t i = 0;
    for (;;) {
      const std::size_t first = kArity * i + 1;
      if (first >= n)
        break;
      std::size_t least = first;
      for (std::size_t c = first + 1; c < std::min(first + kArity, n); ++c)
        if (items_[c] < items_[least])
          least = c;
      if (!(items_[least] < last))
        break;
      items_[i] = items_[least];
      i = least;
    }
    items_[i] = last;
    return top;
  }

private:
  static constexpr std::size_t kArity = 4;
  std::vector<Entry> items_;
};

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
  glm::vec3 left, right;
  portal_points(from_tile, from, link, &left.x, &right.x);
  return (left + right) * 0.5f;
}

} // namespace

std::int32_t PathTree::next_of(int polygon) const {
  const auto it = std::lower_bound(polygons.begin(), polygons.end(), polygon);
  if (it == polygons.end() || *it != polygon)
    return kUnreached;
  return next[static_cast<std::size_t>(it - polygons.begin())];
}

PolygonGraph::PolygonGraph(const dtNavMesh& navmesh, const dtQueryFilter& filter)
    : polygons_(navmesh) {
  const auto count = static_cast<std::size_t>(polygons_.size());
  passes_.resize(count);
  tile_.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    const dtMeshTile* tile = nullptr;
    const dtPoly* poly = nullptr;
    navmesh.getTileAndPolyByRefUnsafe(polygons_.ref_of(static_cast<int>(i)), &tile, &poly);
    unsigned int salt = 0, slot = 0, index = 0;
    navmesh.decodePolyId(polygons_.ref_of(static_cast<int>(i)), salt, slot, index);
    tile_[i] = static_cast<std::int32_t>(slot);
    glm::vec3 c(0.0f);
    for (int v = 0; v < poly->vertCount; ++v)
      c += vertex(*tile, poly->verts[v]);
    centroid_.push_back(poly->vertCount > 0 ? c / static_cast<float>(poly->vertCount) : c);
    area_cost_.push_back(filter.getAreaCost(poly->getArea()));
    // dtQueryFilter::passFilter's default test, spelled out: the installed library's symbol
    // for it depends on DT_VIRTUAL_QUERYFILTER, which its headers do not tell us.
    passes_[i] = (poly->flags & filter.getIncludeFlags()) != 0 &&
                 (poly->flags & filter.getExcludeFlags()) == 0;
  }
  // Forward links w -> u that pass the filter (at both ends), regrouped by u.
  struct Link {
    std::int32_t to, from;
    glm::vec3 mid;
  };
  std::vector<Link> links;
  for (std::size_t w = 0; w < count; ++w) {
    if (!passes_[w])
      continue;
    const dtPolyRef from_ref = polygons_.ref_of(static_cast<int>(w));
    const dtMeshTile* tile = nullptr;
    const dtPoly* poly = nullptr;
    navmesh.getTileAndPolyByRefUnsafe(from_ref, &tile, &poly);
    for (unsigned int k = poly->firstLink; k != DT_NULL_LINK; k = tile->links[k].next) {
      const dtLink& link = tile->links[k];
      const int u = index_of(link.ref); // -1 unless it passes the filter too
      if (u < 0)
        continue;
      const dtMeshTile* to_tile = nullptr;
      const dtPoly* to_poly = nullptr;
      navmesh.getTileAndPolyByRefUnsafe(link.ref, &to_tile, &to_poly);
      links.push_back({u, static_cast<std::int32_t>(w),
                       portal_midpoint(*tile, *poly, link, from_ref, *to_tile, *to_poly)});
    }
  }
  rev_start_.assign(count + 1, 0);
  for (const Link& l : links)
    ++rev_start_[static_cast<std::size_t>(l.to) + 1];
  for (std::size_t u = 0; u < count; ++u)
    rev_start_[u + 1] += rev_start_[u];
  rev_from_.resize(links.size());
  rev_mid_.resize(links.size());
  std::vector<std::int32_t> fill(rev_start_.begin(), rev_start_.end() - 1);
  for (const Link& l : links) {
    const auto slot = static_cast<std::size_t>(fill[static_cast<std::size_t>(l.to)]++);
    rev_from_[slot] = l.from;
    rev_mid_[slot] = l.mid;
  }
}

void PolygonGraph::build_tree(int goal, PathTree& tree, const TileMask& allowed, int start) const {
  const auto n = static_cast<std::size_t>(polygons_.size());
  tree.goal = goal;
  tree.polygons.clear();
  tree.next.clear();
  // Per-thread scratch, sized to the whole mesh once and reset by stamps, so that a search
  // confined to a few tiles costs what it visits, not the polygon count.
  thread_local std::vector<std::uint32_t> seen;
  thread_local std::uint32_t stamp = 0;
  thread_local std::vector<float> cost;
  thread_local std::vector<glm::vec3> pos;
  thread_local std::vector<std::int32_t> next;
  thread_local std::vector<std::int32_t> visited;
  thread_local OpenList heap;
  if (seen.size() != n) {
    seen.assign(n, 0);
    cost.resize(n);
    pos.resize(n);
    next.resize(n);
    stamp = 0;
  }
  if (++stamp == 0) { // wrapped: clear the stamps once
    std::fill(seen.begin(), seen.end(), 0u);
    stamp = 1;
  }
  visited.clear();
  heap.clear();
  const auto enter = [&](std::size_t p) {
    if (seen[p] != stamp) {
      seen[p] = stamp;
      cost[p] = std::numeric_limits<float>::infinity();
      visited.push_back(static_cast<std::int32_t>(p));
    }
  };
  const auto may_enter = [&](std::size_t p) {
    return allowed.empty() || allowed[static_cast<std::size_t>(tile_[p])] != 0;
  };
  // With a start, an A* toward it; without, Dijkstra (a zero heuristic).
  const glm::vec3 target = start >= 0 ? centroid_[static_cast<std::size_t>(start)] : glm::vec3(0);
  const auto heuristic = [&](const glm::vec3& p) {
    return start >= 0 ? glm::distance(p, target) : 0.0f;
  };
  // The open list pops the least (cost + heuristic, polygon index): ties go to the lower
  // index, so the tree is one fixed function of the goal (and the start).
  const auto g = static_cast<std::size_t>(goal);
  enter(g);
  cost[g] = 0.0f;
  pos[g] = centroid_[g];
  next[g] = PathTree::kGoal;
  heap.push({heuristic(pos[g]), goal});
  while (!heap.empty()) {
    const auto [f, u] = heap.pop();
    const auto uu = static_cast<std::size_t>(u);
    const float c = cost[uu];
    if (f > c + heuristic(pos[uu]))
      continue; // stale entry
    if (u == start)
      break;
    const glm::vec3 pu = pos[uu];
    const float area = area_cost_[uu];
    for (std::int32_t e = rev_start_[uu]; e < rev_start_[uu + 1]; ++e) {
      const auto w = static_cast<std::size_t>(rev_from_[static_cast<std::size_t>(e)]);
      if (!may_enter(w))
        continue;
      const glm::vec3 mid = rev_mid_[static_cast<std::size_t>(e)];
      // The stretch from the portal into u toward u's own point lies in u: u's area cost
      // (dtQueryFilter::getCost charges the polygon being crossed).
      const float nc = c + glm::distance(pu, mid) * area;
      enter(w);
      if (nc < cost[w]) {
        cost[w] = nc;
        pos[w] = mid;
        next[w] = u;
        heap.push({nc + heuristic(mid), static_cast<std::int32_t>(w)});
      }
    }
  }
  tree.polygons.reserve(visited.size());
  tree.next.reserve(visited.size());
  const auto keep_if_reached = [&](std::int32_t p) {
    if (cost[static_cast<std::size_t>(p)] < std::numeric_limits<float>::infinity()) {
      tree.polygons.push_back(p);
      tree.next.push_back(next[static_cast<std::size_t>(p)]);
    }
  };
  // The rows in polygon order. A tree that reached a good part of the mesh (a whole-mesh
  // Dijkstra reaches all of it) is listed by one pass over the stamps, linear where sorting
  // what it visited is not; a small one (within a few tiles) by sorting.
  if (visited.size() * kDenseTreeFraction >= n) {
    for (std::size_t p = 0; p < n; ++p)
      if (seen[p] == stamp)
        keep_if_reached(static_cast<std::int32_t>(p));
  } else {
    std::sort(visited.begin(), visited.end());
    for (const std::int32_t p : visited)
      keep_if_reached(p);
  }
}

template <class NextOf>
int PolygonGraph::extract_path_with(const NextOf& next_of, int start, std::span<dtPolyRef> out,
                                    bool& complete) const {
  complete = false;
  if (start < 0 || next_of(start) == PathTree::kUnreached)
    return 0;
  int count = 0;
  int p = start;
  while (count < static_cast<int>(out.size())) {
    out[static_cast<std::size_t>(count++)] = polygons_.ref_of(p);
    const std::int32_t next = next_of(p);
    if (next == PathTree::kGoal) {
      complete = true;
      break;
    }
    p = next;
  }
  return count;
}

int PolygonGraph::extract_path(const PathTree& tree, int start, std::span<dtPolyRef> out,
                               bool& complete) const {
  return extract_path_with([&](int p) { return tree.next_of(p); }, start, out, complete);
}

int PolygonGraph::extract_path(const PathTreesView& trees, int t, int start,
                               std::span<dtPolyRef> out, bool& complete) const {
  return extract_path_with([&](int p) { return trees.next_of(t, p); }, start, out, complete);
}

std::size_t PolygonGraph::memory_bytes() const {
  return polygons_.memory_bytes() + passes_.capacity() + centroid_.capacity() * sizeof(glm::vec3) +
         area_cost_.capacity() * sizeof(float) + tile_.capacity() * sizeof(std::int32_t) +
         (rev_start_.capacity() + rev_from_.capacity()) * sizeof(std::int32_t) +
         rev_mid_.capacity() * sizeof(glm::vec3);
}

namespace {

// The rows as variable-length integers (LEB128, 7 bits a byte): each polygon as its step from
// the one before (the rows increase, and a tree's polygons mostly follow one another), each
// next as its zigzag-coded difference from its polygon (a neighbour, mostly of the same tile and
// so near it in number). A whole-mesh tree travels in about 2.5 bytes a polygon, not 8.

void put_varint(std::vector<std::byte>& out, std::uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<std::byte>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<std::byte>(value));
}

std::uint64_t take_varint(std::span<const std::byte> bytes, std::size_t& at) {
  std::uint64_t value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (at >= bytes.size())
      throw std::invalid_argument("path tree bytes: they end inside a number");
    const auto byte = static_cast<std::uint64_t>(bytes[at++]);
    value |= (byte & 0x7f) << shift;
    if ((byte & 0x80) == 0)
      return value;
  }
  throw std::invalid_argument("path tree bytes: a number longer than 64 bits");
}

std::uint64_t zigzag(std::int64_t value) {
  return (static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63);
}
std::int64_t unzigzag(std::uint64_t value) {
  return static_cast<std::int64_t>(value >> 1) ^ -static_cast<std::int64_t>(value & 1);
}

} // namespace

std::vector<std::byte> path_tree_bytes(const PathTree& tree) {
  const std::int32_t head[3] = {tree.goal, static_cast<std::int32_t>(tree.polygons.capacity()),
                                static_cast<std::int32_t>(tree.polygons.size())};
  std::vector<std::byte> out(sizeof head);
  std::memcpy(out.data(), head, sizeof head);
  out.reserve(sizeof head + 3 * tree.size());
  std::int64_t previous = -1;
  for (std::size_t k = 0; k < tree.size(); ++k) {
    const std::int64_t polygon = tree.polygons[k];
    put_varint(out, static_cast<std::uint64_t>(polygon - previous));
    put_varint(out, zigzag(static_cast<std::int64_t>(tree.next[k]) - polygon));
    previous = polygon;
  }
  return out;
}

PathTree path_tree_from_bytes(std::span<const std::byte> bytes) {
  std::int32_t head[3];
  if (bytes.size() < sizeof head)
    throw std::invalid_argument("path tree bytes: too short");
  std::memcpy(head, bytes.data(), sizeof head);
  if (head[2] < 0 || head[1] < head[2] ||
      bytes.size() < sizeof head + 2 * static_cast<std::size_t>(head[2]))
    throw std::invalid_argument("path tree bytes: the lengths do not match");
  const auto capacity = static_cast<std::size_t>(head[1]);
  const auto size = static_cast<std::size_t>(head[2]);
  PathTree tree;
  tree.goal = head[0];
  // A fresh vector's reserve(n) allocates n: the rows' capacity is the builder's.
  tree.polygons.reserve(capacity);
  tree.next.reserve(capacity);
  std::size_t at = sizeof head;
  std::int64_t previous = -1;
  for (std::size_t k = 0; k < size; ++k) {
    const std::uint64_t step = take_varint(bytes, at);
    const std::int64_t next_step = unzigzag(take_varint(bytes, at));
    constexpr std::int64_t kLargest = std::numeric_limits<std::int32_t>::max();
    if (step == 0 || step > static_cast<std::uint64_t>(kLargest))
      throw std::invalid_argument("path tree bytes: the polygons do not increase");
    const std::int64_t polygon = previous + static_cast<std::int64_t>(step);
    const std::int64_t next = polygon + next_step;
    if (polygon > kLargest || next < std::numeric_limits<std::int32_t>::min() || next > kLargest)
      throw std::invalid_argument("path tree bytes: a polygon out of range");
    tree.polygons.push_back(static_cast<std::int32_t>(polygon));
    tree.next.push_back(static_cast<std::int32_t>(next));
    previous = polygon;
  }
  if (at != bytes.size())
    throw std::invalid_argument("path tree bytes: the lengths do not match");
  return tree;
}

} // namespace crowd
