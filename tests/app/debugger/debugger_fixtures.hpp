#pragma once

// Shared by the debugger tests: a small scenario with a wall and two queries, an editor
// state holding it, a wall feature that cuts the top gap, and a step-by-step comparison
// of two replays.

#include <doctest/doctest.h>

#include <memory>
#include <utility>
#include <vector>

#include "app/editor/editor_state.hpp"
#include "planner/core/search_trace.hpp"
#include "planner/scenario/scenario.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::test {

/// A 24 x 12 map with a wall in the middle that leaves gaps at the top and bottom, some
/// rough and swamp ground, and two queries across it (astar, bidirectional).
inline Scenario debugger_scenario() {
  Scenario s = ascii_scenario({
      "........................",
      "........................",
      "...........#............",
      "...rrr.....#.....sss....",
      "...rrr.....#.....sss....",
      "...........#............",
      "...........#............",
      "...........#............",
      "...ss......#......rr....",
      "...........#............",
      "........................",
      "........................",
  });
  s.queries = {Query{"across", cell_center(s, 1, 5), cell_center(s, 22, 6), 0, "astar", {}, std::nullopt, {}},
               Query{"both ways",
                     cell_center(s, 2, 10),
                     cell_center(s, 21, 1),
                     0,
                     "bidirectional",
                     {},
                     std::nullopt,
                     {}}};
  return s;
}

/// An editor state with `s` open as its document.
inline app::EditorState open_state(Scenario s) {
  app::EditorState state;
  state.open_document(std::make_unique<app::Document>(std::move(s)));
  return state;
}

/// A wall feature over column 11 from the top down to row 10: only the bottom row still
/// crosses the wall, a detour for the queries that used the top gap.
inline Feature cutting_wall(const Scenario& s) {
  Feature f;
  f.id = 7;
  f.name = "cut";
  f.terrain = s.find_terrain("wall").value();
  f.shape.kind = ShapeKind::Rect;
  f.shape.min = {11, 0};
  f.shape.max = {12, 11};
  return f;
}

/// Checks that two replays show the same step, nodes, current node and paths.
inline void check_same_state(const TraceReplay& a, const TraceReplay& b) {
  REQUIRE(a.step() == b.step());
  const std::vector<TraceNode> na = a.nodes(), nb = b.nodes();
  REQUIRE(na.size() == nb.size());
  for (std::size_t i = 0; i < na.size(); ++i) {
    CHECK(na[i].node == nb[i].node);
    CHECK(na[i].side == nb[i].side);
    CHECK(na[i].g == nb[i].g);
    CHECK(na[i].h == nb[i].h);
    CHECK(na[i].parent == nb[i].parent);
    CHECK(na[i].opened_at == nb[i].opened_at);
    CHECK(na[i].closed_at == nb[i].closed_at);
  }
  CHECK(a.current() == b.current());
  CHECK(a.partial_path() == b.partial_path());
  CHECK(a.path() == b.path());
}

}  // namespace pathscope::test
