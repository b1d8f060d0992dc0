// Whether the walkable triangles cover a whole heightfield cell: where the floor ends on the
// cell's side rather than inside it.
#pragma once

#include <glm/glm.hpp>
#include <vector>

struct rcHeightfield;

namespace crowd {

class FloorCoverage {
public:
  /// `vertices` x, y, z each; `triangles` three vertex indices each, only those that may be
  /// walked on; `climb` (metres) is how far below a span's top its floor may lie (the
  /// rasteriser rounds span tops up to whole cell heights, and a slope varies over a cell).
  FloorCoverage(const rcHeightfield& hf, const std::vector<float>& vertices,
                const std::vector<int>& triangles, float climb);

  /// True when the four corners of cell (x, z) each lie on a triangle (borders included)
  /// whose height there is between `top` - climb - cell height and `top` + cell height
  /// (`top` in metres). The corners lying on the floor mean the cell is covered wherever the
  /// floor around it is convex; a notch smaller than the cell that misses every corner goes
  /// unseen, as it does in Recast's own rasterisation.
  bool covers(int x, int z, float top) const;

private:
  bool on_floor(glm::vec2 p, float top) const;

  std::vector<float> vertices_;
  std::vector<int> triangles_;
  float climb_, cell_height_, tolerance_;
  glm::vec2 origin_;
  float cell_size_;
  int block_x_ = 1, block_z_ = 1; ///< Blocks of kBlock x kBlock columns.
  std::vector<std::vector<int>> blocks_;
};

} // namespace crowd
