// The radius-0 uniform-cost bounds of the conformance suite (uniform_bounds.hpp). The
// worlds follow the kinds of Moving AI's benchmark maps ("Benchmarks for Grid-Based
// Pathfinding", Sturtevant 2012: random, rooms, mazes) with obstacles of other shapes
// beside them, all generated from a seed; the reference is grid A*'s optimum over moves
// between cell centres, and every path is costed and checked by the path referee.

#include "planner/referee/uniform_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "planner/referee/conformance.hpp"
#include "planner/referee/path_referee.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::referee {

namespace {

// Terrain indices of default_terrain_types().
enum : std::uint8_t { kGround = 0, kRough = 1, kWall = 7 };

// The world's random draws.
struct Draw {
  std::mt19937_64 rng;
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
  double real(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }
  bool chance(double p) { return real(0, 1) < p; }
};

// A tile grid of one terrain with walls painted in.
struct Tiles {
  int w, h;
  std::vector<std::uint8_t> terrain;
  std::uint8_t floor;
  void set(int x, int y, std::uint8_t t) {
    if (x >= 0 && y >= 0 && x < w && y < h) terrain[std::size_t(y * w + x)] = t;
  }
  void wall(int x, int y) { set(x, y, kWall); }
  void open(int x, int y) { set(x, y, floor); }
};

// A point moved into the world [0, w] x [0, h] (a scenario's shapes lie inside it).
Vec2 inside(Vec2 p, int w, int h) {
  return {std::clamp(p.x, 0.0, double(w)), std::clamp(p.y, 0.0, double(h))};
}

// Rectangles, discs and triangles off the cell lines until they cover `density` of the
// area (overlaps counted twice).
void scatter(Draw& d, Scenario& s, int w, int h, std::uint32_t& id) {
  const double densities[] = {0.03, 0.1, 0.2, 0.3};
  const double target = densities[d.pick(0, 3)] * w * h;
  double area = 0;
  for (int k = 0; k < 400 && area < target; ++k) {
    Shape shape;
    switch (d.pick(0, 2)) {
      case 0: {
        const Vec2 min{d.real(0, w - 1), d.real(0, h - 1)};
        const Vec2 max = inside(min + Vec2{d.real(0.4, 6), d.real(0.4, 6)}, w, h);
        shape = Shape::rect(min, max);
        area += (max.x - min.x) * (max.y - min.y);
        break;
      }
      case 1: {
        const double r = d.real(0.3, 3);
        shape = Shape::circle({d.real(0, w), d.real(0, h)}, r);
        area += 3.14159 * r * r;  // pi to 6 digits: the worlds (and the tests naming them) are drawn so
        break;
      }
      default: {
        const Vec2 c{d.real(1, w - 1), d.real(1, h - 1)};
        const Vec2 a = inside(c + Vec2{d.real(-4, 4), d.real(-4, 4)}, w, h);
        const Vec2 b = inside(c + Vec2{d.real(-4, 4), d.real(-4, 4)}, w, h);
        const double cross = (a.x - c.x) * (b.y - c.y) - (a.y - c.y) * (b.x - c.x);
        if (std::abs(cross) < 0.5) continue;  // a sliver of no area
        shape.points = cross > 0 ? std::vector<Vec2>{c, a, b} : std::vector<Vec2>{c, b, a};
        area += 0.5 * std::abs(cross);
        break;
      }
    }
    s.features.push_back(Feature{id++, "", kWall, shape});
  }
}

// Moving AI's random maps: each cell blocked with one probability.
void random_cells(Draw& d, Tiles& t) {
  const double p = 0.1 * d.pick(1, 4);
  for (int y = 0; y < t.h; ++y)
    for (int x = 0; x < t.w; ++x)
      if (d.chance(p)) t.wall(x, y);
}

// Moving AI's room maps: square rooms of side `r` between walls one cell thick, each wall
// between two rooms with a door of 1 to 3 cells (now and then none, or no wall at all).
void rooms(Draw& d, Tiles& t) {
  const int r = d.pick(4, 12), step = r + 1;
  for (int y = 0; y < t.h; ++y)
    for (int x = 0; x < t.w; ++x)
      if (x % step == r || y % step == r) t.wall(x, y);
  // Each wall piece between two junctions: vertical pieces at x = k step + r, horizontal at y.
  for (int k0 = 0; k0 * step < t.w; ++k0) {
    for (int k1 = 0; k1 * step < t.h; ++k1) {
      for (const bool vertical : {true, false}) {
        const int line = (vertical ? k0 : k1) * step + r;  // the wall's x (vertical) or y
        const int from = (vertical ? k1 : k0) * step;      // its first cell along the wall
        const double roll = d.real(0, 1);
        if (roll < 0.1) continue;  // closed
        const int door = roll < 0.2 ? r : d.pick(1, std::min(3, r));
        const int at = from + d.pick(0, r - door);
        for (int i = at; i < at + door; ++i) {
          if (vertical)
            t.open(line, i);
          else
            t.open(i, line);
        }
      }
    }
  }
}

// Moving AI's mazes: a depth-first maze of corridors `c` cells wide between walls one
// cell thick, with a few walls taken out so that some places are joined twice.
void maze(Draw& d, Tiles& t) {
  const int c = d.pick(1, 4), step = c + 1;
  const int nx = (t.w - 1) / step, ny = (t.h - 1) / step;
  for (int y = 0; y < t.h; ++y)
    for (int x = 0; x < t.w; ++x) t.wall(x, y);
  const auto carve = [&](int x0, int y0, int x1, int y1) {
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x) t.open(x, y);
  };
  // Room (i, j) covers cells [1 + i step, 1 + i step + c) on each axis.
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) carve(1 + i * step, 1 + j * step, 1 + i * step + c, 1 + j * step + c);
  const auto knock = [&](int i, int j, int di, int dj) {
    const int x = 1 + i * step, y = 1 + j * step;
    if (di != 0)
      carve(x + (di > 0 ? c : -1), y, x + (di > 0 ? c + 1 : 0), y + c);
    else
      carve(x, y + (dj > 0 ? c : -1), x + c, y + (dj > 0 ? c + 1 : 0));
  };
  std::vector<char> seen(std::size_t(nx * ny), 0);
  std::vector<std::pair<int, int>> stack{{0, 0}};
  seen[0] = 1;
  const int dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  while (!stack.empty()) {
    const auto [i, j] = stack.back();
    int options[4], n = 0;
    for (int k = 0; k < 4; ++k) {
      const int a = i + dirs[k][0], b = j + dirs[k][1];
      if (a >= 0 && b >= 0 && a < nx && b < ny && !seen[std::size_t(b * nx + a)]) options[n++] = k;
    }
    if (n == 0) {
      stack.pop_back();
      continue;
    }
    const int k = options[d.pick(0, n - 1)];
    knock(i, j, dirs[k][0], dirs[k][1]);
    seen[std::size_t((j + dirs[k][1]) * nx + i + dirs[k][0])] = 1;
    stack.push_back({i + dirs[k][0], j + dirs[k][1]});
  }
  for (int k = 0; k < nx * ny / 8; ++k) {
    const int i = d.pick(0, nx - 2), j = d.pick(0, ny - 2);
    if (d.pick(0, 1))
      knock(i, j, 1, 0);
    else
      knock(i, j, 0, 1);
  }
}

