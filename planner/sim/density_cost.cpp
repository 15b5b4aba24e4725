// Collision density as planning cost (seed 002, "Coordinated Unit Movement": "areas where
// collisions keep happening" can be fed back to planning so that later paths avoid them).
//
// Every SimSettings::density_refresh seconds of simulated time (counted in steps, so the
// same in every run) the density map becomes the world's cost overlay
// (PlanningWorld::set_cost_overlay): a cell's factor is 1 + density_cost x the density
// of the densest cell among it and its 8 neighbours, relative to the densest cell of all,
// rounded down to eighths. The neighbours count because a collision is recorded at the
// point where two bodies meet while the bodies, and the jam, cover the cells around it:
// without them a way through a jam two cells wide stays cheap along its less dense edge.
// Rounding keeps the handful of
// distinct factors a raster's surface table holds small and leaves cells with stray
// collisions (under an eighth of the densest) alone. Every planner that reads cost grids
// (grid searches, quadtrees, hybrids) thus sees the cost without knowing of the
// simulation; units keep their speed (CostGrid::ground_multiplier). Only the cells whose
// factor changed are updated, and paths already planned are kept: the cost steers later
// requests.
//
// The density decays: each step every cell's value is multiplied by 2^(-dt / half-life)
// (SimSettings::density_half_life; 0 keeps it for ever), so a collision counts half as
// much one half-life later, and a jam that has untied stops costing: once a newer jam is
// more than eight times as dense (the cost is relative to the densest cell), and anyway
// once it has decayed below kDensityFloor (a cell under it is set to 0). The factor
// is a fixed number of the settings and the products are taken cell by cell in the same
// float arithmetic in every run: deterministic. Only the cells above 0 are visited (the
// simulation keeps their list), so a map of millions of cells costs what its hot cells do.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "planner/sim/simulation.hpp"
#include "planner/sim/simulation_impl.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::sim {

namespace {

constexpr int kDensityLevels = 8;

}  // namespace

std::uint64_t density_refresh_steps(const SimSettings& settings) {
  const double steps = std::round(settings.density_refresh / settings.dt);
  return steps < 1 ? 1 : static_cast<std::uint64_t>(steps);
}

double density_decay_factor(const SimSettings& settings) {
  if (!(settings.density_half_life > 0)) return 1;
  return std::exp2(-settings.dt / settings.density_half_life);
}

void Simulation::decay_density() {
  const double f = density_decay_factor(scenario().sim);
  std::vector<std::uint32_t>& cells = impl_->density_cells;
  if (f == 1 || cells.empty()) return;
  float top = 0;
  std::size_t kept = 0;
  for (const std::uint32_t k : cells) {
    float& v = density_.value[k];
    v = static_cast<float>(static_cast<double>(v) * f);
    if (v < kDensityFloor) {
      v = 0;  // forgotten
      continue;
    }
    top = std::max(top, v);
    cells[kept++] = k;
  }
  cells.resize(kept);
  density_.max_value = top;
}

std::vector<float> density_cost_factors(const DensityMap& density, double weight) {
  const int w = density.width;
  const int h = density.height;
  if (w <= 0 || h <= 0 || density.value.size() != std::size_t(w) * std::size_t(h)) return {};
  if (!(density.max_value > 0) || !(weight > 0)) return {};
  std::vector<float> factors(density.value.size(), 1.0f);
  bool any = false;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      // The densest of the cell and its 8 neighbours: a collision is recorded where two
      // bodies meet, but the bodies (and the jam) cover the cells around it.
      float v = 0;
      for (int ny = std::max(0, y - 1); ny <= std::min(h - 1, y + 1); ++ny) {
        for (int nx = std::max(0, x - 1); nx <= std::min(w - 1, x + 1); ++nx) {
          v = std::max(v, density.value[std::size_t(ny) * std::size_t(w) + std::size_t(nx)]);
        }
      }
      const double level = std::floor(kDensityLevels * (double(v) / double(density.max_value)));
      if (level < 1) continue;
      const double fraction = std::min(level, double(kDensityLevels)) / kDensityLevels;
      factors[std::size_t(y) * std::size_t(w) + std::size_t(x)] = static_cast<float>(1 + weight * fraction);
      any = true;
    }
  }
  if (!any) factors.clear();
  return factors;
}

void Simulation::refresh_density_cost() {
  const SimSettings& set = scenario().sim;
  if (!(set.density_cost > 0) || counters_.steps % density_refresh_steps(set) != 0) return;
  // A density map made on a grid of another size (before a rebuild) is not this world's.
  if (density_.value.size() != world_->raster().cell_count()) return;
  // Factors that would need more surfaces than the raster holds (rasterize.hpp) leave the
  // overlay as it was until the next refresh.
  const Result<WorldChange> change =
      world_->set_cost_overlay(density_cost_factors(density_, set.density_cost));
  if (change && !change->none()) impl_->paths.world_changed(false);
}

// Density: where collisions keep happening (seed 002), per cell of the world's grid;
// what happened long ago counts less (SimSettings::density_half_life). The step's
// immediate collisions add to it after it decays by one step's share.
void Simulation::count_density() {
  const CostGrid& grid = world_->grid(0);
  if (density_.value.empty()) {
    density_.width = grid.width();
    density_.height = grid.height();
    density_.cell_size = grid.cell_size();
    density_.value.assign(static_cast<std::size_t>(grid.width()) * static_cast<std::size_t>(grid.height()),
                          0.0f);
  }
  decay_density();  // by one step's share of the half-life (density_cost.cpp)
  for (const Collision& c : collisions_) {
    if (!c.immediate) continue;
    const auto cell = grid.cell_at(c.point);
    if (!cell) continue;
    float& v = density_.value[*cell];
    if (v == 0.0f) impl_->density_cells.push_back(*cell);
    v += c.hard ? 1.0f : 0.25f;
    density_.max_value = std::max(density_.max_value, v);
  }
}

}  // namespace pathscope::sim
