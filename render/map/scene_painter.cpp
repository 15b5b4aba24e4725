// paint_world: the map layers. Rasters become one image each (one pixel per cell, from
// render/map_images); vector data keeps its world geometry so it stays sharp at any zoom.

#include "render/map/scene_painter.hpp"

#include "planner/world/belief.hpp"
#include "render/core/color_ramp.hpp"

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace pathscope::render {
namespace {

constexpr Color kWorldBorder{90, 90, 90, 255};
constexpr Color kUnitOutline{15, 15, 15, 255};
constexpr Color kDefaultFaction{200, 200, 200, 255};

Vec2 shape_center(const pathscope::Shape& shape) {
  switch (shape.kind) {
    case ShapeKind::Rect: return (shape.min + shape.max) * 0.5;
    case ShapeKind::Circle: return shape.center;
    case ShapeKind::Polygon: break;
  }
  if (shape.points.empty()) return {0, 0};
  Vec2 lo = shape.points[0], hi = shape.points[0];
  for (const Vec2& p : shape.points) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  return (lo + hi) * 0.5;
}

// A moving feature's velocity: an arrow from its centre to where it will be in three
// seconds, at least three heads long so that slow ones show too; `head` in metres.
void paint_velocity(const pathscope::Shape& shape, Vec2 velocity, double head, Color color, DrawList& out) {
  const double speed = glm::length(velocity);
  if (!(speed > 0)) return;
  const Vec2 a = shape_center(shape), b = a + velocity * (std::max(3.0, 3 * head / speed));
  const Vec2 dir = velocity / speed, side{-dir.y, dir.x};
  const double h = head;
  out.line(Layer::Features, color, a, b - dir * (h * 0.5), 2);
  const std::vector<Vec2> tip = {b, b - dir * h + side * (h * 0.45), b - dir * h - side * (h * 0.45)};
  out.polygon(Layer::Features, color, tip);
}

void paint_features(const Scenario& s, DrawList& out) {
  const double head = std::max(s.world.width, s.world.height) / 90.0;
  for (const Feature& f : s.features) {
    const Color base = f.terrain < s.terrains.size() ? s.terrains[f.terrain].color : Color{200, 0, 200, 255};
    const Color fill = with_alpha(mix(base, {255, 255, 255, 255}, 0.25), 80);
    const Color line = with_alpha(mix(base, {0, 0, 0, 255}, 0.45), 255);
    const pathscope::Shape& sh = f.shape;
    if (f.container) {
      // A container's terrain lies outside it (the terrain image shows it): its wall only.
      switch (sh.kind) {
        case ShapeKind::Polygon: out.polyline(Layer::Features, line, sh.points, true, 3.0f); break;
        case ShapeKind::Rect: out.rect(Layer::Features, line, sh.min, sh.max, false, 3.0f); break;
        case ShapeKind::Circle: out.circle(Layer::Features, line, sh.center, sh.radius, false, 3.0f); break;
      }
      paint_velocity(sh, f.velocity, head, line, out);
      continue;
    }
    switch (sh.kind) {
      case ShapeKind::Polygon:
        out.polygon(Layer::Features, fill, sh.points);
        out.polyline(Layer::Features, line, sh.points, true, 1.5f);
        break;
      case ShapeKind::Rect:
        out.rect(Layer::Features, fill, sh.min, sh.max, true);
        out.rect(Layer::Features, line, sh.min, sh.max, false, 1.5f);
        break;
      case ShapeKind::Circle:
        out.circle(Layer::Features, fill, sh.center, sh.radius, true);
        out.circle(Layer::Features, line, sh.center, sh.radius, false, 1.5f);
        break;
    }
    paint_velocity(sh, f.velocity, head, line, out);
  }
}

void paint_bridge(const Bridge& b, DrawList& out) {
  if (b.intact) {
    out.line(Layer::Bridges, palette::kBridge, b.a, b.b, 3, b.width);
    return;
  }
  // Destroyed: a thin red dashed centre line, so the gap reads as "no crossing".
  const double len = glm::length(b.b - b.a);
  const int pieces = std::clamp(static_cast<int>(len / std::max(b.width * 0.5, 1e-9)), 3, 63) | 1;
  for (int k = 0; k < pieces; k += 2) {
    const Vec2 p = b.a + (b.b - b.a) * (double(k) / pieces);
    const Vec2 q = b.a + (b.b - b.a) * (double(k + 1) / pieces);
    out.line(Layer::Bridges, palette::kBridgeDestroyed, p, q, 2);
  }
}

void paint_influences(const std::vector<Influence>& zones, Color color, DrawList& out) {
  for (const Influence& z : zones) {
    out.circle(Layer::Influences, with_alpha(color, 40), z.center, z.radius, true);
    out.circle(Layer::Influences, with_alpha(color, 210), z.center, z.radius, false, 2);
  }
}

Color faction_color(const Scenario& s, const std::string& name) {
  for (const Faction& f : s.factions) {
    if (f.name == name) return f.color;
  }
  return kDefaultFaction;
}

// A remembered bridge that is not as the world has it: its deck outlined in the faction's
// colour, filled when the faction believes it intact, crossed out when it believes it
// destroyed.
void paint_remembered_bridge(const Bridge& m, Color c, DrawList& out) {
  const Vec2 d = m.b - m.a;
  const double len = glm::length(d);
  if (!(len > 0)) return;
  const Vec2 n = Vec2{-d.y, d.x} * (0.5 * m.width / len);
  const std::vector<Vec2> deck = {m.a - n, m.b - n, m.b + n, m.a + n};
  if (m.intact) out.polygon(Layer::Knowledge, with_alpha(c, 90), deck);
  out.polyline(Layer::Knowledge, with_alpha(c, 240), deck, true, 2.5f);
  if (!m.intact) {
    out.line(Layer::Knowledge, with_alpha(c, 240), deck[0], deck[2], 2.5f);
    out.line(Layer::Knowledge, with_alpha(c, 240), deck[1], deck[3], 2.5f);
  }
}

// Row runs of the cells (x, y) of a w x h grid for which `pick` holds, each drawn as one
// rectangle of cell size `cs`.
template <typename Pick>
void paint_cell_runs(int w, int h, double cs, Color c, bool filled, Pick pick, DrawList& out) {
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w;) {
      if (!pick(x, y)) {
        ++x;
        continue;
      }
      int end = x;
      while (end < w && pick(end, y)) ++end;
      out.rect(Layer::Knowledge, c, Vec2{x * cs, y * cs}, Vec2{end * cs, (y + 1) * cs}, filled, 1.5f);
      x = end;
    }
  }
}

