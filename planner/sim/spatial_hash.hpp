#pragma once

// Buckets for culling unit pairs (seed 000, "Support Systems": geometric hashing, aka
// buckets; seed 002: "quickly eliminating potential interactions"). Points go into
// square cells of a chosen size, and cells into a power-of-two table by a hash of their
// coordinates; a query visits the 3 x 3 cells around a point. No all-pairs test.
//
// Rebuilt from scratch each step with a counting sort: O(n), no allocation once warm,
// and the order of points within a bucket is their index order, so every walk is
// deterministic.

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "planner/core/types.hpp"

namespace pathscope::sim {

class SpatialHash {
 public:
  /// Puts `points` (world metres) into cells of `cell_size` metres (> 0). Points whose
  /// `alive` flag is false (when given) are left out.
  void build(std::span<const Vec2> points, double cell_size, std::span<const std::uint8_t> alive = {});

  double cell_size() const { return cell_size_; }

  /// Calls fn(j) for every point j in the 3 x 3 cells around `p`: all points within
  /// cell_size of p, and some farther ones. Each j at most once, in increasing bucket order.
  template <class Fn>
  void near(Vec2 p, Fn&& fn) const {
    if (entries_.empty()) return;
    const std::int64_t cx = cell_of(p.x);
    const std::int64_t cy = cell_of(p.y);
    for (std::int64_t dy = -1; dy <= 1; ++dy) {
      for (std::int64_t dx = -1; dx <= 1; ++dx) {
        const std::int64_t x = cx + dx, y = cy + dy;
        const std::uint32_t b = bucket(x, y);
        for (std::uint32_t k = start_[b]; k < start_[b + 1]; ++k) {
          const Entry& e = entries_[k];
          if (e.cx == x && e.cy == y) fn(e.index);
        }
      }
    }
  }

  /// Calls fn(i, j), i < j, for every pair of points closer than `distance` (<= cell_size),
  /// in a deterministic order.
  template <class Fn>
  void pairs_within(std::span<const Vec2> points, double distance, Fn&& fn) const {
    const double d2 = distance * distance;
    for (const Entry& e : entries_) {
      const Vec2 p = points[e.index];
      near(p, [&](std::uint32_t j) {
        if (j <= e.index) return;
        const Vec2 d = points[j] - p;
        if (d.x * d.x + d.y * d.y < d2) fn(e.index, j);
      });
    }
  }

  /// The pairs pairs_within() finds, each once as fn(i, j) with i < j, in another
  /// deterministic order: each point's own cell and the four cells after it (right, and
  /// the row below), so each pair of cells is visited once. For callers whose result does
  /// not depend on the order of the pairs.
  template <class Fn>
  void pairs_within_any_order(std::span<const Vec2> points, double distance, Fn&& fn) const {
    const double d2 = distance * distance;
    for (const Entry& e : entries_) {
      const Vec2 p = points[e.index];
      const auto visit = [&](std::int64_t x, std::int64_t y, bool same_cell) {
        const std::uint32_t b = bucket(x, y);
        for (std::uint32_t k = start_[b]; k < start_[b + 1]; ++k) {
          const Entry& o = entries_[k];
          if (o.cx != x || o.cy != y || (same_cell && o.index <= e.index)) continue;
          const Vec2 d = points[o.index] - p;
          if (d.x * d.x + d.y * d.y < d2) {
            if (e.index < o.index) {
              fn(e.index, o.index);
            } else {
              fn(o.index, e.index);
            }
          }
        }
      };
      visit(e.cx, e.cy, true);
      visit(e.cx + 1, e.cy, false);
      visit(e.cx - 1, e.cy + 1, false);
      visit(e.cx, e.cy + 1, false);
      visit(e.cx + 1, e.cy + 1, false);
    }
  }

 private:
  struct Entry {
    std::int64_t cx;
    std::int64_t cy;
    std::uint32_t index;
  };
  std::int64_t cell_of(double v) const { return static_cast<std::int64_t>(std::floor(v * inv_cell_)); }
  std::uint32_t bucket(std::int64_t x, std::int64_t y) const {
    const std::uint64_t h = static_cast<std::uint64_t>(x) * 0x9E3779B97F4A7C15ull ^
                            static_cast<std::uint64_t>(y) * 0xC2B2AE3D27D4EB4Full;
    return static_cast<std::uint32_t>((h ^ (h >> 29)) & mask_);
  }

  double cell_size_ = 1;
  double inv_cell_ = 1;
  std::uint32_t mask_ = 0;
  std::vector<std::uint32_t> start_;  // per bucket: first entry; size buckets + 1
  std::vector<Entry> entries_;        // sorted by bucket, then index
  std::vector<Entry> scratch_;
  std::vector<std::uint32_t> fill_;
};

}  // namespace pathscope::sim
