#include "planner/tactical/tactical_dependency.hpp"

#include <cmath>
#include <utility>

namespace pathscope::tactical {

TacticalDependency::TacticalDependency(const PlanningWorld& world, std::size_t movement_class,
                                       std::vector<std::uint64_t> bits, bool occlusion)
    : world_(world),
      movement_class_(movement_class),
      min_multiplier_(world.grid(movement_class).min_multiplier()),
      bits_(std::move(bits)),
      occlusion_(occlusion) {}

bool TacticalDependency::still_valid(const WorldChange& change) const {
  if (change.rebuilt || movement_class_ >= world_.class_count()) return false;
  // Threats and allies price every move and every BSTS heuristic value.
  if (change.touches(ItemKind::Threat) || change.touches(ItemKind::Ally)) return false;
  if (change.cells.empty()) return true;
  const CostGrid& grid = world_.grid(movement_class_);
  if (grid.min_multiplier() != min_multiplier_) return false;
  if (bits_.size() != (grid.cell_count() + 63) / 64) return false;
  const CellRect cells = change.cells.intersected(CellRect{0, 0, grid.width(), grid.height()});
  for (int y = cells.y0; y < cells.y1; ++y) {
    for (int x = cells.x0; x < cells.x1; ++x) {
      const std::uint32_t c = grid.index(x, y);
      if (bits_[c >> 6] >> (c & 63) & 1) return false;
    }
  }
  if (occlusion_) {
    // An obstacle appearing or vanishing under a threat changes what it sees.
    const double s = grid.cell_size();
    for (const Influence& t : world_.scenario().threats) {
      const CellRect under{
          int(std::floor((t.center.x - t.radius) / s)), int(std::floor((t.center.y - t.radius) / s)),
          int(std::floor((t.center.x + t.radius) / s)) + 1, int(std::floor((t.center.y + t.radius) / s)) + 1};
      if (!under.intersected(cells).empty()) return false;
    }
  }
  return true;
}

}  // namespace pathscope::tactical
