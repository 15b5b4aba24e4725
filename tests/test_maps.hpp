#pragma once

// Tiny maps for tests, drawn as ASCII art, and a brute-force shortest-path reference.
//   '.' ground (1)   '#' wall   'r' rough (1.5)   's' swamp (3)   'w' water (1, group "water")

#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "planner/scenario/scenario.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::test {

/// A scenario whose tile grid is `rows` (1 m cells), with one class "unit".
inline Scenario ascii_scenario(const std::vector<std::string>& rows, double cell_size = 1.0) {
  Scenario s;
  s.name = "ascii";
  const int h = int(rows.size()), w = int(rows.front().size());
  s.world = WorldInfo{w * cell_size, h * cell_size, cell_size};
  s.classes = {MovementClass{.name = "unit", .radius = 0.4, .speed = 1.0, .amphibious = false}};
  s.terrains = {
      TerrainType{"ground", '.', Color{120, 160, 90, 255}, {1.0}, ""},
      TerrainType{"wall", '#', Color{60, 60, 60, 255}, {std::nullopt}, ""},
      TerrainType{"rough", 'r', Color{150, 130, 90, 255}, {1.5}, ""},
      TerrainType{"swamp", 's', Color{90, 110, 70, 255}, {3.0}, ""},
      TerrainType{"water", 'w', Color{60, 90, 200, 255}, {1.0}, "water"},
  };
  TileGrid t;
  t.width = w;
  t.height = h;
  for (const std::string& row : rows) {
    for (char c : row) {
      std::uint8_t k = 0;
      while (s.terrains[k].symbol != c) ++k;
      t.terrain.push_back(k);
    }
  }
  s.tiles = std::move(t);
  return s;
}

/// Random map: `density` of walls, some rough/swamp/water patches when `terrain`.
inline std::vector<std::string> random_rows(std::mt19937_64& rng, int w, int h, double density,
                                            bool terrain) {
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<std::string> rows(std::size_t(h), std::string(std::size_t(w), '.'));
  for (auto& row : rows) {
    for (char& c : row) {
      const double r = u(rng);
      if (r < density)
        c = '#';
      else if (terrain && r < density + 0.10)
        c = 'r';
      else if (terrain && r < density + 0.15)
        c = 's';
      else if (terrain && r < density + 0.17)
        c = 'w';
    }
  }
  return rows;
}

/// Independent Dijkstra straight from the movement rule (cost_grid.hpp), in metres;
/// infinity when unreachable. Written without CostGrid::moves() on purpose.
inline double reference_cost(const Scenario& s, int sx, int sy, int gx, int gy) {
  const TileGrid& t = *s.tiles;
  auto mult = [&](int x, int y) -> double {
    if (x < 0 || y < 0 || x >= t.width || y >= t.height) return 0;
    const auto& c = s.terrains[t.terrain[std::size_t(y * t.width + x)]].cost[0];
    return c ? *c : 0.0;
  };
  auto group = [&](int x, int y) { return s.terrains[t.terrain[std::size_t(y * t.width + x)]].group; };
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> dist(t.terrain.size(), inf);
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> pq;
  if (mult(sx, sy) == 0 || mult(gx, gy) == 0) return inf;
  dist[std::size_t(sy * t.width + sx)] = 0;
  pq.push({0.0, sy * t.width + sx});
  while (!pq.empty()) {
    auto [d, i] = pq.top();
    pq.pop();
    if (d > dist[std::size_t(i)]) continue;
    const int x = i % t.width, y = i / t.width;
    if (x == gx && y == gy) return d * s.world.cell_size;
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        if (!dx && !dy) continue;
        const int nx = x + dx, ny = y + dy;
        if (mult(nx, ny) == 0 || group(nx, ny) != group(x, y)) continue;
        if (dx && dy) {
          if (mult(nx, y) == 0 || mult(x, ny) == 0) continue;
          if (group(nx, y) != group(x, y) || group(x, ny) != group(x, y)) continue;
        }
        const double len = (dx && dy) ? std::sqrt(2.0) : 1.0;
        const double nd = d + len * (0.5 * (mult(x, y) + mult(nx, ny)));
        if (nd < dist[std::size_t(ny * t.width + nx)]) {
          dist[std::size_t(ny * t.width + nx)] = nd;
          pq.push({nd, ny * t.width + nx});
        }
      }
    }
  }
  return inf;
}

/// World point at the centre of cell (x, y).
inline Vec2 cell_center(const Scenario& s, int x, int y) {
  return {(x + 0.5) * s.world.cell_size, (y + 0.5) * s.world.cell_size};
}

/// A random cell centre of `s`'s tile grid (any terrain).
inline Vec2 random_cell_center(std::mt19937_64& rng, const Scenario& s) {
  return cell_center(s, int(rng() % unsigned(s.tiles->width)), int(rng() % unsigned(s.tiles->height)));
}

/// 16 x 8 cells of walls and rough ground: leaves of several sizes and one-way links
/// appear in a quadtree, and a path from the top-left to the bottom-right corner bends.
inline std::vector<std::string> bent_rows() {
  return {
      "................", "................", "....######......", "....######......",
      "........rr......", "..........##....", "..........##....", "................",
  };
}

/// A unit of class 0 at `p` with `order` (none by default), for simulation tests.
inline Unit unit_at(std::uint32_t id, Vec2 p, Order order = {}) {
  Unit u;
  u.id = id;
  u.position = p;
  u.order = std::move(order);
  return u;
}

/// An order to go to `p`.
inline Order move_to(Vec2 p) { return Order{OrderKind::Move, {p}, PatrolMode::Loop}; }

}  // namespace pathscope::test