// Thin walls at any angle (rotated rectangles as polygons), a few discs and tile runs.
void walls(Draw& d, Scenario& s, Tiles& t, int w, int h, std::uint32_t& id) {
  const int n = d.pick(3, 10);
  for (int k = 0; k < n; ++k) {
    const Vec2 a{d.real(0, w), d.real(0, h)};
    // pi to 9 digits: the worlds (and the tests naming them) are drawn so.
    const double angle = d.real(0, 2 * 3.14159265), thick = d.real(0.2, 1.2);
    double len = d.real(5, 25);
    const Vec2 u{std::cos(angle), std::sin(angle)}, v{-u.y * thick, u.x * thick};
    const auto in = [&](Vec2 p) { return p.x >= 0 && p.y >= 0 && p.x <= w && p.y <= h; };
    // Shortened until it lies inside the world; dropped when it would be short.
    while (len >= 3 && !(in(a) && in(a + v) && in(a + u * len) && in(a + u * len + v))) len -= 0.5;
    if (len < 3) continue;
    Shape wall;
    wall.points = {a, a + u * len, a + u * len + v, a + v};
    s.features.push_back(Feature{id++, "", kWall, wall});
  }
  for (int k = d.pick(0, 3); k > 0; --k)
    s.features.push_back(
        Feature{id++, "", kWall, Shape::circle({d.real(0, w), d.real(0, h)}, d.real(0.5, 3))});
  for (int k = d.pick(0, 6); k > 0; --k) {
    const int x = d.pick(0, w - 1), y = d.pick(0, h - 1), len = d.pick(2, 10);
    const bool across = d.pick(0, 1) != 0;
    for (int i = 0; i < len; ++i) t.wall(across ? x + i : x, across ? y : y + i);
  }
}

