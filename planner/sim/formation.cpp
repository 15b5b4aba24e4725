// Formation goals (see formation.hpp). Seed 002 names the group (units given one order
// together, kept together as they move) and the formation (a group with a front, where
// each unit keeps a place of its own); its sequel's subject is how they move. What is
// here is the simplest part of the formation that a group needs so that its units do not
// fight over one point: each unit's own place at the destination, chosen so that a
// column walks into it without its head stopping in the way of those behind.

#include "planner/sim/formation.hpp"

#include "planner/world/planning_world.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <tuple>

namespace pathscope::sim {

namespace {

// One kind of unit in the group: where its slots must be open and connected.
struct Kind {
  std::size_t movement_class = 0;
  std::uint16_t move_key = 0;
  double hard_radius = 0;
  std::uint32_t region = RegionMap::kBlocked;  // kBlocked: any region will do
  friend bool operator<(const Kind& a, const Kind& b) {
    return std::tie(a.movement_class, a.move_key) < std::tie(b.movement_class, b.move_key);
  }
};

// True if a disc of radius `r` at `p` touches only cells of move key `key` (a cell it
// only grazes does not count), all inside the world.
bool disc_open(const CostGrid& grid, const WorldInfo& world, std::uint16_t key, Vec2 p, double r) {
  if (p.x - r < 0 || p.y - r < 0 || p.x + r > world.width || p.y + r > world.height) return false;
  const double s = grid.cell_size();
  const int x0 = static_cast<int>(std::floor((p.x - r) / s)),
            x1 = static_cast<int>(std::floor((p.x + r) / s));
  const int y0 = static_cast<int>(std::floor((p.y - r) / s)),
            y1 = static_cast<int>(std::floor((p.y + r) / s));
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const double cx = std::clamp(p.x, x * s, (x + 1) * s), cy = std::clamp(p.y, y * s, (y + 1) * s);
      const double dx = cx - p.x, dy = cy - p.y;
      if (dx * dx + dy * dy >= r * r) continue;  // grazed at most
      if (!grid.in_bounds(x, y) || grid.move_key(grid.index(x, y)) != key) return false;
    }
  }
  return true;
}

// The kinds of unit in `units`, each with the region its slots must lie in.
std::vector<Kind> kinds_of(const PlanningWorld& world, std::span<const FormationUnit> units, Vec2 point) {
  std::vector<Kind> kinds;
  for (const FormationUnit& u : units) {
    if (u.move_key == 0) continue;  // stands nowhere open: it has no say
    const Kind k{u.movement_class, u.move_key, u.hard_radius};
    const auto it = std::lower_bound(kinds.begin(), kinds.end(), k);
    if (it == kinds.end() || *it < k || k < *it) {
      kinds.insert(it, k);
    } else {
      it->hard_radius = std::max(it->hard_radius, u.hard_radius);
    }
  }
  for (Kind& k : kinds) {
    const CostGrid& grid = world.grid(k.movement_class);
    const RegionMap& regions = world.regions(k.movement_class);
    const auto cell = grid.cell_at(point);
    if (cell && grid.move_key(*cell) == k.move_key) {
      k.region = regions.region(*cell);
      continue;
    }
    // The ordered point is closed to this kind: the region most of its units stand in.
    std::vector<std::uint32_t> labels;
    for (const FormationUnit& u : units) {
      if (u.movement_class != k.movement_class || u.move_key != k.move_key) continue;
      const auto c = grid.cell_at(u.position);
      if (c && grid.move_key(*c) == k.move_key) labels.push_back(regions.region(*c));
    }
    std::sort(labels.begin(), labels.end());
    std::size_t best = 0;
    for (std::size_t i = 0; i < labels.size();) {
      std::size_t j = i;
      while (j < labels.size() && labels[j] == labels[i]) ++j;
      if (j - i > best) {
        best = j - i;
        k.region = labels[i];
      }
      i = j;
    }
  }
  return kinds;
}

bool slot_open(const PlanningWorld& world, std::span<const Kind> kinds, Vec2 p) {
  const WorldInfo& info = world.scenario().world;
  if (p.x < 0 || p.y < 0 || p.x > info.width || p.y > info.height) return false;  // with no kind to ask, too
  for (const Kind& k : kinds) {
    const CostGrid& grid = world.grid(k.movement_class);
    if (!disc_open(grid, info, k.move_key, p, k.hard_radius)) return false;
    if (k.region == RegionMap::kBlocked) continue;
    const auto cell = grid.cell_at(p);
    if (!cell || world.regions(k.movement_class).region(*cell) != k.region) return false;
  }
  return true;
}

}  // namespace

double formation_spacing(std::span<const FormationUnit> units) {
  double hard = 0, soft = 0;
  for (const FormationUnit& u : units) {
    hard = std::max(hard, u.hard_radius);
    soft = std::max(soft, u.soft_radius);
  }
  return std::max(2 * soft, 2 * hard + kSlotMargin);
}

