#pragma once

// Small value types shared by every part of the library: points, world boxes, planner
// parameters, references to scenario items. They depend on nothing else in the project.

#include <algorithm>
#include <cstdint>
#include <string>

#include <glm/vec2.hpp>

namespace pathscope {

/// A point or vector in world units (metres). x grows to the right, y downwards.
using Vec2 = glm::dvec2;

/// An axis-aligned box in world units: [lo, hi]. Empty when lo.x > hi.x or lo.y > hi.y.
struct Box2 {
  Vec2 lo{1, 1};
  Vec2 hi{0, 0};

  /// The box of one point.
  static Box2 of(Vec2 p) { return {p, p}; }
  /// The box spanned by two corners in any order.
  static Box2 spanning(Vec2 a, Vec2 b) {
    return {{std::min(a.x, b.x), std::min(a.y, b.y)}, {std::max(a.x, b.x), std::max(a.y, b.y)}};
  }

  bool empty() const { return lo.x > hi.x || lo.y > hi.y; }
  Vec2 center() const { return (lo + hi) * 0.5; }
  Vec2 size() const { return empty() ? Vec2{0, 0} : hi - lo; }
  /// Closed containment.
  bool contains(Vec2 p) const { return p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y; }
  /// True when the closed boxes share a point.
  bool overlaps(const Box2& o) const {
    return !empty() && !o.empty() && lo.x <= o.hi.x && o.lo.x <= hi.x && lo.y <= o.hi.y && o.lo.y <= hi.y;
  }
  /// The smallest box holding both (an empty one adds nothing).
  Box2 united(const Box2& o) const {
    if (o.empty()) return *this;
    if (empty()) return o;
    return {{std::min(lo.x, o.lo.x), std::min(lo.y, o.lo.y)},
            {std::max(hi.x, o.hi.x), std::max(hi.y, o.hi.y)}};
  }
  /// Grown by `d` metres on every side (empty stays empty).
  Box2 expanded(double d) const { return empty() ? *this : Box2{lo - Vec2{d, d}, hi + Vec2{d, d}}; }

  friend bool operator==(const Box2&, const Box2&) = default;
};

/// A planner parameter override: name and value (booleans are 0/1).
struct PlannerParam {
  std::string name;
  double value = 0;
  friend bool operator==(const PlannerParam&, const PlannerParam&) = default;
};

/// The kinds of scenario items a world change can name.
enum class ItemKind : std::uint8_t { Tiles, Feature, Road, Bridge, Threat, Ally, Unit, Faction };

/// What happened to an item in a change.
enum class ItemChange : std::uint8_t { Added, Removed, Changed };

/// One item of a world change: its kind, its stable id (Tiles: 0) and what happened.
struct ItemRef {
  ItemKind kind = ItemKind::Feature;
  std::uint32_t id = 0;
  ItemChange change = ItemChange::Changed;
  friend bool operator==(const ItemRef&, const ItemRef&) = default;
};

}  // namespace pathscope
