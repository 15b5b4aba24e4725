#include "app/editor/tools/picking.hpp"

// Picking walks the items in reverse drawing order (scene_painter draws features, then
// roads, bridges, influences, units and markers last), so what is on top wins. Within a
// list, later entries are drawn on top and are tested first.

#include "app/editor/tools/item_edit.hpp"
#include "planner/core/geometry.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <array>
#include <cmath>

namespace pathscope::app::tools {
namespace {

using Kind = Selection::Kind;

Pick make_pick(Kind kind, std::uint32_t id, Handle handle = Handle::Body, int index = -1, Vec2 at = {0, 0}) {
  Pick pick;
  pick.target.kind = kind;
  pick.target.id = id;
  pick.handle = handle;
  pick.index = index;
  pick.at = at;
  return pick;
}

Vec2 nearest_on_segment(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 d = b - a;
  const double len_sq = glm::dot(d, d);
  if (!(len_sq > 0)) return a;
  return a + d * std::clamp(glm::dot(p - a, d) / len_sq, 0.0, 1.0);
}

double distance(Vec2 a, Vec2 b) { return glm::length(a - b); }

// Index of the vertex of `points` nearest to p within `radius`, or -1.
int nearest_vertex(const std::vector<Vec2>& points, Vec2 p, double radius) {
  int best = -1;
  double best_d = radius;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double d = distance(points[i], p);
    if (d <= best_d) {
      best = int(i);
      best_d = d;
    }
  }
  return best;
}

// Index of the edge of the polyline (closed: also last to first) nearest to p within
// `radius`, or -1.
int nearest_edge(const std::vector<Vec2>& points, bool closed, Vec2 p, double radius) {
  int best = -1;
  double best_sq = radius * radius;
  const std::size_t n = points.size();
  const std::size_t edges = closed ? n : (n > 0 ? n - 1 : 0);
  for (std::size_t i = 0; i < edges; ++i) {
    const double d_sq = distance_sq_to_segment(p, points[i], points[(i + 1) % n]);
    if (d_sq <= best_sq) {
      best = int(i);
      best_sq = d_sq;
    }
  }
  return best;
}

std::array<Vec2, 4> rect_corners(const Shape& shape) {
  return {shape.min, Vec2{shape.max.x, shape.min.y}, shape.max, Vec2{shape.min.x, shape.max.y}};
}

bool feature_hit(const Shape& shape, Vec2 p, double radius) {
  switch (shape.kind) {
    case ShapeKind::Polygon:
      return point_in_polygon(p, shape.points) || nearest_edge(shape.points, true, p, radius) >= 0;
    case ShapeKind::Rect:
      return p.x >= shape.min.x - radius && p.x <= shape.max.x + radius && p.y >= shape.min.y - radius &&
             p.y <= shape.max.y + radius;
    case ShapeKind::Circle: return distance(p, shape.center) <= shape.radius + radius;
  }
  return false;
}

std::optional<Pick> pick_influences(const std::vector<Influence>& zones, Kind kind, Vec2 p, double radius) {
  for (auto it = zones.rbegin(); it != zones.rend(); ++it) {
    const double d = distance(p, it->center);
    if (d <= radius * 1.5) return make_pick(kind, it->id, Handle::Body, -1, it->center);
    if (std::abs(d - it->radius) <= radius) return make_pick(kind, it->id, Handle::Rim, -1, p);
  }
  return std::nullopt;
}

}  // namespace

double marker_radius(const Scenario& s, double radius) {
  // scene_painter draws markers 0.6 cells wide, at least 7 px: the pick radius is 6 px.
  return std::max(s.world.cell_size * 0.6, radius * 7.0 / 6.0);
}