Vec2 travel_direction(std::span<const FormationUnit> units, Vec2 point) {
  if (units.empty()) return {1, 0};
  Vec2 sum{0, 0};
  for (const FormationUnit& u : units) sum += u.position;
  const Vec2 d = point - sum / static_cast<double>(units.size());
  const double len = std::sqrt(d.x * d.x + d.y * d.y);
  if (!(len > 1e-9)) return {1, 0};
  return d / len;
}

std::vector<FormationSlot> formation_slots(const PlanningWorld& world, std::span<const FormationUnit> units,
                                           Vec2 point, Vec2 direction, double spacing, std::size_t count) {
  std::vector<FormationSlot> found;
  if (count == 0 || units.empty() || !(spacing > 0)) return found;
  const std::vector<Kind> kinds = kinds_of(world, units, point);
  const Vec2 across{-direction.y, direction.x};
  const WorldInfo& info = world.scenario().world;
  // Rings of lattice points, each round out to twice the last; a round takes only the
  // points within its radius, so the order over all rounds is one sort by distance.
  // Searched out to four times the formation's side plus 32 m (within the world): beyond
  // that the group has no business there, and a crowd ordered into a closet must not
  // make a step search the whole map.
  const auto side = static_cast<std::int64_t>(std::ceil(std::sqrt(static_cast<double>(count)))) + 1;
  const double world_reach = std::sqrt(info.width * info.width + info.height * info.height) / spacing + 2;
  const std::int64_t last = std::min(static_cast<std::int64_t>(std::ceil(world_reach)),
                                     4 * side + static_cast<std::int64_t>(std::ceil(kSlotReach / spacing)));
  std::int64_t inner = -1;  // squared lattice radius already searched
  std::int64_t radius = std::min(side, last);
  struct Candidate {
    std::int64_t d2;
    int row, column;
  };
  std::vector<Candidate> ring;
  while (found.size() < count) {
    const std::int64_t r2 = radius * radius;
    ring.clear();
    for (std::int64_t i = -radius; i <= radius; ++i) {
      for (std::int64_t j = -radius; j <= radius; ++j) {
        const std::int64_t d2 = i * i + j * j;
        if (d2 > inner && d2 <= r2) ring.push_back({d2, static_cast<int>(i), static_cast<int>(j)});
      }
    }
    // Nearest first; then front rows first; then by column.
    std::sort(ring.begin(), ring.end(), [](const Candidate& a, const Candidate& b) {
      if (a.d2 != b.d2) return a.d2 < b.d2;
      if (a.row != b.row) return a.row > b.row;
      return a.column < b.column;
    });
    for (const Candidate& c : ring) {
      const Vec2 p = point + direction * (c.row * spacing) + across * (c.column * spacing);
      if (!slot_open(world, kinds, p)) continue;
      found.push_back({p, c.row, c.column});
      if (found.size() == count) break;
    }
    if (radius >= last) break;
    inner = r2;
    radius = std::min(radius * 2, last);
  }
  return found;
}

FormationPlan plan_formation(const PlanningWorld& world, std::span<const FormationUnit> units, Vec2 point,
                             Vec2 direction, std::optional<Vec2> column) {
  FormationPlan plan;
  plan.point = point;
  plan.direction = direction;
  plan.spacing = formation_spacing(units);
  plan.slots.assign(units.size(), FormationSlot{point, kNoSlot, 0});
  std::vector<FormationSlot> slots =
      formation_slots(world, units, point, direction, plan.spacing, units.size());
  std::sort(slots.begin(), slots.end(), [](const FormationSlot& a, const FormationSlot& b) {
    return a.row != b.row ? a.row > b.row : a.column < b.column;
  });

  // Units in column order: farthest along the way first (the head), then across it.
  const Vec2 along = column.value_or(direction);
  const Vec2 across{-along.y, along.x};
  struct Place {
    double along, side;
    std::size_t index;
  };
  std::vector<Place> order;
  order.reserve(units.size());
  for (std::size_t i = 0; i < units.size(); ++i) {
    const Vec2 d = units[i].position - point;
    order.push_back({glm::dot(d, along), glm::dot(d, across), i});
  }
  std::sort(order.begin(), order.end(), [](const Place& a, const Place& b) {
    if (a.along != b.along) return a.along > b.along;
    if (a.side != b.side) return a.side < b.side;
    return a.index < b.index;
  });

  // Row by row from the front: each row takes the next units of the column, which keep
  // their sides across it.
  std::size_t next = 0;
  for (std::size_t a = 0; a < slots.size();) {
    std::size_t b = a;
    while (b < slots.size() && slots[b].row == slots[a].row) ++b;
    std::sort(order.begin() + std::ptrdiff_t(next), order.begin() + std::ptrdiff_t(next + (b - a)),
              [](const Place& x, const Place& y) {
                if (x.side != y.side) return x.side < y.side;
                if (x.along != y.along) return x.along > y.along;
                return x.index < y.index;
              });
    for (std::size_t k = a; k < b; ++k) plan.slots[order[next + (k - a)].index] = slots[k];
    next += b - a;
    a = b;
  }
  return plan;
}

}  // namespace pathscope::sim
