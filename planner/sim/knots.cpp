// Head-on knots become passages while they last (see knots.hpp).

#include "planner/sim/knots.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "planner/sim/bridges.hpp"
#include "planner/world/cost_grid.hpp"

namespace pathscope::sim {

namespace {

// Metres along its way that give a held-up unit's direction: past the turns right under
// its feet, short of where the way bends for good.
constexpr double kWayReach = 3;
// |cos| of the largest angle between a unit's way and its knot's line: 45 degrees.
const double kAlongLine = std::sqrt(0.5);

// The point `reach` metres along the unit's way (its position, then its path from its
// waypoint on), or its path's end if nearer.
Vec2 ahead_on_way(const SimUnit& u, double reach) {
  Vec2 from = u.body.position;
  for (std::size_t k = u.route.waypoint; k < u.route.path.size(); ++k) {
    const Vec2 to = u.route.path[k];
    const double len = glm::length(to - from);
    if (len >= reach) return from + (to - from) * (reach / len);
    reach -= len;
    from = to;
  }
  return from;
}

struct Held {
  std::uint32_t slot = 0;
  Vec2 way{0, 0};  ///< A unit vector.
};

// Union-find over the held units, joined by index.
std::uint32_t root(std::vector<std::uint32_t>& parent, std::uint32_t i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

}  // namespace

void find_knots(std::span<const SimUnit> units, std::span<const std::uint16_t> move_keys,
                std::span<const PassageMap> maps, std::span<const Motion> motions,
                std::span<const CostGrid* const> grids, const KnotRules& rules, double now,
                std::vector<Knot>& knots) {
  knots.clear();
  for (std::size_t c = 0; c < maps.size(); ++c) {
    const CostGrid& grid = *grids[c];
    const PassageMap& map = maps[c];
    // The held-up units of this class on narrow enough ground, in slot order.
    const double widest = rules.max_width * 2 * motions[c].hard_radius + 1e-9;
    std::vector<Held> held;
    for (const SimUnit& u : units) {
      if (!u.alive || u.movement_class != c || u.route.state != MoveState::Moving || u.waits.bridge ||
          u.waits.passage || u.route.waypoint >= u.route.path.size() ||
          now - u.route.progress_time < rules.held_seconds)
        continue;
      const auto cell = grid.cell_at(u.body.position);
      if (!cell || map.passage_of(*cell) || static_cast<double>(map.widths()[*cell]) > widest) continue;
      const Vec2 d = ahead_on_way(u, kWayReach) - u.body.position;
      const double len = glm::length(d);
      if (len < 1e-6) continue;
      held.push_back(Held{u.id.index, d / len});
    }
    if (held.size() < 2 * rules.min_side) continue;
    // Chains of neighbours: sorted along x, each unit joined to those within `link`.
    const double link = rules.link * 2 * motions[c].hard_radius;
    std::vector<std::uint32_t> order(held.size());
    std::iota(order.begin(), order.end(), 0u);
    const auto x_of = [&](std::uint32_t i) { return units[held[i].slot].body.position.x; };
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return x_of(a) < x_of(b); });
    std::vector<std::uint32_t> parent(held.size());
    std::iota(parent.begin(), parent.end(), 0u);
    for (std::size_t i = 0; i < order.size(); ++i) {
      const Vec2 p = units[held[order[i]].slot].body.position;
      for (std::size_t j = i + 1; j < order.size() && x_of(order[j]) - p.x <= link; ++j) {
        if (glm::length(units[held[order[j]].slot].body.position - p) > link) continue;
        const std::uint32_t a = root(parent, order[i]), b = root(parent, order[j]);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the root is the lowest slot's
      }
    }
    // Each group, in the order of its lowest slot (held is in slot order).
    std::vector<std::vector<std::uint32_t>> groups(held.size());
    for (std::uint32_t i = 0; i < held.size(); ++i) groups[root(parent, i)].push_back(i);
    std::vector<std::uint8_t> taken;  // cells of this step's knots: made at the first knot
    for (const std::vector<std::uint32_t>& group : groups) {
      if (group.size() < 2 * rules.min_side) continue;
      // Its line: the ways summed, each turned to agree with the first unit's.
      const Vec2 first = held[group[0]].way;
      Vec2 sum{0, 0};
      for (const std::uint32_t i : group)
        sum += glm::dot(held[i].way, first) >= 0 ? held[i].way : -held[i].way;
      const double len = glm::length(sum);
      if (len < 1e-9) continue;
      const Vec2 line = sum / len;
      std::uint32_t forth = 0, back = 0;
      for (const std::uint32_t i : group) {
        const double along = glm::dot(held[i].way, line);
        if (along >= kAlongLine) ++forth;
        if (along <= -kAlongLine) ++back;
      }
      if (forth < rules.min_side || back < rules.min_side ||
          static_cast<double>(forth + back) < rules.aligned * static_cast<double>(group.size()))
        continue;
      // The first unit's way is `line`'s side: it wins a tie.
      Knot k;
      k.movement_class = c;
      k.flow = forth >= back ? line : -line;
      k.going = std::max(forth, back);
      k.queued = std::min(forth, back);
      if (taken.empty()) taken.assign(grid.cell_count(), 0);
      // Its cells: the open cells of each unit's terrain group within `margin` of it, in no
      // passage and in no other knot of this step.
      const double cell = grid.cell_size();
      for (const std::uint32_t i : group) {
        const SimUnit& u = units[held[i].slot];
        const std::uint16_t key = move_keys[held[i].slot];
        const Vec2 lo = (u.body.position - rules.margin) / cell, hi = (u.body.position + rules.margin) / cell;
        // (A cell whose edge lies exactly `margin` off counts: one more cell each side.)
        for (int y = static_cast<int>(std::floor(lo.y)) - 1; y <= static_cast<int>(std::floor(hi.y)) + 1;
             ++y) {
          for (int x = static_cast<int>(std::floor(lo.x)) - 1; x <= static_cast<int>(std::floor(hi.x)) + 1;
               ++x) {
            if (!grid.in_bounds(x, y)) continue;
            const std::uint32_t n = grid.index(x, y);
            if (taken[n] || !grid.passable(n) || grid.move_key(n) != key || map.passage_of(n)) continue;
            const Vec2 lo{x * cell, y * cell};
            const Vec2 nearest = glm::clamp(u.body.position, lo, lo + Vec2{cell, cell});
            if (glm::length(nearest - u.body.position) > rules.margin) continue;
            taken[n] = 1;
            k.cells.push_back(n);
          }
        }
      }
      if (k.cells.empty()) continue;
      std::sort(k.cells.begin(), k.cells.end());
      glm::ivec2 lo = grid.cell(k.cells.front()), hi = lo;
      for (const std::uint32_t n : k.cells) {
        lo = glm::min(lo, grid.cell(n));
        hi = glm::max(hi, grid.cell(n));
      }
      k.bounds = Box2{Vec2{lo.x * cell, lo.y * cell}, Vec2{(hi.x + 1) * cell, (hi.y + 1) * cell}};
      knots.push_back(std::move(k));
    }
  }
}

void keep_knots(std::span<PassageMap> maps, std::span<const Knot> knots, const KnotRules& rules, double now) {
  for (PassageMap& map : maps) {
    std::vector<Passage>& ps = map.passages();
    for (std::size_t k = 0; k < ps.size(); ++k) {
      if (ps[k].knot && !ps[k].cells.empty() && now - ps[k].seen > rules.linger_seconds)
        map.dissolve_knot(static_cast<std::uint32_t>(k));
    }
  }
  for (const Knot& k : knots) {
    PassageMap& map = maps[k.movement_class];
    // An entry is reused only once no unit's memory of it (its last passage, read for
    // kClearSeconds) can still be about the old knot.
    const std::uint32_t at = map.add_knot(k.cells, k.bounds, now, now - kClearSeconds);
    Passage& p = map.passages()[at];
    p.held = true;
    p.flow = k.flow;
    p.queued = true;
    p.queue_flow = -k.flow;
    p.queued_since = now;
  }
}

}  // namespace pathscope::sim
