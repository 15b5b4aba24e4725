// World changes for any structure: the item ids and world box an update reports, and
// the derived structures a world caches per family and movement class, updated with
// every change and dropped when the world is rebuilt.

#include <doctest/doctest.h>

#include <random>

#include "planner/world/planning_world.hpp"
#include "planner/world/world_diff.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;

namespace {

Scenario open_field() {
  Scenario s = test::ascii_scenario(std::vector<std::string>(20, std::string(30, '.')));
  s.terrains.push_back(TerrainType{"nebula", 'n', Color{}, {2.0}, ""});
  return s;
}

Feature wall(std::uint32_t id, Vec2 lo, Vec2 hi) {
  Feature f;
  f.id = id;
  f.terrain = 1;  // "wall" in the ASCII terrains
  f.shape.kind = ShapeKind::Rect;
  f.shape.min = lo;
  f.shape.max = hi;
  return f;
}

// A derived structure that counts what it was handed; it asks to be rebuilt after a
// change touching a feature when `drop_on_feature` is set.
struct Counter final : DerivedStructure {
  int* made = nullptr;
  std::vector<WorldChange>* seen = nullptr;
  bool drop_on_feature = false;
  bool update(const PlanningWorld&, const WorldChange& change) override {
    seen->push_back(change);
    return !(drop_on_feature && change.touches(ItemKind::Feature));
  }
  std::size_t memory_bytes() const override { return sizeof(*this); }
};

}  // namespace

