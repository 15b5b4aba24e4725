// Fog of war: line of sight, observation and the believed world (belief.hpp). Partial
// memories are cut with Clipper in integer coordinates, 1024 per metre, like the
// visibility graph's obstacles.
//
// Line of sight walks each segment from a unit to a cell centre through the grid cell by
// cell (Amanatides and Woo's traversal); a blocking cell on the way blocks only when the
// segment crosses its open square (geometry.hpp's exact test), and where the walk passes a
// grid corner, both cells beside it are tested, so rounding in the walk never decides.

#include "planner/world/belief.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <string>

#include <polyclipping/clipper.hpp>

#include "planner/core/geometry.hpp"
#include "planner/world/box_coverage.hpp"
#include "planner/world/rasterize.hpp"

namespace pathscope {
namespace {

using ClipperLib::cInt;
using ClipperLib::IntPoint;
using ClipperLib::Path;
using ClipperLib::Paths;

constexpr double kScale = 1024.0;
constexpr double kPi = 3.14159265358979323846;

cInt to_unit(double metres) { return cInt(std::llround(metres * kScale)); }

double dist_sq(Vec2 a, Vec2 b) {
  const Vec2 d = b - a;
  return d.x * d.x + d.y * d.y;
}

// A polygon inside the circle, its edges within `error` of it.
Path circle_path(Vec2 c, double r, double error) {
  int n = 8;
  while (n < 1024 && r * (1.0 - std::cos(kPi / n)) > error) n *= 2;
  Path p;
  for (int i = 0; i < n; ++i) {
    const double a = 2 * kPi * i / n;
    p.push_back(IntPoint(to_unit(c.x + r * std::cos(a)), to_unit(c.y + r * std::sin(a))));
  }
  return p;
}

Path shape_path(const Shape& s, double error) {
  switch (s.kind) {
    case ShapeKind::Rect:
      return Path{IntPoint(to_unit(s.min.x), to_unit(s.min.y)), IntPoint(to_unit(s.max.x), to_unit(s.min.y)),
                  IntPoint(to_unit(s.max.x), to_unit(s.max.y)), IntPoint(to_unit(s.min.x), to_unit(s.max.y))};
    case ShapeKind::Circle: return circle_path(s.center, s.radius, error);
    case ShapeKind::Polygon: {
      Path p;
      for (const Vec2& v : s.points) p.push_back(IntPoint(to_unit(v.x), to_unit(v.y)));
      return p;
    }
  }
  return {};
}

Paths run(ClipperLib::ClipType op, const Paths& subject, const Paths& clip) {
  ClipperLib::Clipper c;
  c.StrictlySimple(true);
  c.AddPaths(subject, ClipperLib::ptSubject, true);
  c.AddPaths(clip, ClipperLib::ptClip, true);
  Paths out;
  c.Execute(op, out, ClipperLib::pftNonZero, ClipperLib::pftNonZero);
  return out;
}

// The outer rings of `paths` as polygon features like `like` (holes are filled: a piece
// remembered around an unseen middle is believed whole there). Slivers are dropped.
void add_pieces(const Paths& paths, const Feature& like, const WorldInfo& world, std::vector<Feature>& out) {
  for (Path p : paths) {
    if (!ClipperLib::Orientation(p)) continue;  // a hole
    ClipperLib::CleanPolygon(p, 1.0);
    if (p.size() < 3 || ClipperLib::Area(p) < 0.01 * kScale * kScale) continue;
    Feature f = like;
    f.velocity = {0, 0};
    f.shape = Shape{};
    f.shape.kind = ShapeKind::Polygon;
    for (const IntPoint& q : p) {
      f.shape.points.push_back(Vec2{std::clamp(double(q.X) / kScale, 0.0, world.width),
                                    std::clamp(double(q.Y) / kScale, 0.0, world.height)});
    }
    if (find_self_intersection(f.shape.points) || !(std::abs(polygon_area(f.shape.points)) > 0)) continue;
    out.push_back(std::move(f));
  }
}

}  // namespace

std::vector<Vec2> view_centres(const Scenario& scenario, std::size_t faction) {
  std::vector<Vec2> out;
  if (faction >= scenario.factions.size()) return out;
  for (const Unit& u : scenario.units) {
    if (u.faction == scenario.factions[faction].name) out.push_back(u.position);
  }
  return out;
}

std::vector<std::uint8_t> sight_blockers(const Scenario& scenario, const TerrainRaster& raster) {
  std::vector<std::uint8_t> blocks_terrain(scenario.terrains.size(), 0);
  for (std::size_t t = 0; t < scenario.terrains.size(); ++t) {
    const TerrainType& tt = scenario.terrains[t];
    blocks_terrain[t] =
        std::none_of(tt.cost.begin(), tt.cost.end(), [](const auto& c) { return c.has_value(); });
  }
  std::vector<std::uint8_t> out(raster.cell_count(), 0);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const Surface& s = raster.surface_at(i);
    out[i] = !s.bridge && s.terrain < blocks_terrain.size() && blocks_terrain[s.terrain];
  }
  return out;
}