std::optional<Pick> pick_handle(const Scenario& s, const Selection& selected, Vec2 p, double radius) {
  if (!selection_exists(s, Selection{selected.kind, selected.id, -1})) return std::nullopt;
  const Kind kind = selected.kind;
  const std::uint32_t id = selected.id;
  if (kind == Kind::Feature) {
    const Shape& shape = find_by_id(s.features, id)->shape;
    if (shape.kind == ShapeKind::Polygon) {
      if (int v = nearest_vertex(shape.points, p, radius); v >= 0) {
        return make_pick(kind, id, Handle::Vertex, v, shape.points[std::size_t(v)]);
      }
      if (int e = nearest_edge(shape.points, true, p, radius); e >= 0) {
        const Vec2 a = shape.points[std::size_t(e)],
                   b = shape.points[(std::size_t(e) + 1) % shape.points.size()];
        return make_pick(kind, id, Handle::Edge, e, nearest_on_segment(p, a, b));
      }
    } else if (shape.kind == ShapeKind::Rect) {
      const auto corners = rect_corners(shape);
      const std::vector<Vec2> list(corners.begin(), corners.end());
      if (int c = nearest_vertex(list, p, radius); c >= 0) {
        return make_pick(kind, id, Handle::Corner, c, list[std::size_t(c)]);
      }
    } else if (std::abs(distance(p, shape.center) - shape.radius) <= radius &&
               distance(p, shape.center) > radius * 1.5) {
      return make_pick(kind, id, Handle::Rim, -1, p);
    }
    return std::nullopt;
  }
  if (kind == Kind::Road) {
    const Road& road = *find_by_id(s.roads, id);
    if (int v = nearest_vertex(road.points, p, radius); v >= 0) {
      return make_pick(kind, id, Handle::Vertex, v, road.points[std::size_t(v)]);
    }
    const double reach = std::max(radius, road.width * 0.5);
    if (int e = nearest_edge(road.points, false, p, reach); e >= 0) {
      return make_pick(kind, id, Handle::Edge, e,
                       nearest_on_segment(p, road.points[std::size_t(e)], road.points[std::size_t(e) + 1]));
    }
    return std::nullopt;
  }
  if (kind == Kind::Bridge) {
    const Bridge& b = *find_by_id(s.bridges, id);
    if (int v = nearest_vertex({b.a, b.b}, p, radius); v >= 0) {
      return make_pick(kind, id, Handle::Vertex, v, v == 0 ? b.a : b.b);
    }
    return std::nullopt;
  }
  if (kind == Kind::Threat || kind == Kind::Ally) {
    const auto& zones = kind == Kind::Threat ? s.threats : s.allies;
    const Influence& z = *find_by_id(zones, id);
    const double d = distance(p, z.center);
    if (std::abs(d - z.radius) <= radius && d > radius * 1.5) return make_pick(kind, id, Handle::Rim, -1, p);
  }
  return std::nullopt;
}

std::optional<Pick> pick_item(const Scenario& s, Vec2 p, double radius) {
  const double marker = marker_radius(s, radius);
  for (std::size_t i = s.queries.size(); i-- > 0;) {
    const Query& q = s.queries[i];
    if (distance(p, q.goal) <= marker)
      return make_pick(Kind::QueryGoal, std::uint32_t(i), Handle::Body, -1, q.goal);
    if (distance(p, q.start) <= marker) {
      return make_pick(Kind::QueryStart, std::uint32_t(i), Handle::Body, -1, q.start);
    }
  }
  for (auto it = s.units.rbegin(); it != s.units.rend(); ++it) {
    const double body = it->movement_class < s.classes.size() ? s.classes[it->movement_class].radius : 0.5;
    if (distance(p, it->position) <= std::max(body, radius)) {
      return make_pick(Kind::Unit, it->id, Handle::Body, -1, it->position);
    }
  }
  if (auto hit = pick_influences(s.allies, Kind::Ally, p, radius)) return hit;
  if (auto hit = pick_influences(s.threats, Kind::Threat, p, radius)) return hit;
  for (auto it = s.bridges.rbegin(); it != s.bridges.rend(); ++it) {
    const double reach = std::max(radius, it->width * 0.5);
    if (distance_sq_to_segment(p, it->a, it->b) <= reach * reach) {
      return make_pick(Kind::Bridge, it->id, Handle::Body, -1, p);
    }
  }
  for (auto it = s.roads.rbegin(); it != s.roads.rend(); ++it) {
    if (nearest_edge(it->points, false, p, std::max(radius, it->width * 0.5)) >= 0) {
      return make_pick(Kind::Road, it->id, Handle::Body, -1, p);
    }
  }
  for (auto it = s.features.rbegin(); it != s.features.rend(); ++it) {
    if (feature_hit(it->shape, p, radius)) return make_pick(Kind::Feature, it->id, Handle::Body, -1, p);
  }
  return std::nullopt;
}

std::optional<Pick> pick(const Scenario& s, const Selection& selected, Vec2 p, double radius) {
  if (auto handle = pick_handle(s, selected, p, radius)) return handle;
  return pick_item(s, p, radius);
}

}  // namespace pathscope::app::tools
