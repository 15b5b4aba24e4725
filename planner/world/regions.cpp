// Connected-region labelling by breadth-first flood fill over the legal moves of a
// CostGrid. Moves are symmetric (cost_grid.hpp), so regions are equivalence classes.

#include "planner/world/regions.hpp"

namespace pathscope {

RegionMap::RegionMap(const CostGrid& grid) : label_(grid.cell_count(), kBlocked) {
  std::vector<std::uint32_t> queue;
  queue.reserve(1024);
  const auto& offsets = grid.offsets();
  for (std::uint32_t seed = 0; seed < grid.cell_count(); ++seed) {
    if (!grid.passable(seed) || label_[seed] != kBlocked) continue;
    const std::uint32_t id = count_++;
    std::uint32_t size = 0;
    queue.clear();
    queue.push_back(seed);
    label_[seed] = id;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const std::uint32_t c = queue[head];
      ++size;
      // Orthogonal moves suffice: a legal diagonal implies both orthogonal steps are legal.
      const std::uint8_t mask = grid.moves(c);
      for (int d = 0; d < 4; ++d) {
        if (!(mask & (1u << d))) continue;
        const std::uint32_t n = std::uint32_t(std::int64_t(c) + offsets[d]);
        if (label_[n] == kBlocked) {
          label_[n] = id;
          queue.push_back(n);
        }
      }
    }
    sizes_.push_back(size);
  }
}

}  // namespace pathscope
