#include "planner/world/cost_grid.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>

namespace pathscope {

namespace {

// One representation of "blocked".
double normalized(double m) { return m > 0 && std::isfinite(m) ? m : 0.0; }

}  // namespace

CostGrid::CostGrid(const Scenario& scenario, const TerrainRaster& raster, std::size_t movement_class)
    : width_(raster.width),
      height_(raster.height),
      cell_size_(raster.cell_size),
      amphibious_(crosses_groups(scenario.classes[movement_class])),
      raster_(&raster),
      ids_(raster.surface_ids().data()) {
  assert(width_ > 0 && height_ > 0);
  assert(movement_class < scenario.classes.size());
  for (int d = 0; d < 8; ++d) offsets_[d] = std::int64_t(kDirDy[d]) * width_ + kDirDx[d];
  // Terrain groups become small integers in order of first appearance in the table
  // ("" first: the default ground group, which bridges belong to).
  std::vector<std::string> names{""};
  for (std::size_t k = 0; k < scenario.terrains.size(); ++k) {
    const TerrainType& t = scenario.terrains[k];
    const std::optional<double> cost = terrain_cost(scenario, k, movement_class);
    terrain_multiplier_.push_back(cost ? *cost : 0.0);
    auto it = std::find(names.begin(), names.end(), t.group);
    if (it == names.end()) it = names.insert(names.end(), t.group);
    terrain_group_.push_back(std::uint16_t(it - names.begin()));
  }
  refresh_surfaces();
  moves_.assign(raster.cell_count(), 0);
  compute_moves(CellRect{0, 0, width_, height_});
}

void CostGrid::update_cells(CellRect rect) {
  // The raster may have new surface ids, or renumbered them: the tables first.
  refresh_surfaces();
  // A cell's moves depend on its neighbours and, for diagonals, on theirs being legal
  // too, which again only involves cells one step away: one ring of cells suffices.
  compute_moves(rect.expanded(1).intersected(CellRect{0, 0, width_, height_}));
}

std::pair<double, std::uint16_t> CostGrid::cost_of(const Surface& s) const {
  // Multipliers are divided by the road factor as a double, as the coverage rule says;
  // a bridge deck is passable ground with multiplier 1 for every class.
  double m = normalized(s.bridge ? 1.0 / double(s.road_factor)
                                 : terrain_multiplier_[s.terrain] / double(s.road_factor));
  // The overlay's extra cost applies to passable cells only (a factor of 1 changes no bit).
  if (m > 0 && s.cost_factor != 1.0f) m *= double(s.cost_factor);
  const std::uint16_t key = m == 0        ? 0
                            : amphibious_ ? 1
                                          : std::uint16_t(1 + (s.bridge ? 0 : terrain_group_[s.terrain]));
  return {m, key};
}

void CostGrid::refresh_surfaces() {
  const std::size_t n = raster_->surface_count();
  surface_multiplier_.resize(n);
  surface_ground_.resize(n);
  surface_key_.resize(n);
  for (std::size_t id = 0; id < n; ++id) {
    const Surface& s = raster_->surface(SurfaceId(id));
    std::tie(surface_multiplier_[id], surface_key_[id]) = cost_of(s);
    Surface ground = s;
    ground.cost_factor = 1.0f;
    surface_ground_[id] = s.cost_factor == 1.0f ? surface_multiplier_[id] : cost_of(ground).first;
  }
  compute_min_multiplier();
}

void CostGrid::compute_min_multiplier() {
  // Over the surfaces some cell holds: the same as over every passable cell.
  double lowest = std::numeric_limits<double>::infinity();
  double highest = 0;
  for (std::size_t id = 0; id < surface_multiplier_.size(); ++id) {
    const double m = surface_multiplier_[id];
    if (m > 0 && raster_->cells_with(SurfaceId(id)) > 0) {
      lowest = std::min(lowest, m);
      highest = std::max(highest, m);
    }
  }
  min_multiplier_ = std::isfinite(lowest) ? lowest : 1.0;
  max_multiplier_ = std::isfinite(lowest) ? highest : 1.0;
}

void CostGrid::compute_moves(CellRect rect) {
  // Precompute the legal moves of every cell so that searches test one bit per
  // neighbour: in bounds, destination passable, same terrain group (or amphibious),
  // and for diagonals both orthogonal neighbours legal too (no corner cutting).
  // With a key per cell (0 blocked, else 1 + group, or 1 for an amphibious class) a move
  // is legal exactly when both keys are equal and not 0. Keys are read three rows at a
  // time, padded with 0 outside the grid, so the loop has no bounds tests.
  if (rect.empty()) return;
  const int x0 = rect.x0, n = rect.width() + 2;
  std::vector<std::uint16_t> buffer(3 * std::size_t(n));
  std::uint16_t* up = buffer.data();
  std::uint16_t* cur = up + n;
  std::uint16_t* down = cur + n;
  const auto load = [&](int y, std::uint16_t* out) {
    if (y < 0 || y >= height_) return std::fill(out, out + n, std::uint16_t(0));
    const SurfaceId* row = ids_ + std::size_t(y) * std::size_t(width_);
    for (int k = 0; k < n; ++k) {
      const int x = x0 - 1 + k;
      out[k] = x < 0 || x >= width_ ? 0 : surface_key_[row[x]];
    }
  };
  load(rect.y0 - 1, up);
  load(rect.y0, cur);
  for (int y = rect.y0; y < rect.y1; ++y) {
    load(y + 1, down);
    std::uint8_t* out = moves_.data() + std::size_t(y) * std::size_t(width_) + std::size_t(x0);
    for (int k = 1; k + 1 < n; ++k) {
      const std::uint16_t key = cur[k];
      if (key == 0) {
        out[k - 1] = 0;
        continue;
      }
      // Orthogonal E, S, W, N; diagonals SE = E|S, SW = S|W, NW = W|N, NE = N|E.
      const unsigned e = cur[k + 1] == key, s = down[k] == key, w = cur[k - 1] == key, nn = up[k] == key;
      const unsigned se = e & s & (down[k + 1] == key), sw = s & w & (down[k - 1] == key);
      const unsigned nw = w & nn & (up[k - 1] == key), ne = nn & e & (up[k + 1] == key);
      out[k - 1] = std::uint8_t(e | s << 1 | w << 2 | nn << 3 | se << 4 | sw << 5 | nw << 6 | ne << 7);
    }
    std::uint16_t* spare = up;
    up = cur;
    cur = down;
    down = spare;
  }
}

Vec2 CostGrid::center(std::uint32_t i) const {
  const glm::ivec2 c = cell(i);
  return {(c.x + 0.5) * cell_size_, (c.y + 0.5) * cell_size_};
}

std::size_t CostGrid::memory_bytes() const {
  return moves_.capacity() + (surface_multiplier_.capacity() + surface_ground_.capacity()) * sizeof(double) +
         surface_key_.capacity() * sizeof(std::uint16_t);
}

}  // namespace pathscope
