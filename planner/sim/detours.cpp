// Held-up units find a way round the units in their way (seed 002's case 3.4, "stop
// and re-path", with the other units seen).
//
// The planners plan on the static world and do not see units, so a unit pressed into a
// knot of others (a crowd crossing the centre of a circle, two files meeting head-on in
// the open) gets the same path again whenever it asks. A unit that has made no progress
// towards its order point for kHeldUpSeconds, with another unit touching its soft shape,
// searches instead a small lattice round itself, of a hard radius's pitch, on which
// every other unit is an obstacle where it stands: A* from its position towards the
// first point of its path outside the window (or its order point inside it). The way
// out is the reached lattice point with the least cost plus straight distance to that
// point, among those whose straight line to it is clear of walls and units; the unit
// then walks the lattice path to it, and its path from there. With no such point (a crowd
// stands between it and the target) it takes the reached point nearest the target, if
// that gains at least a pitch: on into a gap of the crowd. No way round (walled in by
// units), or the straight line open already (something else holds it up): it keeps its
// path. Units leave a knot from its rim inwards, each round the others. A held-up unit
// whose order point is taken by a unit standing on it, within three hard radii of it, is
// there: it takes its next order point, or its order is done and it stands beside its
// goal, not arrived (SimUnit::Goal::taken), until the goal is free (arrival.cpp).
//
// Everything is plain arithmetic on the lattice in a fixed order: deterministic.
//
// A component: it sees the units, the motions and grids, and each unit's terrain key and
// last try (DetourUnit), and returns its decisions (Detour); the step applies them. A
// decision changes whether its unit moves (is_moving), which the units after it read of
// it (a goal is taken by a still unit), so the component keeps that flag as its
// decisions leave it.

#include "planner/sim/detours.hpp"

#include <algorithm>
#include <cmath>
#include <queue>

#include <glm/geometric.hpp>

#include "planner/core/geometry.hpp"
#include "planner/sim/static_check.hpp"
#include "planner/world/cost_grid.hpp"

