#include "planner/navmesh/crowd_referee.hpp"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "planner/core/geometry.hpp"

namespace pathscope {

CrowdReferee::CrowdReferee(const PlanningWorld& world, double goal_tolerance_m, double overlap_tolerance_m)
    : world_(world), goal_tolerance_m_(goal_tolerance_m), overlap_tolerance_m_(overlap_tolerance_m) {}

bool CrowdReferee::closed(std::size_t movement_class, int x, int y) const {
  const CostGrid& grid = world_.grid(movement_class);
  return !grid.in_bounds(x, y) || !grid.passable(grid.index(x, y));
}

// The move from `previous` to `position` passes through the inside of a closed cell: each
// cell of the move's bounding box, tested as an open box.
bool CrowdReferee::move_crosses_closed(const CrowdAgent& a) const {
  const double s = world_.grid(a.movement_class).cell_size();
  const Vec2 p = a.previous, q = a.position;
  const int x0 = int(std::floor(std::min(p.x, q.x) / s)), x1 = int(std::floor(std::max(p.x, q.x) / s));
  const int y0 = int(std::floor(std::min(p.y, q.y) / s)), y1 = int(std::floor(std::max(p.y, q.y) / s));
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      if (closed(a.movement_class, x, y) &&
          segment_crosses_open_box(p, q, Vec2{x * s, y * s}, Vec2{(x + 1) * s, (y + 1) * s}))
        return true;
    }
  }
  return false;
}

void CrowdReferee::check_step(std::span<const CrowdAgent> agents, double dt) {
  ++counts_.steps;
  tunnelled_.resize(agents.size(), 0);
  inside_.resize(agents.size(), 0);
  jumped_.resize(agents.size(), 0);
  // Pairs: agents in square buckets as wide as the largest pair of radii; each bucket
  // against itself and four of its neighbours, every pair tested exactly.
  double reach = 0;
  for (const CrowdAgent& a : agents) reach = std::max(reach, 2 * a.radius);
  reach = std::max(reach, 1e-6);
  auto key_of = [&](Vec2 p) {
    const auto bx = static_cast<std::int64_t>(std::floor(p.x / reach)) + (1 << 30);
    const auto by = static_cast<std::int64_t>(std::floor(p.y / reach)) + (1 << 30);
    return static_cast<std::uint64_t>(by) << 32 | static_cast<std::uint64_t>(bx);
  };
  std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed(agents.size());
  for (std::size_t i = 0; i < agents.size(); ++i) keyed[i] = {key_of(agents[i].position), std::uint32_t(i)};
  std::sort(keyed.begin(), keyed.end());
  auto test = [&](std::uint32_t i, std::uint32_t j) {
    const CrowdAgent& a = agents[i];
    const CrowdAgent& b = agents[j];
    const double depth = a.radius + b.radius - glm::length(a.position - b.position);
    if (depth <= overlap_tolerance_m_) return;
    counts_.max_overlap_m = std::max(counts_.max_overlap_m, depth);
    if (overlapped_.insert({std::min(i, j), std::max(i, j)}).second) ++counts_.hard_overlaps;
  };
  for (std::size_t k = 0; k < keyed.size();) {
    std::size_t end = k;
    while (end < keyed.size() && keyed[end].first == keyed[k].first) ++end;
    for (std::size_t u = k; u < end; ++u) {
      for (std::size_t v = u + 1; v < end; ++v) test(keyed[u].second, keyed[v].second);
    }
    const std::uint64_t key = keyed[k].first;
    const std::int64_t bx = std::int64_t(key & 0xffffffffu), by = std::int64_t(key >> 32);
    constexpr int kNext[4][2] = {{1, -1}, {1, 0}, {1, 1}, {0, 1}};
    for (const auto& d : kNext) {
      const std::uint64_t other =
          static_cast<std::uint64_t>(by + d[1]) << 32 | static_cast<std::uint64_t>(bx + d[0]);
      auto lo =
          std::lower_bound(keyed.begin(), keyed.end(), std::pair<std::uint64_t, std::uint32_t>{other, 0});
      for (; lo != keyed.end() && lo->first == other; ++lo) {
        for (std::size_t u = k; u < end; ++u) test(keyed[u].second, lo->second);
      }
    }
    k = end;
  }
  // The static world.
  for (std::size_t i = 0; i < agents.size(); ++i) {
    const CrowdAgent& a = agents[i];
    const CostGrid& grid = world_.grid(a.movement_class);
    const double s = grid.cell_size();
    // Inside: strictly, by more than a nanometre (a centre on a cell's side or corner is
    // on the boundary of the cells round it, inside none), as the simulation's referee.
    const int cx = int(std::floor(a.position.x / s)), cy = int(std::floor(a.position.y / s));
    constexpr double kInside = 1e-9;
    const bool strictly = a.position.x - cx * s > kInside && (cx + 1) * s - a.position.x > kInside &&
                          a.position.y - cy * s > kInside && (cy + 1) * s - a.position.y > kInside;
    if (!inside_[i] && strictly && closed(a.movement_class, cx, cy)) {
      inside_[i] = 1;
      ++counts_.inside_walls;
    }
    // A step at most the class's speed times dt, plus a diameter for pushes apart.
    const double step = glm::length(a.position - a.previous);
    counts_.longest_step_m = std::max(counts_.longest_step_m, step);
    const double speed = a.movement_class < world_.scenario().classes.size()
                             ? world_.scenario().classes[a.movement_class].speed
                             : 0.0;
    if (!jumped_[i] && step > speed * dt + 2 * a.radius + 1e-9) {
      jumped_[i] = 1;
      ++counts_.jumps;
    }
    if (!tunnelled_[i] && a.previous != a.position && move_crosses_closed(a)) {
      tunnelled_[i] = 1;
      ++counts_.tunnelled;
    }
  }
  if (counts_.seconds_to_arrive < 0) {
    const CrowdGoals g = goals(agents);
    if (g.ordered > 0 && g.at_goal == g.ordered) counts_.seconds_to_arrive = double(counts_.steps) * dt;
  }
}

CrowdGoals CrowdReferee::goals(std::span<const CrowdAgent> agents) const {
  CrowdGoals g;
  g.tolerance_m = goal_tolerance_m_;
  double sum = 0;
  for (const CrowdAgent& a : agents) {
    if (!a.has_goal) continue;
    ++g.ordered;
    const double e = glm::length(a.position - a.goal);
    sum += e;
    g.max_goal_error_m = std::max(g.max_goal_error_m, e);
    if (e <= goal_tolerance_m_) ++g.at_goal;
  }
  if (g.ordered > 0) {
    g.at_goal_pct = 100.0 * double(g.at_goal) / double(g.ordered);
    g.mean_goal_error_m = sum / double(g.ordered);
  }
  return g;
}

}  // namespace pathscope