std::size_t FactionView::count() const {
  return std::size_t(std::count(seen.begin(), seen.end(), std::uint8_t(1)));
}

namespace {

// The segment eye -> (cell (tx, ty)'s centre) crosses the open square of no blocking cell
// other than the eye's cell and the target.
bool clear_line(Vec2 eye, int ex, int ey, int tx, int ty, const std::vector<std::uint8_t>& blockers,
                const FactionView& v) {
  const double s = v.cell_size;
  const Vec2 to{(tx * s + (tx + 1) * s) * 0.5, (ty * s + (ty + 1) * s) * 0.5};
  const auto blocks = [&](int x, int y) {
    if (x < 0 || y < 0 || x >= v.width || y >= v.height) return false;
    if ((x == ex && y == ey) || (x == tx && y == ty)) return false;
    if (!blockers[std::size_t(y) * std::size_t(v.width) + x]) return false;
    return segment_crosses_open_box(eye, to, Vec2{x * s, y * s}, Vec2{(x + 1) * s, (y + 1) * s});
  };
  const double dx = to.x - eye.x, dy = to.y - eye.y;
  const int sx = tx > ex ? 1 : tx < ex ? -1 : 0;
  const int sy = ty > ey ? 1 : ty < ey ? -1 : 0;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  // Parameter t (0 at the eye, 1 at the centre) where the segment crosses the next
  // vertical (x) and horizontal (y) grid line, and the step between lines.
  double next_x = sx == 0 || dx == 0 ? kInf : ((sx > 0 ? (ex + 1) * s : ex * s) - eye.x) / dx;
  double next_y = sy == 0 || dy == 0 ? kInf : ((sy > 0 ? (ey + 1) * s : ey * s) - eye.y) / dy;
  const double step_x = sx == 0 || dx == 0 ? kInf : s / std::abs(dx);
  const double step_y = sy == 0 || dy == 0 ? kInf : s / std::abs(dy);
  int x = ex, y = ey;
  // At most one step per grid line between the two cells, plus slack for rounding.
  const int limit = std::abs(tx - ex) + std::abs(ty - ey) + 4;
  for (int i = 0; i < limit && !(x == tx && y == ty); ++i) {
    const double tol = 1e-9;
    if (std::abs(next_x - next_y) <= tol) {
      // Through (or next to) a grid corner: both cells beside it are tested exactly.
      if (blocks(x + sx, y) || blocks(x, y + sy)) return false;
      x += sx;
      y += sy;
      next_x += step_x;
      next_y += step_y;
    } else if (next_x < next_y) {
      x += sx;
      next_x += step_x;
    } else {
      y += sy;
      next_y += step_y;
    }
    if (blocks(x, y)) return false;
  }
  return true;
}

}  // namespace

void add_line_of_sight(Vec2 eye, const std::vector<std::uint8_t>& blockers, FactionView& v) {
  const double s = v.cell_size, r = v.sight;
  if (!(r > 0) || v.width <= 0 || v.height <= 0) return;
  const int ex = int(std::floor(eye.x / s)), ey = int(std::floor(eye.y / s));
  const int x0 = std::max(0, int(std::floor((eye.x - r) / s)) - 1);
  const int x1 = std::min(v.width - 1, int(std::floor((eye.x + r) / s)) + 1);
  const int y0 = std::max(0, int(std::floor((eye.y - r) / s)) - 1);
  const int y1 = std::min(v.height - 1, int(std::floor((eye.y + r) / s)) + 1);
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      std::uint8_t& seen = v.seen[std::size_t(y) * std::size_t(v.width) + x];
      if (seen) continue;
      const Vec2 c{(x * s + (x + 1) * s) * 0.5, (y * s + (y + 1) * s) * 0.5};
      if (dist_sq(eye, c) > r * r) continue;
      if (clear_line(eye, ex, ey, x, y, blockers, v)) seen = 1;
    }
  }
}

