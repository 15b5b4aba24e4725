#include "planner/sim/passages.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <glm/common.hpp>

#include "planner/world/cost_grid.hpp"

namespace pathscope::sim {

namespace {

// May a run go from cell (x, y) one step along (dx, dy)? Both cells passable in the same
// terrain group and, for a diagonal step, both cells beside it too (no corner cutting,
// as the grid's moves).
bool joined(const CostGrid& grid, int x, int y, int dx, int dy) {
  const int nx = x + dx, ny = y + dy;
  if (!grid.in_bounds(nx, ny)) return false;
  const std::uint32_t a = grid.index(x, y);
  const std::uint16_t key = grid.move_key(a);
  auto same = [&](int cx, int cy) {
    const std::uint32_t c = grid.index(cx, cy);
    return grid.passable(c) && grid.move_key(c) == key;
  };
  if (!same(nx, ny)) return false;
  return dx == 0 || dy == 0 || (same(nx, y) && same(x, ny));
}

}  // namespace

PassageMap::PassageMap(const CostGrid& grid, const PassageRules& rules) : rules_(rules) {
  const int w = grid.width(), h = grid.height();
  const std::size_t n = grid.cell_count();
  cell_passage_.assign(n, -1);
  // Free runs along rows, columns and both diagonals: each line of cells is cut into
  // runs of joined cells; every cell of a run gets the run's length if shorter.
  std::vector<float> straight(n, std::numeric_limits<float>::infinity());  // rows and columns
  std::vector<float> diagonal(n, std::numeric_limits<float>::infinity());
  const std::array<glm::ivec2, 4> dirs{glm::ivec2{1, 0}, glm::ivec2{0, 1}, glm::ivec2{1, 1},
                                       glm::ivec2{1, -1}};
  std::vector<std::uint32_t> run;
  for (const glm::ivec2 d : dirs) {
    const bool diag = d.x != 0 && d.y != 0;
    std::vector<float>& out = diag ? diagonal : straight;
    const double step = grid.cell_size() * (diag ? std::sqrt(2.0) : 1.0);
    for (int y0 = 0; y0 < h; ++y0) {
      for (int x0 = 0; x0 < w; ++x0) {
        if (grid.in_bounds(x0 - d.x, y0 - d.y)) continue;  // not the first cell of a line
        int x = x0, y = y0;
        run.clear();
        while (grid.in_bounds(x, y)) {
          const std::uint32_t i = grid.index(x, y);
          if (grid.passable(i)) run.push_back(i);
          if (!grid.passable(i) || !joined(grid, x, y, d.x, d.y)) {
            const auto length = static_cast<float>(static_cast<double>(run.size()) * step);
            for (const std::uint32_t c : run) out[c] = std::min(out[c], length);
            run.clear();
          }
          x += d.x;
          y += d.y;
        }
      }
    }
  }
  // The width: the shorter of the row and the column; a diagonal run counts only where
  // the row and column are short too (a corridor at 45 degrees, where they are the
  // width times sqrt 2), not beside a corner, where only one diagonal is short.
  width_.assign(n, 0.0f);
  for (std::size_t i = 0; i < n; ++i) {
    if (!grid.passable(static_cast<std::uint32_t>(i))) continue;
    const float across = straight[i] * static_cast<float>(std::sqrt(0.5));
    width_[i] = std::min(straight[i], std::max(diagonal[i], across));
  }
  // Narrow cells, 8-connected, in passages; too long a group is no passage.
  const auto narrow = [&](std::uint32_t i) {
    return grid.passable(i) && static_cast<double>(width_[i]) <= rules.max_width + 1e-9;
  };
  std::vector<std::uint8_t> seen(n, 0);
  std::vector<std::uint32_t> stack;
  for (std::uint32_t start = 0; start < n; ++start) {
    if (seen[start] || !narrow(start)) continue;
    Passage p;
    seen[start] = 1;
    stack.assign(1, start);
    glm::ivec2 lo = grid.cell(start), hi = lo;
    while (!stack.empty()) {
      const std::uint32_t c = stack.back();
      stack.pop_back();
      p.cells.push_back(c);
      const glm::ivec2 xy = grid.cell(c);
      lo = glm::min(lo, xy);
      hi = glm::max(hi, xy);
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          if ((dx == 0 && dy == 0) || !grid.in_bounds(xy.x + dx, xy.y + dy)) continue;
          const std::uint32_t m = grid.index(xy.x + dx, xy.y + dy);
          if (seen[m] || !narrow(m)) continue;
          seen[m] = 1;
          stack.push_back(m);
        }
      }
    }
    const double s = grid.cell_size();
    p.bounds = Box2{Vec2{lo.x * s, lo.y * s}, Vec2{(hi.x + 1) * s, (hi.y + 1) * s}};
    if (std::max(p.bounds.hi.x - p.bounds.lo.x, p.bounds.hi.y - p.bounds.lo.y) > rules.max_length + 1e-9)
      continue;
    std::sort(p.cells.begin(), p.cells.end());
    for (const std::uint32_t c : p.cells) cell_passage_[c] = static_cast<std::int32_t>(passages_.size());
    passages_.push_back(std::move(p));
  }
}

std::uint32_t PassageMap::add_knot(std::vector<std::uint32_t> cells, Box2 bounds, double now,
                                   double reuse_before) {
  std::size_t k = 0;
  while (k < passages_.size() &&
         !(passages_[k].knot && passages_[k].cells.empty() && passages_[k].seen < reuse_before))
    ++k;
  if (k == passages_.size()) passages_.emplace_back();
  Passage& p = passages_[k];
  p = Passage{};
  p.knot = true;
  p.seen = now;
  p.cells = std::move(cells);
  p.bounds = bounds;
  for (const std::uint32_t c : p.cells) cell_passage_[c] = static_cast<std::int32_t>(k);
  return static_cast<std::uint32_t>(k);
}

void PassageMap::dissolve_knot(std::uint32_t k) {
  Passage& p = passages_[k];
  for (const std::uint32_t c : p.cells) cell_passage_[c] = -1;
  const double seen = p.seen;
  p = Passage{};
  p.knot = true;
  p.seen = seen;
}

}  // namespace pathscope::sim