// Random queries between passable cell centres joined for class 0.
std::vector<PathQuery> queries_of(const PlanningWorld& world, std::uint64_t seed, int n) {
  std::mt19937_64 rng(seed * 104729 + 17);
  const CostGrid& g = world.grid(0);
  std::vector<PathQuery> out;
  for (int tries = 0; tries < 2000 && int(out.size()) < n; ++tries) {
    const auto a = std::uint32_t(rng() % g.cell_count()), b = std::uint32_t(rng() % g.cell_count());
    if (a == b || !g.passable(a) || !g.passable(b) || !world.regions(0).connected(a, b)) continue;
    out.push_back(PathQuery{g.center(a), g.center(b)});
  }
  return out;
}

void note(PlannerUniformBound& t, std::size_t max_examples, std::string text) {
  if (t.examples.size() < max_examples) t.examples.push_back(std::move(text));
}

// Why `info` is not checked on uniform radius-0 worlds, or "".
std::string skip_reason(const PlannerInfo& info) {
  if (!info.referee.uniform_skip.empty()) return info.referee.uniform_skip;
  if (info.referee.cost == CostModel::Other) return "its cost is another model: " + info.referee.note;
  if (info.referee.uniform_bound <= 0) return "its entry declares no radius-0 uniform bound";
  return {};
}

}  // namespace

const char* to_string(UniformWorldKind kind) {
  switch (kind) {
    case UniformWorldKind::Scatter: return "scatter";
    case UniformWorldKind::Random: return "random";
    case UniformWorldKind::Rooms: return "rooms";
    case UniformWorldKind::Maze: return "maze";
    case UniformWorldKind::Walls: return "walls";
  }
  return "";
}

UniformWorldKind uniform_world_kind(std::uint64_t seed) { return UniformWorldKind(seed % 5); }

Scenario uniform_world(std::uint64_t seed) {
  Draw d{std::mt19937_64(seed ^ 0x5eed0f0u)};
  const int w = d.pick(24, 64), h = d.pick(24, 64);
  Scenario s = make_empty_scenario(w, h, 1.0);
  const UniformWorldKind kind = uniform_world_kind(seed);
  s.name = std::string("uniform ") + to_string(kind) + " " + std::to_string(seed);
  // One multiplier on every passable cell: ground, or now and then rough ground (1.5 for infantry).
  const std::uint8_t floor = seed % 7 == 3 ? kRough : kGround;
  Tiles t{w, h, std::vector<std::uint8_t>(std::size_t(w * h), floor), floor};
  std::uint32_t id = 1;
  switch (kind) {
    case UniformWorldKind::Scatter: scatter(d, s, w, h, id); break;
    case UniformWorldKind::Random: random_cells(d, t); break;
    case UniformWorldKind::Rooms: rooms(d, t); break;
    case UniformWorldKind::Maze: maze(d, t); break;
    case UniformWorldKind::Walls: walls(d, s, t, w, h, id); break;
  }
  s.tiles = TileGrid{w, h, std::move(t.terrain)};
  return s;
}

