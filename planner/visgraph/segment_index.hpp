#pragma once

// Line of sight among obstacle rings, accelerated by a uniform grid of buckets holding
// the ring edges: a segment visits only the buckets it passes through (a grid walk),
// and stops at the first edge that blocks it.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "planner/core/types.hpp"
#include "planner/visgraph/obstacle_set.hpp"

namespace pathscope::visgraph {

/// Where a segment enters an obstacle: the edge (by its first vertex) and how far along.
struct Crossing {
  double t = 0;              ///< Parameter along the segment, 0 at its start, 1 at its end.
  std::uint32_t vertex = 0;  ///< The edge from this vertex to its ring successor.
};

/// The vertices and edges of a set of rings (inside on the left of every edge), with a
/// bucket grid over their edges. A segment is visible when no point of it lies in the
/// open inside of a ring: it may touch and run along boundaries. Predicates are exact
/// when coordinates are multiples of 1/kScale below 2^16 metres (products fit a double).
/// Not thread-safe: queries share a scratch stamp per edge.
class SegmentIndex {
 public:
  SegmentIndex() = default;
  /// Indexes the rings (copied).
  explicit SegmentIndex(const std::vector<Ring>& rings);

  std::size_t vertex_count() const { return pos_.size(); }
  Vec2 position(std::uint32_t v) const { return pos_[v]; }
  std::uint32_t prev(std::uint32_t v) const { return prev_[v]; }
  std::uint32_t next(std::uint32_t v) const { return next_[v]; }
  /// True when the ring turns left at v: a convex corner of the obstacle.
  bool convex(std::uint32_t v) const;
  /// True when direction d from vertex v points strictly into the obstacle.
  bool enters(std::uint32_t v, Vec2 d) const;
  /// True when the line through v in direction d leaves v's two ring neighbours on one
  /// (closed) side: the line is tangent to the obstacle at v.
  bool tangent(std::uint32_t v, Vec2 d) const;

  /// True when segment [p, q] enters no obstacle's inside.
  bool visible(Vec2 p, Vec2 q) const;
  /// An edge (by its first vertex) that blocks [p, q], or kNoEdge when it is visible.
  std::uint32_t blocker(Vec2 p, Vec2 q) const;
  /// True when [p, q] crosses the edge from vertex e properly (strictly, away from both
  /// segments' ends): then it is blocked.
  bool crosses(Vec2 p, Vec2 q, std::uint32_t e) const;
  /// The id that names no edge.
  static constexpr std::uint32_t kNoEdge = 0xffffffffu;
  /// Every place where [p, q] enters an obstacle's inside (crossing an edge, or turning
  /// into it at a vertex or from an endpoint on an edge), sorted by t then vertex.
  std::vector<Crossing> crossings(Vec2 p, Vec2 q) const;
  /// True when p lies in the open inside of an obstacle (on a boundary: false).
  bool inside(Vec2 p) const;

  /// Calls fn(edge) for the edges in the buckets the closed box meets (an edge may come
  /// more than once): every edge that meets the box, and some near it.
  template <class Fn>
  void for_each_edge_near(const Box2& box, Fn&& fn) const {
    if (nx_ == 0 || box.empty()) return;
    const int x0 = std::clamp(int(std::floor((box.lo.x - lo_.x) / cell_)), 0, nx_ - 1);
    const int y0 = std::clamp(int(std::floor((box.lo.y - lo_.y) / cell_)), 0, ny_ - 1);
    const int x1 = std::clamp(int(std::floor((box.hi.x - lo_.x) / cell_)), 0, nx_ - 1);
    const int y1 = std::clamp(int(std::floor((box.hi.y - lo_.y) / cell_)), 0, ny_ - 1);
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) {
        const std::size_t b = std::size_t(y) * std::size_t(nx_) + std::size_t(x);
        for (std::uint32_t k = bucket_start_[b]; k < bucket_start_[b + 1]; ++k) fn(bucket_edges_[k]);
      }
    }
  }

  /// Edges tested by visible() and crossings() since construction (a work counter).
  std::uint64_t edge_tests() const { return edge_tests_; }
  /// Buckets across and down, and their side in metres.
  int buckets_x() const { return nx_; }
  int buckets_y() const { return ny_; }
  double bucket_size() const { return cell_; }

 private:
  // 0: no contact that blocks; 1: blocks. Fills t for crossings.
  bool blocks(Vec2 p, Vec2 q, std::uint32_t a, double* t) const;
  template <class Fn>
  void walk(Vec2 p, Vec2 q, Fn&& fn) const;

  std::vector<Vec2> pos_;
  std::vector<std::uint32_t> prev_, next_;
  Vec2 lo_{0, 0};
  double cell_ = 1;
  int nx_ = 0, ny_ = 0;
  std::vector<std::uint32_t> bucket_start_;   // nx * ny + 1
  std::vector<std::uint32_t> bucket_edges_;   // edge = its first vertex
  mutable std::vector<std::uint32_t> stamp_;  // per edge, for walks
  mutable std::uint32_t current_ = 0;
  mutable std::vector<std::uint32_t> inside_stamp_;  // per edge, for inside()
  mutable std::uint32_t inside_current_ = 0;
  std::vector<std::uint8_t> touching_;  // per vertex: lies on another edge of any ring
  mutable std::uint64_t edge_tests_ = 0;
};

}  // namespace pathscope::visgraph
