#include "planner/scenario/movingai_convert.hpp"

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "planner/scenario/movingai_parse.hpp"
#include "tests/planner/scenario/movingai_test_support.hpp"

using namespace pathscope;
using namespace pathscope::movingai_test;

namespace {

/// Reads the tile grid back as Moving AI characters through the terrain symbols.
std::vector<char> tile_chars(const Scenario& scenario) {
  std::vector<char> chars;
  for (const std::uint8_t t : scenario.tiles->terrain) chars.push_back(scenario.terrains.at(t).symbol);
  return chars;
}

}  // namespace

TEST_SUITE("movingai") {
  TEST_CASE("conversion: terrain types for every Moving AI character") {
    auto map = parse_movingai_map(kSmallMap, "dir/small.map");
    REQUIRE_MESSAGE(map.ok(), map.error().to_string());
    const Scenario scenario = movingai_to_scenario(*map);
    CHECK(scenario.name == "small");
    CHECK(scenario.world.width == 4);
    CHECK(scenario.world.height == 3);
    CHECK(scenario.world.cell_size == 1);
    REQUIRE(scenario.classes.size() == 1);
    CHECK(scenario.classes[0].name == "ground");
    CHECK(scenario.classes[0].radius == 0.5);
    CHECK(scenario.classes[0].speed == 1);
    CHECK_FALSE(scenario.classes[0].amphibious);
    CHECK(scenario.queries.empty());

    REQUIRE(scenario.terrains.size() == 7);
    const std::array<std::string_view, 7> names = {"ground", "ground_g", "out_of_bounds", "out_of_bounds_o",
                                                   "trees",  "swamp",    "water"};
    const std::array<char, 7> symbols = {'.', 'G', '@', 'O', 'T', 'S', 'W'};
    const std::array<bool, 7> passable = {true, true, false, false, false, true, true};
    for (std::size_t i = 0; i < 7; ++i) {
      CAPTURE(i);
      const TerrainType& t = scenario.terrains[i];
      CHECK(t.name == names[i]);
      CHECK(t.symbol == symbols[i]);
      REQUIRE(t.cost.size() == 1);
      CHECK(t.cost[0].has_value() == passable[i]);
      if (passable[i]) CHECK(*t.cost[0] == 1.0);
      CHECK(t.group == (symbols[i] == 'W' ? "water" : ""));
    }
    REQUIRE(scenario.tiles.has_value());
    CHECK(scenario.tiles->width == 4);
    CHECK(scenario.tiles->height == 3);
    CHECK(tile_chars(scenario) == map->cells);
  }

  TEST_CASE("conversion: only the terrain types that occur, ground always first") {
    auto map = parse_movingai_map("type octile\nheight 2\nwidth 2\nmap\nTT\n@T\n", "walls.map");
    REQUIRE(map.ok());
    const Scenario scenario = movingai_to_scenario(*map);
    REQUIRE(scenario.terrains.size() == 3);
    CHECK(scenario.terrains[0].name == "ground");
    CHECK(scenario.terrains[1].name == "out_of_bounds");
    CHECK(scenario.terrains[2].name == "trees");
    CHECK(scenario.tiles->terrain == std::vector<std::uint8_t>{2, 2, 1, 2});
  }

  TEST_CASE("conversion: every benchmark map keeps its characters") {
    PATHSCOPE_SKIP_WITHOUT_BENCHMARKS();
    for (const BenchFile& file : kBenchFiles) {
      CAPTURE(file.map);
      auto map = load_movingai_map(bench_dir() / file.map);
      REQUIRE(map.ok());
      const Scenario scenario = movingai_to_scenario(*map);
      CHECK(scenario.name == map->name);
      CHECK(scenario.terrains.front().name == "ground");
      REQUIRE(scenario.tiles.has_value());
      CHECK(scenario.tiles->width == map->width);
      CHECK(scenario.tiles->height == map->height);
      CHECK(tile_chars(scenario) == map->cells);
    }
  }

  TEST_CASE("conversion: problems become A* queries between cell centres") {
    PATHSCOPE_SKIP_WITHOUT_BENCHMARKS();
    auto map = load_movingai_map(bench_dir() / "den312d.map");
    auto problems = load_movingai_scen(bench_dir() / "den312d.map.scen");
    REQUIRE(map.ok());
    REQUIRE(problems.ok());

    const Scenario all = movingai_to_scenario(*map, *problems);
    REQUIRE(all.queries.size() == problems->size());
    const Scenario some = movingai_to_scenario(*map, *problems, 5);
    REQUIRE(some.queries.size() == 5);
    CHECK(movingai_to_scenario(*map, *problems, 0).queries.empty());

    for (std::size_t i = 0; i < some.queries.size(); ++i) {
      const Query& q = some.queries[i];
      const MovingAiProblem& p = (*problems)[i];
      CHECK(q == all.queries[i]);
      CHECK(q.name == "scen line " + std::to_string(p.line));
      CHECK(q.start == Vec2(p.start.x + 0.5, p.start.y + 0.5));
      CHECK(q.goal == Vec2(p.goal.x + 0.5, p.goal.y + 0.5));
      CHECK(q.movement_class == 0);
      CHECK(q.planner == "astar");
      REQUIRE(q.expected_length.has_value());
      CHECK(*q.expected_length == p.optimal_length);
    }
    CHECK(some.queries.front().name == "scen line 2");
  }

}  // TEST_SUITE
