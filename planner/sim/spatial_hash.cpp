#include "planner/sim/spatial_hash.hpp"

#include <bit>
#include <cassert>
#include <cmath>

namespace pathscope::sim {

void SpatialHash::build(std::span<const Vec2> points, double cell_size, std::span<const std::uint8_t> alive) {
  assert(cell_size > 0);
  cell_size_ = cell_size;
  inv_cell_ = 1.0 / cell_size;
  const std::size_t n = points.size();
  const std::uint32_t buckets = std::bit_ceil(static_cast<std::uint32_t>(std::max<std::size_t>(16, 2 * n)));
  mask_ = buckets - 1;
  start_.assign(buckets + 1, 0);
  scratch_.clear();
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!alive.empty() && !alive[i]) continue;
    const Entry e{cell_of(points[i].x), cell_of(points[i].y), i};
    scratch_.push_back(e);
    ++start_[bucket(e.cx, e.cy) + 1];
  }
  for (std::uint32_t b = 0; b < buckets; ++b) start_[b + 1] += start_[b];
  entries_.resize(scratch_.size());
  std::vector<std::uint32_t>& fill = fill_;
  fill.assign(start_.begin(), start_.end() - 1);
  for (const Entry& e : scratch_) entries_[fill[bucket(e.cx, e.cy)]++] = e;
}

}  // namespace pathscope::sim
