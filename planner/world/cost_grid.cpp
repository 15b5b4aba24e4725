#include "planner/world/cost_grid.hpp"

#include <cassert>
#include <cmath>
#include <limits>

namespace pathscope {

namespace {

// One representation of "blocked".
double normalized(double m) { return m > 0 && std::isfinite(m) ? m : 0.0; }

}  // namespace

CostGrid::CostGrid(int width, int height, double cell_size, std::vector<double> multiplier,
                   std::vector<std::uint8_t> group, bool amphibious)
    : width_(width),
      height_(height),
      cell_size_(cell_size),
      amphibious_(amphibious),
      multiplier_(std::move(multiplier)),
      group_(std::move(group)) {
  assert(width > 0 && height > 0);
  assert(multiplier_.size() == std::size_t(width) * std::size_t(height));
  assert(group_.size() == multiplier_.size());
  for (int d = 0; d < 8; ++d) offsets_[d] = std::int64_t(kDirDy[d]) * width + kDirDx[d];
  for (double& m : multiplier_) m = normalized(m);
  compute_min_multiplier();
  moves_.assign(multiplier_.size(), 0);
  compute_moves(CellRect{0, 0, width, height});
}

void CostGrid::update_cells(CellRect rect, std::span<const double> multiplier, std::span<const std::uint8_t> group) {
  assert(multiplier.size() == std::size_t(rect.width()) * std::size_t(rect.height()));
  assert(group.size() == multiplier.size());
  if (rect.empty()) return;
  assert(rect.intersected(CellRect{0, 0, width_, height_}) == rect);
  bool old_min_replaced = false;
  double lowest = min_multiplier_;
  std::size_t k = 0;
  for (int y = rect.y0; y < rect.y1; ++y) {
    for (int x = rect.x0; x < rect.x1; ++x, ++k) {
      const std::uint32_t i = index(x, y);
      if (multiplier_[i] == min_multiplier_) old_min_replaced = true;
      multiplier_[i] = normalized(multiplier[k]);
      group_[i] = group[k];
      if (multiplier_[i] > 0) lowest = std::min(lowest, multiplier_[i]);
    }
  }
  if (old_min_replaced) {
    compute_min_multiplier();  // the old minimum may be gone
  } else {
    min_multiplier_ = lowest;
  }
  // A cell's moves depend on its neighbours and, for diagonals, on theirs being legal
  // too, which again only involves cells one step away: one ring of cells suffices.
  compute_moves(rect.expanded(1).intersected(CellRect{0, 0, width_, height_}));
}

void CostGrid::compute_min_multiplier() {
  double lowest = std::numeric_limits<double>::infinity();
  for (const double m : multiplier_) {
    if (m > 0 && m < lowest) lowest = m;
  }
  min_multiplier_ = std::isfinite(lowest) ? lowest : 1.0;
}

void CostGrid::compute_moves(CellRect rect) {
  // Precompute the legal moves of every cell so that searches test one bit per
  // neighbour: in bounds, destination passable, same terrain group (or amphibious),
  // and for diagonals both orthogonal neighbours legal too (no corner cutting).
  for (int y = rect.y0; y < rect.y1; ++y) {
    for (int x = rect.x0; x < rect.x1; ++x) {
      const std::uint32_t i = index(x, y);
      if (multiplier_[i] == 0) {
        moves_[i] = 0;
        continue;
      }
      std::uint8_t mask = 0;
      for (int d = 0; d < 4; ++d) {
        const int nx = x + kDirDx[d], ny = y + kDirDy[d];
        if (!in_bounds(nx, ny)) continue;
        const std::uint32_t n = index(nx, ny);
        if (multiplier_[n] == 0) continue;
        if (!amphibious_ && group_[n] != group_[i]) continue;
        mask |= std::uint8_t(1u << d);
      }
      // Diagonal d (4..7) uses orthogonals: SE = E|S, SW = S|W, NW = W|N, NE = N|E.
      static constexpr int kFirst[4] = {0, 1, 2, 3};
      static constexpr int kSecond[4] = {1, 2, 3, 0};
      for (int k = 0; k < 4; ++k) {
        const int d = 4 + k;
        if (!(mask & (1u << kFirst[k])) || !(mask & (1u << kSecond[k]))) continue;
        const std::uint32_t n = index(x + kDirDx[d], y + kDirDy[d]);
        if (multiplier_[n] == 0) continue;
        if (!amphibious_ && group_[n] != group_[i]) continue;
        mask |= std::uint8_t(1u << d);
      }
      moves_[i] = mask;
    }
  }
}

std::uint32_t CostGrid::index(int x, int y) const {
  assert(in_bounds(x, y));
  return std::uint32_t(y) * std::uint32_t(width_) + std::uint32_t(x);
}

Vec2 CostGrid::center(std::uint32_t i) const {
  const glm::ivec2 c = cell(i);
  return {(c.x + 0.5) * cell_size_, (c.y + 0.5) * cell_size_};
}

std::optional<std::uint32_t> CostGrid::cell_at(Vec2 world) const {
  if (!std::isfinite(world.x) || !std::isfinite(world.y)) return std::nullopt;
  const double fx = std::floor(world.x / cell_size_);
  const double fy = std::floor(world.y / cell_size_);
  if (fx < 0 || fy < 0 || fx >= width_ || fy >= height_) return std::nullopt;
  return index(int(fx), int(fy));
}

}  // namespace pathscope
