#include "app/editor/document.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

using namespace pathscope;
using namespace pathscope::app;

namespace {

// A 16 x 12 m world of 1 m cells with a ground tile grid.
Scenario small_scenario() {
  Scenario s = make_empty_scenario(16, 12, 1);
  s.tiles = TileGrid{16, 12, std::vector<std::uint8_t>(16 * 12, 0)};
  return s;
}

Feature rect_feature(std::uint32_t id, Vec2 min, Vec2 max, std::size_t terrain = 7) {
  Feature f;
  f.id = id;
  f.terrain = terrain;
  f.shape.kind = ShapeKind::Rect;
  f.shape.min = min;
  f.shape.max = max;
  return f;
}

std::function<void(Scenario&)> add_feature(Feature f) {
  return [f](Scenario& s) { s.features.push_back(f); };
}

std::function<void(Scenario&)> move_feature_to(double x) {
  return [x](Scenario& s) {
    s.features[0].shape.min.x = x;
    s.features[0].shape.max.x = x + 2;
  };
}

std::uint32_t cell(int x, int y) { return std::uint32_t(y * 16 + x); }

}  // namespace

TEST_SUITE("document") {
  TEST_CASE("apply, undo and redo restore the scenario exactly") {
    Document doc(small_scenario());
    const Scenario original = doc.scenario();
    CHECK_FALSE(doc.can_undo());
    CHECK_FALSE(doc.can_redo());

    REQUIRE(doc.apply("Add wall", add_feature(rect_feature(1, {2, 2}, {4, 4}))));
    REQUIRE(doc.scenario().features.size() == 1);
    const Scenario edited = doc.scenario();
    CHECK(doc.can_undo());
    CHECK(doc.undo_label() == "Add wall");

    doc.undo();
    CHECK(doc.scenario() == original);
    CHECK(doc.can_redo());
    CHECK(doc.redo_label() == "Add wall");
    CHECK(doc.undo_label().empty());

    doc.redo();
    CHECK(doc.scenario() == edited);
    CHECK_FALSE(doc.can_redo());
    CHECK(doc.history_size() == 1);
  }

  TEST_CASE("edits with the same non-zero merge key form one undo step") {
    Document doc(small_scenario());
    REQUIRE(doc.apply("Add wall", add_feature(rect_feature(1, {2, 2}, {4, 4}))));
    for (double x = 3; x <= 8; x += 1) REQUIRE(doc.apply("Move wall", move_feature_to(x), 42));
    CHECK(doc.history_size() == 2);
    CHECK(doc.scenario().features[0].shape.min.x == 8);
    doc.undo();
    CHECK(doc.scenario().features[0].shape.min.x == 2);  // the whole drag at once

    SUBCASE("end_merge starts a new step even with the same key") {
      doc.redo();
      doc.end_merge();
      REQUIRE(doc.apply("Move wall", move_feature_to(10), 42));
      CHECK(doc.history_size() == 3);
      doc.undo();
      CHECK(doc.scenario().features[0].shape.min.x == 8);
    }
    SUBCASE("a different key or key 0 never merges") {
      doc.redo();
      REQUIRE(doc.apply("Move wall", move_feature_to(9), 43));
      REQUIRE(doc.apply("Move wall", move_feature_to(10)));
      REQUIRE(doc.apply("Move wall", move_feature_to(11)));
      CHECK(doc.history_size() == 5);
    }
    SUBCASE("undo closes the merge") {
      doc.redo();
      doc.undo();
      REQUIRE(doc.apply("Move wall", move_feature_to(5), 42));
      CHECK(doc.history_size() == 2);  // the old drag step was replaced, not extended
      doc.undo();
      CHECK(doc.scenario().features[0].shape.min.x == 2);
    }
  }

  TEST_CASE("an invalid edit is refused and changes nothing") {
    Document doc(small_scenario());
    REQUIRE(doc.apply("Add wall", add_feature(rect_feature(1, {2, 2}, {4, 4}))));
    const Scenario before = doc.scenario();
    const std::uint64_t revision = doc.revision();

    const Status outside = doc.apply("Move wall", move_feature_to(15), 7);  // max.x = 17 > 16
    REQUIRE_FALSE(outside);
    CHECK(outside.error().where == "features[0].max");
    const Status duplicate = doc.apply("Add", add_feature(rect_feature(1, {5, 5}, {6, 6})));
    REQUIRE_FALSE(duplicate);
    CHECK(duplicate.error().message.find("duplicate id") != std::string::npos);

    CHECK(doc.scenario() == before);
    CHECK(doc.revision() == revision);
    CHECK(doc.history_size() == 1);
    CHECK_FALSE(doc.can_redo());
  }

  TEST_CASE(
      "toggling a feature's container flag (the inspector's box) is one step, a second container of another "
      "terrain is refused") {
    Document doc(small_scenario());
    REQUIRE(doc.apply("Add", add_feature(rect_feature(1, {2, 2}, {12, 10}))));
    REQUIRE(doc.apply("Add", add_feature(rect_feature(2, {4, 4}, {5, 5}, 4))));  // nebula
    const Scenario before = doc.scenario();
    REQUIRE(doc.apply("Edit feature 1 container", [](Scenario& s) { s.features[0].container = true; }));
    CHECK(doc.scenario().features[0].container);
    CHECK(doc.history_size() == 3);
    const Status refused =
        doc.apply("Edit feature 2 container", [](Scenario& s) { s.features[1].container = true; });
    REQUIRE_FALSE(refused);
    CHECK(refused.error().where == "features[1].terrain");
    CHECK_FALSE(doc.scenario().features[1].container);
    doc.undo();
    CHECK(doc.scenario() == before);
  }

  TEST_CASE("a no-op edit adds no step, and apply cannot touch the tile grid") {
    Document doc(small_scenario());
    REQUIRE(doc.apply("Nothing", [](Scenario&) {}));
    CHECK(doc.history_size() == 0);
    CHECK(doc.revision() == 0);
    REQUIRE(doc.apply("Sneaky", [](Scenario& s) {
      if (s.tiles) s.tiles->terrain[0] = 7;
    }));
    CHECK(doc.scenario().tiles->terrain[0] == 0);
    CHECK(doc.history_size() == 0);
  }

  TEST_CASE("tile strokes merge into one step and undo restores every cell") {
    Scenario s = small_scenario();
    s.tiles->terrain[cell(3, 3)] = 2;  // forest under the stroke: undo must bring it back
    Document doc(s);
    const std::vector<std::uint8_t> original = doc.scenario().tiles->terrain;

    REQUIRE(doc.apply_tiles("Paint", {{cell(2, 3), 0, 7}, {cell(3, 3), 2, 7}}, 5));
    REQUIRE(doc.apply_tiles("Paint", {{cell(3, 3), 7, 4}, {cell(4, 3), 0, 4}}, 5));  // cell (3,3) twice
    REQUIRE(doc.apply_tiles("Paint", {{cell(4, 3), 4, 4}}, 5));                      // no-op: dropped
    CHECK(doc.history_size() == 1);
    const std::vector<std::uint8_t> painted = doc.scenario().tiles->terrain;
    CHECK(painted[cell(2, 3)] == 7);
    CHECK(painted[cell(3, 3)] == 4);
    CHECK(painted[cell(4, 3)] == 4);

    doc.undo();
    CHECK(doc.scenario().tiles->terrain == original);
    doc.redo();
    CHECK(doc.scenario().tiles->terrain == painted);

    SUBCASE("a vector edit in between splits the strokes") {
      doc.end_merge();
      REQUIRE(doc.apply_tiles("Paint", {{cell(0, 0), 0, 1}}, 5));
      REQUIRE(doc.apply("Add", add_feature(rect_feature(1, {2, 2}, {4, 4}))));
      REQUIRE(doc.apply_tiles("Paint", {{cell(1, 0), 0, 1}}, 5));
      CHECK(doc.history_size() == 4);
    }
  }

  TEST_CASE("bad tile changes are refused") {
    Document no_grid(make_empty_scenario(8, 8, 1));
    CHECK_FALSE(no_grid.apply_tiles("Paint", {{0, 0, 1}}));

    Document doc(small_scenario());
    CHECK_FALSE(doc.apply_tiles("Paint", {{16 * 12, 0, 1}}));         // outside the grid
    CHECK_FALSE(doc.apply_tiles("Paint", {{0, 0, 1}, {1, 0, 200}}));  // unknown terrain
    CHECK(doc.scenario().tiles->terrain[0] == 0);                     // nothing applied
    CHECK(doc.history_size() == 0);
  }

  TEST_CASE("tiles_changed_since reports the painted rectangle") {
    Document doc(small_scenario());
    const std::uint64_t r0 = doc.revision();
    CHECK(doc.tiles_changed_since(r0).empty());

    REQUIRE(doc.apply_tiles("Paint", {{cell(2, 3), 0, 7}, {cell(5, 1), 0, 7}}));
    const std::uint64_t r1 = doc.revision();
    TileRect rect = doc.tiles_changed_since(r0);
    CHECK(rect.x0 == 2);
    CHECK(rect.y0 == 1);
    CHECK(rect.x1 == 5);
    CHECK(rect.y1 == 3);
    CHECK(doc.tiles_changed_since(r1).empty());

    REQUIRE(doc.apply("Add", add_feature(rect_feature(1, {2, 2}, {4, 4}))));
    CHECK(doc.tiles_changed_since(r1).empty());  // vector edits touch no tiles
    CHECK(doc.vector_revision() == 1);

    REQUIRE(doc.apply_tiles("Paint", {{cell(9, 9), 0, 1}}));
    rect = doc.tiles_changed_since(r1);
    CHECK(rect.x0 == 9);
    CHECK(rect.x1 == 9);
    rect = doc.tiles_changed_since(r0);
    CHECK(rect.x0 == 2);
    CHECK(rect.x1 == 9);
    CHECK(rect.y1 == 9);

    const std::uint64_t r2 = doc.revision();
    doc.undo();  // the last stroke is reverted: its cells changed again
    rect = doc.tiles_changed_since(r2);
    CHECK(rect.x0 == 9);
    CHECK(rect.y0 == 9);
  }

  TEST_CASE("modified follows edits and mark_saved") {
    Document doc(small_scenario(), "maps/a.json");
    CHECK_FALSE(doc.modified());
    CHECK(doc.display_name() == "a.json");
    REQUIRE(doc.apply("Add", add_feature(rect_feature(1, {2, 2}, {4, 4}))));
    CHECK(doc.modified());
    doc.mark_saved("maps/b.json");
    CHECK_FALSE(doc.modified());
    CHECK(doc.path() == "maps/b.json");
    doc.undo();
    CHECK(doc.modified());
    REQUIRE_FALSE(doc.apply("Bad", [](Scenario& s) { s.world.width = -1; }));
    CHECK(Document(small_scenario()).display_name() == "untitled");
  }

  TEST_CASE("mark_unsaved: modified from the start, after undo too, until saved") {
    Document doc(small_scenario());
    doc.mark_unsaved();
    CHECK(doc.modified());
    REQUIRE(doc.apply("Add", add_feature(rect_feature(1, {2, 2}, {4, 4}))));
    doc.undo();
    CHECK(doc.modified());  // Back to the imported state, which is still in no file.
    doc.mark_saved("maps/imported.json");
    CHECK_FALSE(doc.modified());
    doc.redo();
    CHECK(doc.modified());
    doc.undo();
    CHECK_FALSE(doc.modified());
  }

  TEST_CASE("a new edit after undo drops the redo branch") {
    Document doc(small_scenario());
    REQUIRE(doc.apply("A", add_feature(rect_feature(1, {1, 1}, {2, 2}))));
    REQUIRE(doc.apply("B", add_feature(rect_feature(2, {3, 3}, {4, 4}))));
    doc.undo();
    CHECK(doc.can_redo());
    REQUIRE(doc.apply("C", add_feature(rect_feature(3, {5, 5}, {6, 6}))));
    CHECK_FALSE(doc.can_redo());
    CHECK(doc.history_size() == 2);
    CHECK(doc.undo_label() == "C");
    REQUIRE(doc.scenario().features.size() == 2);
    CHECK(doc.scenario().features[1].id == 3);
    doc.undo();
    doc.undo();
    CHECK(doc.scenario().features.empty());
    CHECK_FALSE(doc.can_undo());
  }

  TEST_CASE("ensure_tile_grid adds a ground grid as one undoable step") {
    Document doc(make_empty_scenario(10.5, 6, 1));  // 10 whole cells across: the sliver stays out
    REQUIRE(doc.ensure_tile_grid());
    REQUIRE(doc.scenario().tiles);
    CHECK(doc.scenario().tiles->width == 10);
    CHECK(doc.scenario().tiles->height == 6);
    CHECK(doc.scenario().tiles->terrain == std::vector<std::uint8_t>(60, 0));
    CHECK(doc.history_size() == 1);
    CHECK(doc.vector_revision() == 1);
    REQUIRE(doc.ensure_tile_grid());  // already there: nothing
    CHECK(doc.history_size() == 1);

    REQUIRE(doc.apply_tiles("Paint", {{3, 0, 7}}, 9));
    doc.undo();
    doc.undo();
    CHECK_FALSE(doc.scenario().tiles);
    doc.redo();
    doc.redo();
    REQUIRE(doc.scenario().tiles);
    CHECK(doc.scenario().tiles->terrain[3] == 7);

    Document tiny(make_empty_scenario(0.5, 0.5, 1));
    CHECK_FALSE(tiny.ensure_tile_grid());
    CHECK_FALSE(tiny.scenario().tiles);
  }

  TEST_CASE("next_id is one past the largest id in use") {
    CHECK(Document::next_id({}) == 1);
    CHECK(Document::next_id({3, 1, 7}) == 8);
  }
  TEST_CASE("undoing back to the saved state counts as unmodified") {
    Document doc(small_scenario(), "a.json");
    CHECK_FALSE(doc.modified());
    REQUIRE(doc.apply("add", add_feature(rect_feature(1, {1, 1}, {3, 3}))).ok());
    doc.mark_saved("a.json");
    CHECK_FALSE(doc.modified());
    REQUIRE(doc.apply("move", move_feature_to(5)).ok());
    CHECK(doc.modified());
    doc.undo();
    CHECK_FALSE(doc.modified());
    doc.undo();
    CHECK(doc.modified());
    doc.redo();
    CHECK_FALSE(doc.modified());
    // A merged drag step that grows after a save is a change again.
    REQUIRE(doc.apply("drag", move_feature_to(6), 42).ok());
    doc.mark_saved("a.json");
    REQUIRE(doc.apply("drag", move_feature_to(7), 42).ok());
    CHECK(doc.modified());
  }

  TEST_CASE("factions with fog of war look at every edit, undo restores what they remembered") {
    Scenario s = small_scenario();
    s.factions = {Faction{"blue", {40, 80, 255, 255}, 3, false, {}, {}, {}}};
    Unit u;
    u.id = 1;
    u.faction = "blue";
    u.position = {2, 2};
    s.units.push_back(u);
    s.features.push_back(rect_feature(5, {12, 8}, {14, 10}));
    Document doc(s);
    CHECK(doc.scenario().factions[0].memory.empty());  // out of sight when opened
    // The scout walks up to the block: it is remembered in the same step.
    REQUIRE(doc.apply("move scout", [](Scenario& e) { e.units[0].position = {11, 7}; }).ok());
    REQUIRE(doc.scenario().factions[0].memory.size() == 1);
    CHECK(doc.scenario().factions[0].memory[0].id == 5);
    // It walks away and the block is destroyed: still believed.
    REQUIRE(doc.apply("move scout", [](Scenario& e) { e.units[0].position = {2, 2}; }).ok());
    REQUIRE(doc.apply("destroy", [](Scenario& e) { e.features.clear(); }).ok());
    CHECK(doc.scenario().factions[0].memory.size() == 1);
    doc.undo();
    doc.undo();
    doc.undo();
    CHECK(doc.scenario().factions[0].memory.empty());
    doc.redo();
    CHECK(doc.scenario().factions[0].memory.size() == 1);
  }
}