// Fog of war: per faction with sight, its units' sight circles, the cells they see now
// (line of sight through the world as it is, lightly filled in its colour) and, outlined
// in its colour, the features it remembers (where they differ from the world, the
// difference is what it gets wrong), and the bridges it remembers otherwise than they
// are. For the focus faction (the shown query's, or the first with sight) the tiles it
// has never seen are greyed, and those it remembers otherwise than they are outlined.
void paint_knowledge(const PlanningWorld& world, std::optional<std::size_t> query, DrawList& out) {
  const Scenario& s = world.scenario();
  std::optional<std::size_t> focus;
  if (query && *query < s.queries.size()) {
    if (const auto f = s.find_faction(s.queries[*query].faction); f && s.factions[*f].sight > 0) focus = *f;
  }
  for (std::size_t i = 0; !focus && i < s.factions.size(); ++i) {
    if (s.factions[i].sight > 0) focus = i;
  }
  std::vector<std::uint8_t> blockers;
  for (std::size_t i = 0; i < s.factions.size(); ++i) {
    const Faction& f = s.factions[i];
    if (!(f.sight > 0)) continue;
    const Color c = f.color;
    if (blockers.empty()) blockers = sight_blockers(s, world.raster());
    const FactionView view = faction_view(s, i, blockers);
    if (focus == i && s.tiles) {
      const TileGrid& g = *s.tiles;
      const double cs = s.world.cell_size;
      const auto known = [&](int x, int y) {
        const std::size_t k = std::size_t(y) * std::size_t(g.width) + x;
        return k < f.tiles.size() && f.tiles[k] != Faction::kUnseenTile;
      };
      paint_cell_runs(
          g.width, g.height, cs, Color{60, 60, 60, 120}, true, [&](int x, int y) { return !known(x, y); },
          out);
      paint_cell_runs(
          g.width, g.height, cs, with_alpha(c, 230), false,
          [&](int x, int y) {
            const std::size_t k = std::size_t(y) * std::size_t(g.width) + x;
            return known(x, y) && f.tiles[k] != g.terrain[k];
          },
          out);
    }
    paint_cell_runs(
        view.width, view.height, view.cell_size, with_alpha(c, 34), true,
        [&](int x, int y) { return view.sees(x, y); }, out);
    for (const Vec2& p : view.eyes) out.circle(Layer::Knowledge, with_alpha(c, 150), p, f.sight, false, 1);
    for (const Feature& m : f.memory) {
      const Shape& sh = m.shape;
      switch (sh.kind) {
        case ShapeKind::Polygon:
          out.polygon(Layer::Knowledge, with_alpha(c, 60), sh.points);
          out.polyline(Layer::Knowledge, with_alpha(c, 230), sh.points, true, 2.5f);
          break;
        case ShapeKind::Rect:
          out.rect(Layer::Knowledge, with_alpha(c, 60), sh.min, sh.max, true);
          out.rect(Layer::Knowledge, with_alpha(c, 230), sh.min, sh.max, false, 2.5f);
          break;
        case ShapeKind::Circle:
          out.circle(Layer::Knowledge, with_alpha(c, 60), sh.center, sh.radius, true);
          out.circle(Layer::Knowledge, with_alpha(c, 230), sh.center, sh.radius, false, 2.5f);
          break;
      }
    }
    for (const Bridge& m : f.bridges) {
      const auto it =
          std::find_if(s.bridges.begin(), s.bridges.end(), [&](const Bridge& t) { return t.id == m.id; });
      if (it == s.bridges.end() || !(*it == m)) paint_remembered_bridge(m, c, out);
    }
  }
}