TEST_SUITE("world change") {
  TEST_CASE("an update names the items it added, removed and changed, with their world box") {
    Scenario s = open_field();
    s.features = {wall(1, {2, 2}, {4, 4}), wall(2, {10, 10}, {12, 12})};
    s.threats = {Influence{5, {20, 5}, 3, 1, ""}};
    PlanningWorld world(s);

    Scenario next = s;
    next.features[1].shape.min = {11, 10};                 // feature 2 changed
    next.features.push_back(wall(3, {25, 15}, {27, 17}));  // feature 3 added
    next.threats.clear();                                  // threat 5 removed
    const WorldChange change = world.update(next).value();
    REQUIRE_FALSE(change.rebuilt);
    const std::vector<ItemRef> expected = {
        {ItemKind::Feature, 2, ItemChange::Changed},
        {ItemKind::Feature, 3, ItemChange::Added},
        {ItemKind::Threat, 5, ItemChange::Removed},
    };
    CHECK(change.items == expected);
    CHECK(change.touches(ItemKind::Threat));
    CHECK_FALSE(change.touches(ItemKind::Road));
    // The box holds the old and new extents of every changed item and the changed cells.
    CHECK(change.area.contains({10, 10}));
    CHECK(change.area.contains({27, 17}));
    CHECK(change.area.contains({17, 2}));  // the removed threat's circle
    CHECK(change.area.contains({23, 8}));
    CHECK_FALSE(change.area.contains({1, 19}));
    CHECK_FALSE(change.cells.empty());
  }

  TEST_CASE("a threat moved changes no cell but is a change") {
    Scenario s = open_field();
    s.threats = {Influence{1, {10, 10}, 2, 1, ""}};
    PlanningWorld world(s);
    const std::uint64_t revision = world.revision();
    s.threats[0].center = {12, 10};
    const WorldChange change = world.update(s).value();
    CHECK(change.cells.empty());
    CHECK_FALSE(change.none());
    CHECK(change.items == std::vector<ItemRef>{{ItemKind::Threat, 1, ItemChange::Changed}});
    CHECK(change.area == Box2{{8, 8}, {14, 12}});
    CHECK(world.revision() == revision + 1);
  }

  TEST_CASE("item diffs agree with a brute-force comparison on random edits") {
    std::mt19937_64 rng(77);
    Scenario before = open_field();
    for (std::uint32_t id = 1; id <= 12; ++id) {
      const double x = double(rng() % 25), y = double(rng() % 15);
      before.features.push_back(wall(id, {x, y}, {x + 2, y + 2}));
    }
    for (int round = 0; round < 50; ++round) {
      Scenario after = before;
      std::uniform_int_distribution<int> pick(0, int(after.features.size()) - 1);
      switch (rng() % 3) {
        case 0: after.features.erase(after.features.begin() + pick(rng)); break;
        case 1: after.features[std::size_t(pick(rng))].shape.max.x += 1; break;
        default: after.features.push_back(wall(100 + std::uint32_t(round), {1, 1}, {3, 3})); break;
      }
      Box2 area;
      const std::vector<ItemRef> diff = diff_items(before, after, area);
      // Brute force: every id of either side, compared by content.
      std::vector<ItemRef> expected;
      std::vector<std::uint32_t> ids;
      for (const Feature& f : before.features) ids.push_back(f.id);
      for (const Feature& f : after.features) ids.push_back(f.id);
      std::sort(ids.begin(), ids.end());
      ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
      for (const std::uint32_t id : ids) {
        const auto find = [id](const Scenario& s) -> const Feature* {
          for (const Feature& f : s.features) {
            if (f.id == id) return &f;
          }
          return nullptr;
        };
        const Feature* a = find(before);
        const Feature* b = find(after);
        if (a && !b) expected.push_back({ItemKind::Feature, id, ItemChange::Removed});
        if (!a && b) expected.push_back({ItemKind::Feature, id, ItemChange::Added});
        if (a && b && !(*a == *b)) expected.push_back({ItemKind::Feature, id, ItemChange::Changed});
      }
      CHECK(diff == expected);
      for (const ItemRef& r : diff) {
        for (const Scenario* s : {&before, &after}) {
          for (const Feature& f : s->features) {
            if (f.id == r.id) CHECK(area.united(feature_box(f)) == area);  // inside the area
          }
        }
      }
      before = after;
    }
  }

  TEST_CASE("derived structures are made once, handed every change, and dropped when asked or rebuilt") {
    Scenario s = open_field();
    s.features = {wall(1, {2, 2}, {4, 4})};
    PlanningWorld world(s);
    int made = 0;
    std::vector<WorldChange> seen;
    const auto make = [&](bool drop) {
      return [&made, &seen, drop](const PlanningWorld&, std::size_t) {
        ++made;
        auto c = std::make_unique<Counter>();
        c->made = &made;
        c->seen = &seen;
        c->drop_on_feature = drop;
        return c;
      };
    };
    const Counter& a = world.derived<Counter>("counter", 0, make(false));
    const Counter& again = world.derived<Counter>("counter", 0, make(false));
    CHECK(&a == &again);
    CHECK(made == 1);
    world.derived<Counter>("dropper", 0, make(true));
    CHECK(made == 2);
    CHECK(world.derived_count() == 2);

    // A threat edit: both are handed the change and both keep themselves.
    s.threats = {Influence{9, {5, 5}, 1, 1, ""}};
    world.update(s).value();
    CHECK(seen.size() == 2);
    CHECK(world.derived_count() == 2);

    // A feature edit: the dropper asks to be made again.
    s.features[0].shape.max = {5, 5};
    world.update(s).value();
    CHECK(seen.size() == 4);
    CHECK(world.derived_count() == 1);
    world.derived<Counter>("dropper", 0, make(true));
    CHECK(made == 3);

    // Nothing planners read: nobody is asked.
    s.queries.push_back(Query{"q", {1, 1}, {9, 9}, 0, "astar", {}, std::nullopt, {}});
    world.update(s).value();
    CHECK(seen.size() == 4);

    // A new terrain table rebuilds the world: every structure goes.
    s.terrains.push_back(TerrainType{"mud", 'm', Color{}, {3.0}, ""});
    CHECK(world.update(s).value().rebuilt);
    CHECK(world.derived_count() == 0);
  }

}  // TEST_SUITE
