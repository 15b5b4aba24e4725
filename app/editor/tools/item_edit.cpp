#include "app/editor/tools/item_edit.hpp"

#include <glm/common.hpp>

#include <algorithm>
#include <type_traits>

namespace pathscope::app::tools {
namespace {

using Kind = Selection::Kind;

// The vertex list of a polygon feature or a road, or nullptr for other items.
template <typename S>
auto* vertex_list(S& s, const Selection& sel) {
  using Points = std::conditional_t<std::is_const_v<S>, const std::vector<Vec2>, std::vector<Vec2>>;
  Points* none = nullptr;
  if (sel.kind == Kind::Feature) {
    auto* f = find_by_id(s.features, sel.id);
    return f && f->shape.kind == ShapeKind::Polygon ? &f->shape.points : none;
  }
  if (sel.kind == Kind::Road) {
    auto* r = find_by_id(s.roads, sel.id);
    return r ? &r->points : none;
  }
  return none;
}

template <typename S>
auto* influence(S& s, const Selection& sel) {
  return sel.kind == Kind::Threat ? find_by_id(s.threats, sel.id)
         : sel.kind == Kind::Ally ? find_by_id(s.allies, sel.id)
                                  : nullptr;
}

template <typename T>
bool erase_id(std::vector<T>& items, std::uint32_t id) {
  return std::erase_if(items, [id](const T& item) { return item.id == id; }) > 0;
}

}  // namespace

bool selection_exists(const Scenario& s, const Selection& sel) {
  if (sel.kind == Kind::None) return false;
  const std::vector<Vec2> points = item_points(s, sel);
  if (points.empty()) return false;
  if (sel.vertex < 0) return true;
  const std::vector<Vec2>* list = vertex_list(s, sel);
  return list && std::size_t(sel.vertex) < list->size();
}

std::string query_label(const Scenario& s, std::size_t index) {
  const std::string number = "query " + std::to_string(query_number(index));
  const std::string& name = s.queries[index].name;
  return name.empty() || name == number ? number : number + ": " + name;
}

std::string describe(const Selection& sel) {
  const std::string id = std::to_string(sel.id);
  std::string text;
  switch (sel.kind) {
    case Kind::None: return "nothing";
    case Kind::Feature: text = "feature " + id; break;
    case Kind::Threat: text = "threat " + id; break;
    case Kind::Ally: text = "ally " + id; break;
    case Kind::Road: text = "road " + id; break;
    case Kind::Bridge: text = "bridge " + id; break;
    case Kind::Unit: text = "unit " + id; break;
    case Kind::QueryStart: return "query " + std::to_string(query_number(sel.id)) + " start";
    case Kind::QueryGoal: return "query " + std::to_string(query_number(sel.id)) + " goal";
  }
  if (sel.vertex >= 0) text += " vertex " + std::to_string(sel.vertex);
  return text;
}

std::vector<Vec2> item_points(const Scenario& s, const Selection& sel) {
  switch (sel.kind) {
    case Kind::None: return {};
    case Kind::Feature: {
      const Feature* f = find_by_id(s.features, sel.id);
      if (!f) return {};
      switch (f->shape.kind) {
        case ShapeKind::Polygon: return f->shape.points;
        case ShapeKind::Rect: return {f->shape.min, f->shape.max};
        case ShapeKind::Circle: return {f->shape.center};
      }
      return {};
    }
    case Kind::Threat:
    case Kind::Ally: {
      const Influence* z = influence(s, sel);
      return z ? std::vector<Vec2>{z->center} : std::vector<Vec2>{};
    }
    case Kind::Road: {
      const Road* r = find_by_id(s.roads, sel.id);
      return r ? r->points : std::vector<Vec2>{};
    }
    case Kind::Bridge: {
      const Bridge* b = find_by_id(s.bridges, sel.id);
      return b ? std::vector<Vec2>{b->a, b->b} : std::vector<Vec2>{};
    }
    case Kind::Unit: {
      const Unit* u = find_by_id(s.units, sel.id);
      return u ? std::vector<Vec2>{u->position} : std::vector<Vec2>{};
    }
    case Kind::QueryStart:
    case Kind::QueryGoal:
      if (sel.id >= s.queries.size()) return {};
      return {sel.kind == Kind::QueryStart ? s.queries[sel.id].start : s.queries[sel.id].goal};
  }
  return {};
}

void set_item_points(Scenario& s, const Selection& sel, const std::vector<Vec2>& points) {
  if (points.size() != item_points(s, sel).size() || points.empty()) return;
  if (std::vector<Vec2>* list = vertex_list(s, sel)) {
    *list = points;
    return;
  }
  switch (sel.kind) {
    case Kind::Feature: {
      Shape& shape = find_by_id(s.features, sel.id)->shape;
      if (shape.kind == ShapeKind::Rect) {
        shape.min = glm::min(points[0], points[1]);
        shape.max = glm::max(points[0], points[1]);
      } else {
        shape.center = points[0];
      }
      break;
    }
    case Kind::Threat:
    case Kind::Ally: influence(s, sel)->center = points[0]; break;
    case Kind::Bridge: {
      Bridge* b = find_by_id(s.bridges, sel.id);
      b->a = points[0];
      b->b = points[1];
      break;
    }
    case Kind::Unit: find_by_id(s.units, sel.id)->position = points[0]; break;
    case Kind::QueryStart: s.queries[sel.id].start = points[0]; break;
    case Kind::QueryGoal: s.queries[sel.id].goal = points[0]; break;
    default: break;
  }
}

std::optional<double> item_radius(const Scenario& s, const Selection& sel) {
  if (sel.kind == Kind::Feature) {
    const Feature* f = find_by_id(s.features, sel.id);
    if (f && f->shape.kind == ShapeKind::Circle) return f->shape.radius;
    return std::nullopt;
  }
  if (const Influence* z = influence(s, sel)) return z->radius;
  return std::nullopt;
}

void set_item_radius(Scenario& s, const Selection& sel, double radius) {
  if (sel.kind == Kind::Feature) {
    Feature* f = find_by_id(s.features, sel.id);
    if (f && f->shape.kind == ShapeKind::Circle) f->shape.radius = radius;
  } else if (Influence* z = influence(s, sel)) {
    z->radius = radius;
  }
}

Vec2 clamp_move(const std::vector<Vec2>& points, Vec2 delta, const WorldInfo& world) {
  if (points.empty()) return delta;
  Vec2 lo = points.front(), hi = points.front();
  for (Vec2 p : points) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  // If an item already sticks out (a loaded file may be at the limit), do not push it further.
  delta.x = std::clamp(delta.x, std::min(-lo.x, 0.0), std::max(world.width - hi.x, 0.0));
  delta.y = std::clamp(delta.y, std::min(-lo.y, 0.0), std::max(world.height - hi.y, 0.0));
  return delta;
}

void set_order_kind(Order& order, OrderKind kind, Vec2 here) {
  order.kind = kind;
  std::vector<Vec2>& points = order.points;
  switch (kind) {
    case OrderKind::None:
    case OrderKind::Stop: points.clear(); break;
    case OrderKind::Move:
      if (points.empty()) points.push_back(here);
      points.resize(1);
      break;
    case OrderKind::Waypoints:
      if (points.empty()) points.push_back(here);
      break;
    case OrderKind::Patrol:
      while (points.size() < 2) points.push_back(here);
      break;
  }
}

Status delete_selection(Document& doc, const Selection& sel) {
  const Scenario& s = doc.scenario();
  if (!selection_exists(s, sel)) return make_error(ErrorCode::Value, describe(sel), "nothing to delete");
  if (sel.vertex >= 0) {
    const std::size_t min_count = sel.kind == Kind::Road ? 2 : 3;
    if (vertex_list(s, sel)->size() <= min_count) {
      return make_error(ErrorCode::Value, describe(sel),
                        std::string(sel.kind == Kind::Road ? "a road" : "a polygon") + " keeps at least " +
                            std::to_string(min_count) + " vertices (delete the whole item instead)");
    }
    return doc.apply("Delete " + describe(sel), [&sel](Scenario& e) {
      std::vector<Vec2>& points = *vertex_list(e, sel);
      points.erase(points.begin() + sel.vertex);
    });
  }
  return doc.apply("Delete " + describe(sel), [&sel](Scenario& e) {
    switch (sel.kind) {
      case Kind::Feature: erase_id(e.features, sel.id); break;
      case Kind::Threat: erase_id(e.threats, sel.id); break;
      case Kind::Ally: erase_id(e.allies, sel.id); break;
      case Kind::Road: erase_id(e.roads, sel.id); break;
      case Kind::Bridge: erase_id(e.bridges, sel.id); break;
      case Kind::Unit:
        erase_id(e.units, sel.id);
        for (UnitGroup& g : e.groups) std::erase(g.units, sel.id);
        break;
      case Kind::QueryStart:
      case Kind::QueryGoal: e.queries.erase(e.queries.begin() + std::ptrdiff_t(sel.id)); break;
      case Kind::None: break;
    }
  });
}

Status insert_vertex(Document& doc, const Selection& sel, int after, Vec2 p, std::uint64_t merge_key) {
  const std::vector<Vec2>* list = vertex_list(doc.scenario(), sel);
  if (!list || after < 0 || std::size_t(after) >= list->size()) {
    return make_error(ErrorCode::Value, describe(sel), "no such edge to insert a vertex into");
  }
  return doc.apply(
      "Insert vertex into " + describe(sel),
      [&](Scenario& e) {
        std::vector<Vec2>& points = *vertex_list(e, sel);
        points.insert(points.begin() + after + 1, p);
      },
      merge_key);
}

}  // namespace pathscope::app::tools