std::vector<PlannerUniformBound> run_uniform_bounds(std::span<const PlannerInfo> registry,
                                                    const UniformBoundOptions& options) {
  std::vector<PlannerUniformBound> out(registry.size());
  const PlannerInfo* astar = find_planner("astar", registry);
  // Each planner's parameters with its radius 0, or why it is skipped.
  std::vector<ParamValues> params(registry.size());
  for (std::size_t i = 0; i < registry.size(); ++i) {
    const PlannerInfo& info = registry[i];
    PlannerUniformBound& t = out[i];
    t.planner = info.name;
    t.bound = info.referee.uniform_bound;
    t.skipped = astar == nullptr ? "no grid A* in the registry to compare with" : skip_reason(info);
    if (!t.skipped.empty()) continue;
    const Result<ParamValues> p = resolve_params(info, info.referee.radius_zero, "radius_zero");
    if (!p)
      t.skipped = "its radius-0 parameters are refused: " + p.error().to_string();
    else
      params[i] = *p;
  }
  const std::size_t cls = 0;
  for (int wi = 0; wi < options.worlds; ++wi) {
    const std::uint64_t seed = options.first_world + std::uint64_t(wi);
    const PlanningWorld world(uniform_world(seed));
    const std::vector<PathQuery> queries = queries_of(world, seed, options.queries_per_world);
    const std::vector<std::optional<double>> optimum = grid_optima(astar, world, cls, queries);
    for (std::size_t pi = 0; pi < registry.size(); ++pi) {
      const PlannerInfo& info = registry[pi];
      PlannerUniformBound& t = out[pi];
      if (!t.skipped.empty()) continue;
      const QueryContext context{world, cls, std::nullopt, params[pi]};
      if (const double kept = declared_clearance(info, context); kept > 0) {
        char buf[120];
        std::snprintf(buf, sizeof buf, "keeps %.3f m from obstacles with its radius-0 parameters", kept);
        t.skipped = buf;
        continue;
      }
      std::unique_ptr<Planner> planner = info.create(context);
      const RefereeParams rp = params_for(info, params[pi], world, cls);
      for (std::size_t qi = 0; qi < queries.size(); ++qi) {
        const PathQuery& q = queries[qi];
        char where[160];
        std::snprintf(where, sizeof where, "uniform world %llu (%s), query %zu (%.1f, %.1f) -> (%.1f, %.1f)",
                      static_cast<unsigned long long>(seed), to_string(uniform_world_kind(seed)), qi,
                      q.start.x, q.start.y, q.goal.x, q.goal.y);
        ++t.queries;
        const PathResult r = find_path(*planner, q);
        if (r.status != SearchStatus::Found) {
          ++t.refused;
          if (optimum[qi]) {
            ++t.refused_solvable;
            note(t, options.max_examples,
                 std::string(where) + ": " + r.message + ", but grid A* finds a path");
          }
          continue;
        }
        ++t.found;
        const Result<Verdict> verdict = referee_path(world, cls, r.points, rp);
        if (!verdict || !verdict->legal) {
          ++t.illegal;
          note(t, options.max_examples,
               std::string(where) + ": " +
                   (verdict ? verdict->violations.front().message : verdict.error().to_string()));
          continue;
        }
        if (!costs_agree(r.cost, verdict->cost)) {
          ++t.cost_disagree;
          char buf[96];
          std::snprintf(buf, sizeof buf, ": reported %.6f, referee %.6f", r.cost, verdict->cost);
          note(t, options.max_examples, where + std::string(buf));
        }
        if (!optimum[qi] || *optimum[qi] <= 0) continue;
        const double ratio = verdict->cost / *optimum[qi];
        ++t.bound_checked;
        t.sum_ratio += ratio;
        if (ratio > 1.05 * (1 + kCostTolerance)) ++t.over_105;
        if (ratio > t.worst_ratio) {
          t.worst_ratio = ratio;
          t.worst = UniformWorst{seed, q, verdict->cost, *optimum[qi]};
        }
        if (ratio > t.bound * (1 + kCostTolerance)) {
          ++t.over_bound;
          // Costs above the bound keep at most half the examples: the rest for the other kinds.
          if (t.over_bound > int(options.max_examples / 2)) continue;
          char buf[128];
          std::snprintf(buf, sizeof buf, ": cost %.6f is %.4f x grid A*'s %.6f, above its bound %.4f",
                        verdict->cost, ratio, *optimum[qi], t.bound);
          note(t, options.max_examples, where + std::string(buf));
        }
      }
    }
  }
  return out;
}

}  // namespace pathscope::referee