void paint_units(const Scenario& s, DrawList& out) {
  for (const Unit& u : s.units) {
    const double radius = u.movement_class < s.classes.size() ? s.classes[u.movement_class].radius : 0.5;
    out.circle(Layer::Units, faction_color(s, u.faction), u.position, radius, true, 1, 4);
    out.circle(Layer::Units, kUnitOutline, u.position, radius, false, 1, 4);
    // Heading 0 is +x and grows counter-clockwise on screen, i.e. towards -y.
    const Vec2 dir{std::cos(u.heading), -std::sin(u.heading)};
    out.line(Layer::Units, kUnitOutline, u.position, u.position + dir * (radius * 1.8), 2);
  }
}

void paint_markers(const Scenario& s, std::optional<std::size_t> selected, bool labels, DrawList& out) {
  const double r = std::max(s.world.cell_size * 0.6, 1e-6);
  for (std::size_t i = 0; i < s.queries.size(); ++i) {
    if (selected && *selected != i) continue;
    const Query& q = s.queries[i];
    out.circle(Layer::Markers, palette::kStart, q.start, r, true, 1, 7);
    out.circle(Layer::Markers, {255, 255, 255, 255}, q.start, r, false, 2, 7);
    out.circle(Layer::Markers, palette::kGoal, q.goal, r, true, 1, 7);
    out.circle(Layer::Markers, {255, 255, 255, 255}, q.goal, r, false, 2, 7);
    if (labels && !q.name.empty()) out.text(Layer::Labels, palette::kLabel, q.start + Vec2(r, r), q.name);
  }
}

}  // namespace

void paint_world(const PlanningWorld& world, std::size_t movement_class, const LayerSet& layers,
                 DrawList& out, const WorldPaintParams& params) {
  const Scenario& s = world.scenario();
  if (params.images) {
    params.images->paint(world, movement_class, layers, out);
  } else {
    MapImages().paint(world, movement_class, layers, out);
  }
  if (layers.contains(Layer::Tiles)) {
    out.rect(Layer::Tiles, kWorldBorder, {0, 0}, {s.world.width, s.world.height}, false, 1);
  }
  if (layers.contains(Layer::Features)) paint_features(s, out);
  if (layers.contains(Layer::Roads)) {
    for (const Road& road : s.roads)
      out.polyline(Layer::Roads, palette::kRoad, road.points, false, 2, road.width);
  }
  if (layers.contains(Layer::Bridges)) {
    for (const Bridge& b : s.bridges) paint_bridge(b, out);
  }
  if (layers.contains(Layer::Influences)) {
    paint_influences(s.threats, palette::kThreat, out);
    paint_influences(s.allies, palette::kAlly, out);
  }
  if (layers.contains(Layer::Knowledge)) paint_knowledge(world, params.query, out);
  if (layers.contains(Layer::Units)) paint_units(s, out);
  const bool labels = layers.contains(Layer::Labels);
  if (layers.contains(Layer::Markers)) paint_markers(s, params.query, labels, out);
  if (labels) {
    for (const Feature& f : s.features) {
      if (!f.name.empty())
        out.text(Layer::Labels, palette::kLabel, shape_center(f.shape), f.name, TextAlign::Center);
    }
  }
}

}  // namespace pathscope::render