FactionView faction_view(const Scenario& scenario, std::size_t faction,
                         const std::vector<std::uint8_t>& blockers) {
  FactionView v;
  if (faction >= scenario.factions.size()) return v;
  const glm::ivec2 size = scenario.grid_size();
  v.width = size.x;
  v.height = size.y;
  v.cell_size = scenario.world.cell_size;
  v.sight = scenario.factions[faction].sight;
  if (!(v.sight > 0)) return v;
  v.eyes = view_centres(scenario, faction);
  v.seen.assign(std::size_t(v.width) * std::size_t(v.height), 0);
  for (const Vec2& eye : v.eyes) add_line_of_sight(eye, blockers, v);
  return v;
}

namespace {

// The cells of the view's grid a world box [lo, hi] can touch (clamped; may be empty).
struct CellSpan {
  int x0, y0, x1, y1;  // inclusive
};
CellSpan cells_of(const FactionView& v, Vec2 lo, Vec2 hi) {
  const double s = v.cell_size;
  return CellSpan{std::max(0, int(std::floor(lo.x / s)) - 1), std::max(0, int(std::floor(lo.y / s)) - 1),
                  std::min(v.width - 1, int(std::floor(hi.x / s)) + 1),
                  std::min(v.height - 1, int(std::floor(hi.y / s)) + 1)};
}

std::pair<Vec2, Vec2> shape_box(const Shape& shape) {
  switch (shape.kind) {
    case ShapeKind::Rect: return {shape.min, shape.max};
    case ShapeKind::Circle:
      return {shape.center - Vec2{shape.radius, shape.radius},
              shape.center + Vec2{shape.radius, shape.radius}};
    case ShapeKind::Polygon: {
      Vec2 lo{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
      Vec2 hi = -lo;
      for (const Vec2& p : shape.points) {
        lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
        hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
      }
      return {lo, hi};
    }
  }
  return {};
}

// The cells in view as Clipper rectangles, one per run of a row, within the sight
// circles (polygons inside the true circles, edges within `error`).
Paths view_region(const FactionView& v, double error) {
  const double s = v.cell_size;
  Paths runs;
  for (int y = 0; y < v.height; ++y) {
    for (int x = 0; x < v.width;) {
      if (!v.sees(x, y)) {
        ++x;
        continue;
      }
      int end = x;
      while (end < v.width && v.sees(end, y)) ++end;
      runs.push_back(Path{
          IntPoint(to_unit(x * s), to_unit(y * s)), IntPoint(to_unit(end * s), to_unit(y * s)),
          IntPoint(to_unit(end * s), to_unit((y + 1) * s)), IntPoint(to_unit(x * s), to_unit((y + 1) * s))});
      x = end;
    }
  }
  Paths circles;
  for (const Vec2& c : v.eyes) circles.push_back(circle_path(c, v.sight, error));
  return run(ClipperLib::ctIntersection, run(ClipperLib::ctUnion, runs, {}),
             run(ClipperLib::ctUnion, circles, {}));
}

}  // namespace

bool shape_in_view(const Shape& shape, const FactionView& view) {
  if (view.seen.empty()) return false;
  const auto [lo, hi] = shape_box(shape);
  const CellSpan c = cells_of(view, lo, hi);
  const double s = view.cell_size;
  for (int y = c.y0; y <= c.y1; ++y) {
    for (int x = c.x0; x <= c.x1; ++x) {
      if (view.sees(x, y) &&
          shape_overlaps_open_box(shape, Vec2{x * s, y * s}, Vec2{(x + 1) * s, (y + 1) * s}))
        return true;
    }
  }
  return false;
}

std::vector<Feature> observe(const Scenario& scenario, std::size_t faction, const FactionView& view) {
  const Faction& f = scenario.factions.at(faction);
  if (!(f.sight > 0)) return f.memory;
  if (view.eyes.empty() || view.seen.empty()) return f.memory;
  std::vector<Feature> out;
  if (!f.partial) {
    // Whole features: what is in view now replaces every memory of it; remembered
    // features in view that are not there any more are forgotten.
    std::vector<std::uint32_t> seen;
    for (const Feature& t : scenario.features) {
      if (!t.container && shape_in_view(t.shape, view)) seen.push_back(t.id);
    }
    std::sort(seen.begin(), seen.end());
    for (const Feature& m : f.memory) {
      if (std::binary_search(seen.begin(), seen.end(), m.id)) continue;
      if (shape_in_view(m.shape, view)) continue;  // seen gone
      out.push_back(m);
    }
    for (const Feature& t : scenario.features) {
      if (!std::binary_search(seen.begin(), seen.end(), t.id)) continue;
      Feature m = t;
      m.velocity = {0, 0};
      out.push_back(std::move(m));
    }
    return out;
  }
  // Parts: per feature id, (what was remembered) minus the view, plus (what is) in view.
  const double error = std::max(1.0 / kScale, f.sight / 100);
  const Paths region = view_region(view, error);
  std::map<std::uint32_t, std::pair<Paths, const Feature*>> pieces;  // by id: ordered
  for (const Feature& m : f.memory) {
    auto& [paths, like] = pieces[m.id];
    paths.push_back(shape_path(m.shape, error));
    if (!like) like = &m;
  }
  std::map<std::uint32_t, std::pair<Paths, const Feature*>> now;
  for (const Feature& t : scenario.features) {
    if (t.container || !shape_in_view(t.shape, view)) continue;
    auto& [paths, like] = now[t.id];
    paths.push_back(shape_path(t.shape, error));
    like = &t;
  }
  for (auto& [id, entry] : pieces) {
    auto& [paths, like] = entry;
    // The old pieces outside the view stay, as remembered.
    const Paths kept = run(ClipperLib::ctDifference, run(ClipperLib::ctUnion, paths, {}), region);
    const auto it = now.find(id);
    if (it == now.end()) {
      add_pieces(kept, *like, scenario.world, out);
      continue;
    }
    const Paths seen = run(ClipperLib::ctIntersection, it->second.first, region);
    add_pieces(run(ClipperLib::ctUnion, kept, seen), *it->second.second, scenario.world, out);
    now.erase(it);
  }
  for (const auto& [id, entry] : now) {
    add_pieces(run(ClipperLib::ctIntersection, entry.first, region), *entry.second, scenario.world, out);
  }
  // Memory in the order of ids, then of pieces: independent of edit order.
  std::stable_sort(out.begin(), out.end(), [](const Feature& a, const Feature& b) { return a.id < b.id; });
  return out;
}

bool bridge_in_view(const Bridge& bridge, const FactionView& view) {
  if (view.seen.empty()) return false;
  const double s = view.cell_size;
  const double half = bridge.width / 2;
  const Vec2 lo{std::min(bridge.a.x, bridge.b.x) - half, std::min(bridge.a.y, bridge.b.y) - half};
  const Vec2 hi{std::max(bridge.a.x, bridge.b.x) + half, std::max(bridge.a.y, bridge.b.y) + half};
  const CellSpan c = cells_of(view, lo, hi);
  for (int y = c.y0; y <= c.y1; ++y) {
    for (int x = c.x0; x <= c.x1; ++x) {
      if (!view.sees(x, y)) continue;
      const Vec2 cl{x * s, y * s}, ch{(x + 1) * s, (y + 1) * s};
      const Vec2 centre{(cl.x + ch.x) * 0.5, (cl.y + ch.y) * 0.5};
      // A cell the deck paints, or one its centre line passes through (a narrow deck).
      if (distance_sq_to_segment(centre, bridge.a, bridge.b) <= half * half) return true;
      if (segment_crosses_open_box(bridge.a, bridge.b, cl, ch)) return true;
    }
  }
  return false;
}

std::vector<Bridge> observe_bridges(const Scenario& scenario, std::size_t faction, const FactionView& view) {
  const Faction& f = scenario.factions.at(faction);
  if (!(f.sight > 0)) return f.bridges;
  std::map<std::uint32_t, Bridge> out;  // by id: the memory's order
  for (const Bridge& m : f.bridges) {
    // A remembered bridge whose place is in view is replaced by what is there, or
    // forgotten when it is gone.
    if (!bridge_in_view(m, view)) out.emplace(m.id, m);
  }
  for (const Bridge& t : scenario.bridges) {
    // In view: as it is. Out of view: as remembered, or unknown.
    if (bridge_in_view(t, view)) out.insert_or_assign(t.id, t);
  }
  std::vector<Bridge> list;
  list.reserve(out.size());
  for (auto& [id, b] : out) list.push_back(std::move(b));
  return list;
}

std::vector<std::uint8_t> observe_tiles(const Scenario& scenario, std::size_t faction,
                                        const FactionView& view) {
  const Faction& f = scenario.factions.at(faction);
  if (!(f.sight > 0)) return f.tiles;
  if (!scenario.tiles) return {};
  const TileGrid& g = *scenario.tiles;
  const std::size_t n = std::size_t(g.width) * std::size_t(g.height);
  std::vector<std::uint8_t> out =
      f.tiles.size() == n ? f.tiles : std::vector<std::uint8_t>(n, Faction::kUnseenTile);
  if (view.seen.empty()) return f.tiles.size() == n ? out : f.tiles;
  for (int y = 0; y < std::min(g.height, view.height); ++y) {
    for (int x = 0; x < std::min(g.width, view.width); ++x) {
      const std::size_t i = std::size_t(y) * std::size_t(g.width) + x;
      if (view.sees(x, y)) out[i] = g.terrain[i];
    }
  }
  // Nothing seen and nothing remembered stays empty (the file says nothing).
  if (f.tiles.empty() &&
      std::all_of(out.begin(), out.end(), [](std::uint8_t t) { return t == Faction::kUnseenTile; }))
    return {};
  return out;
}

bool observe_all(Scenario& scenario) {
  bool fog = false;
  for (const Faction& f : scenario.factions) fog = fog || f.sight > 0;
  if (!fog) return false;
  return observe_all(scenario, rasterize(scenario));
}

bool observe_all(Scenario& scenario, const TerrainRaster& raster) {
  bool changed = false;
  std::vector<std::uint8_t> blockers;
  for (std::size_t i = 0; i < scenario.factions.size(); ++i) {
    if (!(scenario.factions[i].sight > 0)) continue;
    if (blockers.empty()) blockers = sight_blockers(scenario, raster);
    const FactionView view = faction_view(scenario, i, blockers);
    std::vector<Feature> memory = observe(scenario, i, view);
    std::vector<Bridge> bridges = observe_bridges(scenario, i, view);
    std::vector<std::uint8_t> tiles = observe_tiles(scenario, i, view);
    Faction& f = scenario.factions[i];
    if (memory == f.memory && bridges == f.bridges && tiles == f.tiles) continue;
    f.memory = std::move(memory);
    f.bridges = std::move(bridges);
    f.tiles = std::move(tiles);
    changed = true;
  }
  return changed;
}

Scenario believed_scenario(const Scenario& scenario, std::size_t faction) {
  Scenario out = scenario;
  if (faction < scenario.factions.size() && scenario.factions[faction].sight > 0) {
    // Containers are terrain, known to all (as roads are).
    out.features.clear();
    for (const Feature& t : scenario.features) {
      if (t.container) out.features.push_back(t);
    }
    const std::vector<Feature>& memory = scenario.factions[faction].memory;
    out.features.insert(out.features.end(), memory.begin(), memory.end());
    // Bridges as remembered: one never seen is not there.
    std::map<std::uint32_t, Bridge> bridges;
    for (const Bridge& b : scenario.factions[faction].bridges) bridges.insert_or_assign(b.id, b);
    out.bridges.clear();
    for (const auto& [id, b] : bridges) out.bridges.push_back(b);
    // Tiles as remembered; never seen: terrain 0, plain ground (planned through).
    if (out.tiles) {
      const std::vector<std::uint8_t>& known = scenario.factions[faction].tiles;
      std::vector<std::uint8_t>& terrain = out.tiles->terrain;
      for (std::size_t i = 0; i < terrain.size(); ++i) {
        terrain[i] = i < known.size() && known[i] != Faction::kUnseenTile ? known[i] : 0;
      }
    }
  }
  return out;
}

namespace {

// The believed world of one faction, kept by the truth world as a derived structure.
class BeliefWorld final : public DerivedStructure {
 public:
  BeliefWorld(const PlanningWorld& truth, std::size_t faction)
      : faction_(faction), world_(believed_scenario(truth.scenario(), faction)) {}
  const PlanningWorld& world() const { return world_; }
  bool update(const PlanningWorld& truth, const WorldChange& change) override {
    (void)change;
    // The believed world has no cost overlay, so its update always succeeds.
    world_.update(believed_scenario(truth.scenario(), faction_)).value();
    return true;  // planners hold references to world_: it is updated in place, never dropped
  }
  std::size_t memory_bytes() const override { return 0; }

 private:
  std::size_t faction_;
  PlanningWorld world_;
};

}  // namespace

const PlanningWorld& believed_world(const PlanningWorld& truth, std::size_t faction) {
  const std::string key = "belief " + std::to_string(faction);
  return truth
      .derived<BeliefWorld>(key, 0,
                            [faction](const PlanningWorld& w, std::size_t) {
                              return std::make_unique<BeliefWorld>(w, faction);
                            })
      .world();
}

}  // namespace pathscope
