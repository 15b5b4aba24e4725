// Item diff by id: two sorted id lists per kind, merged. Items keep their ids across
// edits (scenario.hpp), so a moved obstacle is one Changed item, not a removal and an
// addition; an item whose id is reused for different content is Changed as well.

#include "planner/world/world_diff.hpp"

#include <algorithm>
#include <map>

namespace pathscope {
namespace {

Box2 points_box(const std::vector<Vec2>& points, double pad) {
  Box2 box;
  for (const Vec2& p : points) box = box.united(Box2::of(p));
  return box.expanded(pad);
}

template <class Item, class BoxOf>
void diff_kind(ItemKind kind, const std::vector<Item>& before, const std::vector<Item>& after, BoxOf box_of,
               std::vector<ItemRef>& out, Box2& area) {
  // Ordered maps: iteration order (by id) is part of the result.
  std::map<std::uint32_t, const Item*> old_items, new_items;
  for (const Item& i : before) old_items.emplace(i.id, &i);
  for (const Item& i : after) new_items.emplace(i.id, &i);
  auto a = old_items.begin();
  auto b = new_items.begin();
  while (a != old_items.end() || b != new_items.end()) {
    if (b == new_items.end() || (a != old_items.end() && a->first < b->first)) {
      out.push_back(ItemRef{kind, a->first, ItemChange::Removed});
      area = area.united(box_of(*a->second));
      ++a;
    } else if (a == old_items.end() || b->first < a->first) {
      out.push_back(ItemRef{kind, b->first, ItemChange::Added});
      area = area.united(box_of(*b->second));
      ++b;
    } else {
      if (!(*a->second == *b->second)) {
        out.push_back(ItemRef{kind, a->first, ItemChange::Changed});
        area = area.united(box_of(*a->second)).united(box_of(*b->second));
      }
      ++a;
      ++b;
    }
  }
}

}  // namespace

Box2 feature_box(const Feature& feature) {
  const Shape& s = feature.shape;
  switch (s.kind) {
    case ShapeKind::Polygon: return points_box(s.points, 0);
    case ShapeKind::Rect: return Box2::spanning(s.min, s.max);
    case ShapeKind::Circle: return Box2::of(s.center).expanded(s.radius);
  }
  return {};
}

std::vector<ItemRef> diff_items(const Scenario& before, const Scenario& after, Box2& area) {
  std::vector<ItemRef> out;
  area = Box2{};
  // Where the tiles changed is in the WorldChange's cells, which the world adds to the area.
  if (before.tiles != after.tiles) out.push_back(ItemRef{ItemKind::Tiles, 0, ItemChange::Changed});
  // A container bounds everything outside it (seed 004): a change to one reaches the whole world.
  const Box2 everything = Box2{Vec2{0, 0}, Vec2{before.world.width, before.world.height}}.united(
      Box2{Vec2{0, 0}, Vec2{after.world.width, after.world.height}});
  diff_kind(
      ItemKind::Feature, before.features, after.features,
      [&](const Feature& f) { return f.container ? everything : feature_box(f); }, out, area);
  diff_kind(
      ItemKind::Road, before.roads, after.roads,
      [](const Road& r) { return points_box(r.points, r.width * 0.5); }, out, area);
  diff_kind(
      ItemKind::Bridge, before.bridges, after.bridges,
      [](const Bridge& b) { return Box2::spanning(b.a, b.b).expanded(b.width * 0.5); }, out, area);
  const auto influence_box = [](const Influence& i) { return Box2::of(i.center).expanded(i.radius); };
  diff_kind(ItemKind::Threat, before.threats, after.threats, influence_box, out, area);
  diff_kind(ItemKind::Ally, before.allies, after.allies, influence_box, out, area);
  diff_kind(
      ItemKind::Unit, before.units, after.units, [](const Unit& u) { return Box2::of(u.position); }, out,
      area);
  // Factions by index (id = index): their sight and memory decide what they plan with.
  const std::size_t factions = std::max(before.factions.size(), after.factions.size());
  for (std::size_t i = 0; i < factions; ++i) {
    const Faction* a = i < before.factions.size() ? &before.factions[i] : nullptr;
    const Faction* b = i < after.factions.size() ? &after.factions[i] : nullptr;
    if (a && b && *a == *b) continue;
    out.push_back(ItemRef{ItemKind::Faction, std::uint32_t(i),
                          !a   ? ItemChange::Added
                          : !b ? ItemChange::Removed
                               : ItemChange::Changed});
    for (const Faction* f : {a, b}) {
      if (!f) continue;
      for (const Feature& m : f->memory) area = area.united(feature_box(m));
    }
  }
  return out;
}

}  // namespace pathscope
