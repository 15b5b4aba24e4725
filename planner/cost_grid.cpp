#include "planner/cost_grid.hpp"

#include <cassert>
#include <cmath>
#include <limits>

namespace pathscope {

CostGrid::CostGrid(int width, int height, double cell_size, std::vector<double> multiplier,
                   const std::vector<std::uint8_t>& group, bool amphibious)
    : width_(width), height_(height), cell_size_(cell_size), multiplier_(std::move(multiplier)) {
  assert(width > 0 && height > 0);
  assert(multiplier_.size() == std::size_t(width) * std::size_t(height));
  assert(group.size() == multiplier_.size());
  for (int d = 0; d < 8; ++d) offsets_[d] = std::int64_t(kDirDy[d]) * width + kDirDx[d];

  double lowest = std::numeric_limits<double>::infinity();
  for (double& m : multiplier_) {
    if (!(m > 0) || !std::isfinite(m)) m = 0;  // one representation of "blocked"
    if (m > 0 && m < lowest) lowest = m;
  }
  min_multiplier_ = std::isfinite(lowest) ? lowest : 1.0;

  // Precompute the legal moves of every cell so that searches test one bit per
  // neighbour: in bounds, destination passable, same terrain group (or amphibious),
  // and for diagonals both orthogonal neighbours legal too (no corner cutting).
  moves_.assign(multiplier_.size(), 0);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const std::uint32_t i = index(x, y);
      if (multiplier_[i] == 0) continue;
      std::uint8_t mask = 0;
      for (int d = 0; d < 4; ++d) {
        const int nx = x + kDirDx[d], ny = y + kDirDy[d];
        if (!in_bounds(nx, ny)) continue;
        const std::uint32_t n = index(nx, ny);
        if (multiplier_[n] == 0) continue;
        if (!amphibious && group[n] != group[i]) continue;
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
        if (!amphibious && group[n] != group[i]) continue;
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
