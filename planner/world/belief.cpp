// Fog of war: observation and the believed world (belief.hpp). Partial memories are
// cut with Clipper in integer coordinates, 1024 per metre, like the visibility graph's
// obstacles.

#include "planner/world/belief.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>

#include <polyclipping/clipper.hpp>

#include "planner/core/geometry.hpp"

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

bool shape_in_view(const Shape& shape, const std::vector<Vec2>& centres, double sight) {
  const double r2 = sight * sight;
  for (const Vec2& c : centres) {
    switch (shape.kind) {
      case ShapeKind::Circle: {
        const double r = sight + shape.radius;
        if (dist_sq(c, shape.center) <= r * r) return true;
        break;
      }
      case ShapeKind::Rect: {
        const Vec2 q{std::clamp(c.x, shape.min.x, shape.max.x), std::clamp(c.y, shape.min.y, shape.max.y)};
        if (dist_sq(c, q) <= r2) return true;
        break;
      }
      case ShapeKind::Polygon: {
        const std::vector<Vec2>& p = shape.points;
        if (p.size() >= 3 && point_in_polygon(c, p)) return true;
        for (std::size_t i = 0; i < p.size(); ++i) {
          if (distance_sq_to_segment(c, p[i], p[(i + 1) % p.size()]) <= r2) return true;
        }
        break;
      }
    }
  }
  return false;
}

std::vector<Feature> observe(const Scenario& scenario, std::size_t faction) {
  const Faction& f = scenario.factions.at(faction);
  if (!(f.sight > 0)) return f.memory;
  const std::vector<Vec2> centres = view_centres(scenario, faction);
  if (centres.empty()) return f.memory;
  std::vector<Feature> out;
  if (!f.partial) {
    // Whole features: what is in view now replaces every memory of it; remembered
    // features in view that are not there any more are forgotten.
    std::vector<std::uint32_t> seen;
    for (const Feature& t : scenario.features) {
      if (!t.container && shape_in_view(t.shape, centres, f.sight)) seen.push_back(t.id);
    }
    std::sort(seen.begin(), seen.end());
    for (const Feature& m : f.memory) {
      if (std::binary_search(seen.begin(), seen.end(), m.id)) continue;
      if (shape_in_view(m.shape, centres, f.sight)) continue;  // seen gone
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
  Paths view;
  for (const Vec2& c : centres) view.push_back(circle_path(c, f.sight, error));
  view = run(ClipperLib::ctUnion, view, {});
  std::map<std::uint32_t, std::pair<Paths, const Feature*>> pieces;  // by id: ordered
  for (const Feature& m : f.memory) {
    auto& [paths, like] = pieces[m.id];
    paths.push_back(shape_path(m.shape, error));
    if (!like) like = &m;
  }
  std::map<std::uint32_t, std::pair<Paths, const Feature*>> now;
  for (const Feature& t : scenario.features) {
    if (t.container || !shape_in_view(t.shape, centres, f.sight)) continue;
    auto& [paths, like] = now[t.id];
    paths.push_back(shape_path(t.shape, error));
    like = &t;
  }
  for (auto& [id, entry] : pieces) {
    auto& [paths, like] = entry;
    // The old pieces outside the view stay, as remembered.
    const Paths kept = run(ClipperLib::ctDifference, run(ClipperLib::ctUnion, paths, {}), view);
    const auto it = now.find(id);
    if (it == now.end()) {
      add_pieces(kept, *like, scenario.world, out);
      continue;
    }
    const Paths seen = run(ClipperLib::ctIntersection, it->second.first, view);
    add_pieces(run(ClipperLib::ctUnion, kept, seen), *it->second.second, scenario.world, out);
    now.erase(it);
  }
  for (const auto& [id, entry] : now) {
    add_pieces(run(ClipperLib::ctIntersection, entry.first, view), *entry.second, scenario.world, out);
  }
  // Memory in the order of ids, then of pieces: independent of edit order.
  std::stable_sort(out.begin(), out.end(), [](const Feature& a, const Feature& b) { return a.id < b.id; });
  return out;
}

bool bridge_in_view(const Bridge& bridge, const std::vector<Vec2>& centres, double sight) {
  for (const Vec2& c : centres) {
    if (distance_sq_to_segment(c, bridge.a, bridge.b) <= sight * sight) return true;
  }
  return false;
}

std::vector<Bridge> observe_bridges(const Scenario& scenario, std::size_t faction) {
  const Faction& f = scenario.factions.at(faction);
  if (!(f.sight > 0)) return f.bridges;
  const std::vector<Vec2> centres = view_centres(scenario, faction);
  std::map<std::uint32_t, Bridge> out;  // by id: the memory's order
  for (const Bridge& m : f.bridges) {
    // A remembered bridge whose place is in view is replaced by what is there, or
    // forgotten when it is gone.
    if (!bridge_in_view(m, centres, f.sight)) out.emplace(m.id, m);
  }
  for (const Bridge& t : scenario.bridges) {
    const bool seen = bridge_in_view(t, centres, f.sight);
    const bool known = out.count(t.id) > 0;
    // In view: as it is. Never remembered: as the map shows it now (the first look).
    if (seen || !known) out.insert_or_assign(t.id, t);
  }
  std::vector<Bridge> list;
  list.reserve(out.size());
  for (auto& [id, b] : out) list.push_back(std::move(b));
  return list;
}

bool observe_all(Scenario& scenario) {
  bool changed = false;
  for (std::size_t i = 0; i < scenario.factions.size(); ++i) {
    if (!(scenario.factions[i].sight > 0)) continue;
    std::vector<Feature> memory = observe(scenario, i);
    std::vector<Bridge> bridges = observe_bridges(scenario, i);
    if (memory == scenario.factions[i].memory && bridges == scenario.factions[i].bridges) continue;
    scenario.factions[i].memory = std::move(memory);
    scenario.factions[i].bridges = std::move(bridges);
    changed = true;
  }
  return changed;
}

Scenario believed_scenario(const Scenario& scenario, std::size_t faction) {
  Scenario out = scenario;
  if (faction < scenario.factions.size() && scenario.factions[faction].sight > 0) {
    // Containers are terrain, known to all (as tiles, roads and bridges are).
    out.features.clear();
    for (const Feature& t : scenario.features) {
      if (t.container) out.features.push_back(t);
    }
    const std::vector<Feature>& memory = scenario.factions[faction].memory;
    out.features.insert(out.features.end(), memory.begin(), memory.end());
    // Bridges as remembered; those it has no memory of, as they are.
    std::map<std::uint32_t, Bridge> bridges;
    for (const Bridge& b : scenario.bridges) bridges.emplace(b.id, b);
    for (const Bridge& b : scenario.factions[faction].bridges) bridges.insert_or_assign(b.id, b);
    out.bridges.clear();
    for (const auto& [id, b] : bridges) out.bridges.push_back(b);
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
