#pragma once

// An angular depth buffer around one point: which boxes lie wholly in the shadow of the
// obstacle edges seen so far. The visibility graph's build fills one per corner, nearest
// obstacles first, and skips every group of corners it proves hidden, so the work per
// corner follows what the corner sees rather than the whole map.

#include <vector>

#include "planner/core/types.hpp"

namespace pathscope::visgraph {

/// Directions round an origin cut into sectors; each sector keeps the distance
/// beyond which every point in it is behind an edge added so far. Conservative: hides()
/// answers true only when every point of the box lies behind an edge, a proper crossing
/// of which blocks sight.
class ShadowBuffer {
 public:
  explicit ShadowBuffer(int sectors = 1024);

  /// Empties the buffer around a new origin.
  void reset(Vec2 origin);
  /// An edge [a, b] that blocks every segment from the origin crossing it properly. Edges
  /// through the origin's line cast no shadow.
  void add_edge(Vec2 a, Vec2 b);
  /// True when every point of the closed box lies behind some added edge, strictly.
  bool hides(const Box2& box) const;

  int sectors() const { return static_cast<int>(depth_.size()); }

 private:
  static constexpr int kBlock = 32;  // sectors per block
  Vec2 origin_{0, 0};
  double width_ = 0;           // pseudo-angle per sector
  std::vector<double> depth_;  // per sector
  std::vector<Vec2> ray_;      // per sector boundary (sectors + 1): unit directions
  std::vector<double> block_;  // per block of kBlock sectors: the deepest
};

}  // namespace pathscope::visgraph
