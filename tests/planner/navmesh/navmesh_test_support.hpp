#pragma once

// Independent checks for navmesh paths: whether a polyline stays out of blocked cells
// (exact clipping of each leg against each row of cells, sharing nothing with the
// planner), and a planner made through the registry with parameter overrides.

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "planner/core/planner_registry.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::test {

/// True when the cell (x, y) of the scenario's tile grid can be entered by the class (the
/// terrain's first cost is set). Outside the grid: false.
inline bool tile_passable(const Scenario& s, int x, int y) {
  const TileGrid& t = *s.tiles;
  if (x < 0 || y < 0 || x >= t.width || y >= t.height) return false;
  return s.terrains[t.terrain[std::size_t(y * t.width + x)]].cost[0].has_value();
}

/// The first blocked cell whose interior (shrunk by `eps` cells) the segment a-b (world
/// metres) meets, as {x, y}; {-1, -1} when none. Each row of cells the segment spans is
/// clipped exactly: the x-range of the segment inside the row's band, then every cell of
/// that range.
inline std::pair<int, int> blocked_cell_on_segment(const Scenario& s, Vec2 a, Vec2 b, double eps = 1e-6) {
  const double cs = s.world.cell_size;
  a /= cs;
  b /= cs;
  const int y_lo = int(std::floor(std::min(a.y, b.y))), y_hi = int(std::floor(std::max(a.y, b.y)));
  for (int y = y_lo; y <= y_hi; ++y) {
    // Parameters t in [0, 1] with y + eps < a.y + t (b.y - a.y) < y + 1 - eps.
    double t0 = 0, t1 = 1;
    const double dy = b.y - a.y;
    if (dy == 0) {
      if (!(a.y > y + eps && a.y < y + 1 - eps)) continue;
    } else {
      double u0 = (y + eps - a.y) / dy, u1 = (y + 1 - eps - a.y) / dy;
      if (u0 > u1) std::swap(u0, u1);
      t0 = std::max(t0, u0);
      t1 = std::min(t1, u1);
      if (t0 > t1) continue;
    }
    const double x0 = a.x + t0 * (b.x - a.x), x1 = a.x + t1 * (b.x - a.x);
    const double lo = std::min(x0, x1), hi = std::max(x0, x1);
    for (int x = int(std::floor(lo)) - 1; x <= int(std::floor(hi)) + 1; ++x) {
      // The open interval (x + eps, x + 1 - eps) meets [lo, hi].
      if (hi <= x + eps || lo >= x + 1 - eps) continue;
      if (!tile_passable(s, x, y)) return {x, y};
    }
  }
  return {-1, -1};
}

/// A planner from the registry with named parameters overridden.
inline std::unique_ptr<Planner> make_planner(const PlanningWorld& world, const char* name,
                                             std::vector<PlannerParam> overrides = {}) {
  const PlannerInfo* info = find_planner(name);
  if (info == nullptr) return nullptr;
  auto params = resolve_params(*info, overrides);
  if (!params.ok()) return nullptr;
  return info->create(QueryContext{world, 0, std::nullopt, *params});
}

}  // namespace pathscope::test