namespace pathscope::sim {

namespace {

constexpr double kHeldUpSeconds = 2;  // without progress, and since the last (re)path
constexpr int kHalfCells = 16;        // lattice points each side of the unit
constexpr double kClearance = 0.02;   // metres added to the sum of hard radii

struct Open {
  double f;
  std::uint32_t node;
  bool operator>(const Open& o) const { return f != o.f ? f > o.f : node > o.node; }
};

// The way round the units for held-up unit `u` (see the top of this file); false if none.
// `max_hard` is the largest hard radius of any class; `scratch.hash` holds the units.
bool find_detour(const SimUnit& u, std::span<const SimUnit> units, std::span<const Motion> motions,
                 const CostGrid& grid, std::uint16_t move_key, double max_hard, DetourScratch& scratch,
                 std::vector<Vec2>& way) {
  way.clear();
  const Motion& m = motions[u.movement_class];
  const double pitch = std::max(0.05, m.hard_radius);
  const double half = kHalfCells * pitch;
  constexpr int kSide = 2 * kHalfCells + 1;
  // The target: the first path point outside the window, else the path's end.
  std::size_t target_index = u.route.path.size() - 1;
  for (std::size_t i = u.route.waypoint; i < u.route.path.size(); ++i) {
    const Vec2 d = u.route.path[i] - u.body.position;
    if (std::max(std::abs(d.x), std::abs(d.y)) > half) {
      target_index = i;
      break;
    }
  }
  const Vec2 target = u.route.path[target_index];
  // The other units near enough to matter.
  std::vector<std::uint32_t>& near = scratch.near;
  near.clear();
  const double reach = half * std::sqrt(2.0) + 2 * max_hard + pitch;
  scratch.hash.near(u.body.position, [&](std::uint32_t j) {
    if (j == u.id.index || !units[j].alive) return;
    if (glm::length(units[j].body.position - u.body.position) <= reach) near.push_back(j);
  });
  if (near.empty()) return false;
  auto unit_free = [&](Vec2 a, Vec2 b) {
    for (std::uint32_t j : near) {
      const double r = m.hard_radius + motions[units[j].movement_class].hard_radius + kClearance;
      if (distance_sq_to_segment(units[j].body.position, a, b) < r * r) return false;
    }
    return true;
  };
  // Something else holds it up: its straight line to the target is open.
  if (unit_free(u.body.position, target) && !segment_blocked(grid, move_key, u.body.position, target))
    return false;
  // The lattice, centred on the unit: closed where another unit's hard shape would touch.
  std::vector<std::uint8_t> closed(kSide * kSide, 0);
  const Vec2 origin = u.body.position - Vec2{half, half};
  auto at = [&](int i) { return origin + Vec2{(i % kSide) * pitch, (i / kSide) * pitch}; };
  for (std::uint32_t j : near) {
    const SimUnit& o = units[j];
    const double r = m.hard_radius + motions[o.movement_class].hard_radius + kClearance;
    const int x0 = std::max(0, static_cast<int>(std::floor((o.body.position.x - r - origin.x) / pitch)));
    const int x1 =
        std::min(kSide - 1, static_cast<int>(std::ceil((o.body.position.x + r - origin.x) / pitch)));
    const int y0 = std::max(0, static_cast<int>(std::floor((o.body.position.y - r - origin.y) / pitch)));
    const int y1 =
        std::min(kSide - 1, static_cast<int>(std::ceil((o.body.position.y + r - origin.y) / pitch)));
    for (int y = y0; y <= y1; ++y) {
      for (int xx = x0; xx <= x1; ++xx) {
        const Vec2 p = at(y * kSide + xx);
        if (glm::dot(p - o.body.position, p - o.body.position) < r * r) closed[y * kSide + xx] = 1;
      }
    }
  }
  const int start = kHalfCells * kSide + kHalfCells;
  closed[start] = 0;
  std::vector<double> g(kSide * kSide, INFINITY);
  std::vector<std::int32_t> parent(kSide * kSide, -1);
  std::vector<std::uint8_t> done(kSide * kSide, 0);
  std::priority_queue<Open, std::vector<Open>, std::greater<>> open;
  g[start] = 0;
  open.push({glm::length(target - u.body.position), static_cast<std::uint32_t>(start)});
  int best = -1;
  double best_cost = INFINITY;
  // No clear way out (a crowd stands between it and the target): the reached point
  // nearest the target, if it is nearer by a pitch or more, takes it on into a gap.
  int nearest = -1;
  double nearest_distance = glm::length(target - u.body.position) - pitch;
  constexpr int kDx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
  constexpr int kDy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
  while (!open.empty()) {
    const Open top = open.top();
    open.pop();
    const int n = static_cast<int>(top.node);
    if (done[n]) continue;
    done[n] = 1;
    if (top.f >= best_cost) break;  // nothing left can beat the way out found
    const Vec2 p = at(n);
    if (n != start) {
      const double cost = g[n] + glm::length(target - p);
      const double distance = glm::length(target - p);
      if (distance < nearest_distance && !segment_blocked(grid, move_key, p, target)) {
        nearest_distance = distance;
        nearest = n;
      }
      if (cost < best_cost && unit_free(p, target) && !segment_blocked(grid, move_key, p, target)) {
        best_cost = cost;
        best = n;
      }
    }
    const int nx = n % kSide, ny = n / kSide;
    for (int k = 0; k < 8; ++k) {
      const int ax = nx + kDx[k], ay = ny + kDy[k];
      if (ax < 0 || ay < 0 || ax >= kSide || ay >= kSide) continue;
      const int a = ay * kSide + ax;
      if (closed[a] || done[a]) continue;
      const Vec2 q = at(a);
      const double step = k < 4 ? pitch : pitch * std::sqrt(2.0);
      if (g[n] + step >= g[a]) continue;
      if (segment_blocked(grid, move_key, p, q)) continue;
      g[a] = g[n] + step;
      parent[a] = n;
      open.push({g[a] + glm::length(target - q), static_cast<std::uint32_t>(a)});
    }
  }
  if (best < 0) best = nearest;
  if (best < 0) return false;
  // The lattice path, its straight runs joined.
  std::vector<int> chain;
  for (int n = best; n != start; n = parent[n]) chain.push_back(n);
  std::reverse(chain.begin(), chain.end());
  Vec2 from = u.body.position;
  for (std::size_t i = 0; i < chain.size(); ++i) {
    const Vec2 p = at(chain[i]);
    if (i + 1 < chain.size()) {
      const Vec2 next = at(chain[i + 1]);
      const Vec2 a = p - from, b = next - p;
      if (std::abs(a.x * b.y - a.y * b.x) < 1e-9 && glm::dot(a, b) > 0) continue;  // straight on
    }
    way.push_back(p);
    from = p;
  }
  for (std::size_t i = target_index; i < u.route.path.size(); ++i) way.push_back(u.route.path[i]);
  return true;
}

}  // namespace

void find_detours(std::span<const SimUnit> units, std::span<DetourUnit> track,
                  std::span<const Motion> motions, std::span<const CostGrid* const> grids, double now,
                  DetourScratch& scratch, std::vector<Detour>& out) {
  out.clear();
  auto held_up = [&](const SimUnit& u) {
    if (!u.alive || u.route.state != MoveState::Moving || u.route.path.empty() ||
        u.route.waypoint >= u.route.path.size())
      return false;
    if (u.coop.yield == Yield::MoveAside || u.coop.yield == Yield::Return)
      return false;                                       // moving for another
    if (u.waits.bridge || u.waits.passage) return false;  // waiting its turn, not held up
    return now - std::max(u.route.progress_time, track[u.id.index].last_repath) >= kHeldUpSeconds;
  };
  bool any = false;
  for (const SimUnit& u : units) any = any || held_up(u);
  if (!any) return;
  double max_hard = 0;
  for (const Motion& m : motions) max_hard = std::max(max_hard, m.hard_radius);
  const double pitch = std::max(0.05, max_hard);
  const double cell = kHalfCells * std::sqrt(2.0) * pitch + 3 * pitch + 1e-9;
  scratch.points.resize(units.size());
  scratch.alive.resize(units.size());
  scratch.moving.resize(units.size());
  for (std::size_t i = 0; i < units.size(); ++i) {
    scratch.points[i] = units[i].body.position;
    scratch.alive[i] = units[i].alive;
    scratch.moving[i] = is_moving(units[i]);
  }
  scratch.hash.build(scratch.points, cell, scratch.alive);
  std::vector<Vec2> way;
  for (const SimUnit& u : units) {
    if (!held_up(u)) continue;
    DetourUnit& x = track[u.id.index];
    // Held up by units: another one touches its soft shape.
    const Motion& m = motions[u.movement_class];
    bool touched = false;
    scratch.hash.near(u.body.position, [&](std::uint32_t j) {
      if (j == u.id.index || !units[j].alive) return;
      const double r = m.soft_radius + motions[units[j].movement_class].soft_radius;
      touched = touched || glm::length(units[j].body.position - u.body.position) < r;
    });
    if (!touched) continue;
    x.last_repath = now;  // one try per kHeldUpSeconds, found or not
    // Its order point taken by a unit standing there, and itself as near as it can get
    // (touching that unit, or nearly): there, as a unit told to a crowded spot stops
    // beside it. At its last point it is not arrived (not at its goal): it walks in when
    // the goal is free (arrival.cpp).
    const Vec2 point = u.route.path.back();
    if (glm::length(point - u.body.position) <= 3 * m.hard_radius + kClearance) {
      bool taken = false;
      scratch.hash.near(point, [&](std::uint32_t j) {
        if (j == u.id.index || !units[j].alive || scratch.moving[j]) return;
        const double r = m.hard_radius + motions[units[j].movement_class].hard_radius;
        taken = taken || glm::length(units[j].body.position - point) < r;
      });
      if (taken) {
        out.push_back(Detour{u.id.index, true, {}});
        scratch.moving[u.id.index] = 0;  // it ends its path and stands
        continue;
      }
    }
    if (!find_detour(u, units, motions, *grids[u.movement_class], x.move_key, max_hard, scratch, way))
      continue;
    out.push_back(Detour{u.id.index, false, way});
    scratch.moving[u.id.index] = 1;  // under way on its new path, yielding to nobody
  }
}

}  // namespace pathscope::sim
