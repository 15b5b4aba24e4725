#include "planner/scenario/new_scenario.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "planner/scenario/scenario_validate.hpp"

using namespace pathscope;

TEST_SUITE("new_scenario") {
  TEST_CASE("new scenarios: tile grid of the chosen terrain, limits by field") {
    NewScenarioParams p;
    p.width = 40;
    p.height = 20.5;
    p.cell_size = 2;
    p.terrain = 2;
    Result<Scenario> made = make_new_scenario(p);
    REQUIRE(made);
    REQUIRE(made->tiles);
    CHECK(made->tiles->width == 20);
    CHECK(made->tiles->height == 10);  // The half cell at the bottom stays ground.
    CHECK(made->tiles->terrain.front() == 2);
    CHECK(validate_scenario(*made));

    p.cell_size = 0.001;
    Result<Scenario> too_fine = make_new_scenario(p);
    REQUIRE_FALSE(too_fine);
    CHECK(too_fine.error().where == "world.cell_size");
    p.cell_size = 1;
    p.width = -3;
    REQUIRE_FALSE(make_new_scenario(p));
    CHECK(make_new_scenario(p).error().where == "world.width");
    p.width = 10;
    p.terrain = 99;
    CHECK_FALSE(make_new_scenario(p));
  }

  TEST_CASE("new scenarios: the defaults give a valid, empty, untitled world") {
    Result<Scenario> made = make_new_scenario(NewScenarioParams{});
    REQUIRE_MESSAGE(made, (made ? std::string() : made.error().to_string()));
    CHECK(made->name == "untitled");
    CHECK(made->world.width == 128);
    CHECK(made->world.height == 96);
    CHECK(made->world.cell_size == 1);
    CHECK_FALSE(made->classes.empty());
    CHECK(made->terrains.size() == default_terrain_types().size());
    CHECK(made->queries.empty());
    REQUIRE(made->tiles);
    CHECK(made->tiles->width == 128);
    CHECK(made->tiles->height == 96);
    CHECK(made->tiles->terrain.size() == std::size_t{128} * 96);
    for (const std::uint8_t t : made->tiles->terrain) REQUIRE(t == 0);
    CHECK(validate_scenario(*made));
  }

  TEST_CASE("new scenarios: cells that divide the world exactly are all tiles") {
    NewScenarioParams p;
    p.width = 10;
    p.height = 0.3;
    p.cell_size = 0.1;  // 0.3 / 0.1 is not exactly 3 in binary: still 3 whole cells.
    Result<Scenario> made = make_new_scenario(p);
    REQUIRE_MESSAGE(made, (made ? std::string() : made.error().to_string()));
    CHECK(made->tiles->width == 100);
    CHECK(made->tiles->height == 3);
  }

  TEST_CASE("new scenarios: every bad field is named, with its kind of error") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    struct Case {
      NewScenarioParams params;
      const char* where;
      ErrorCode code;
    };
    const Case cases[] = {
        {{0, 10, 1, 0}, "world.width", ErrorCode::Value},
        {{nan, 10, 1, 0}, "world.width", ErrorCode::Value},
        {{2e6, 10, 1, 0}, "world.width", ErrorCode::Value},
        {{10, -1, 1, 0}, "world.height", ErrorCode::Value},
        {{10, inf, 1, 0}, "world.height", ErrorCode::Value},
        {{10, 10, 0, 0}, "world.cell_size", ErrorCode::Value},
        {{10, 10, nan, 0}, "world.cell_size", ErrorCode::Value},
        {{10, 10, inf, 0}, "world.cell_size", ErrorCode::Value},
        {{10, 10, 20, 0}, "world.cell_size", ErrorCode::Value},    // larger than the world
        {{10000, 10, 1, 0}, "world.cell_size", ErrorCode::Limit},  // 10000 cells per side
        {{10, 10, 1, 1000}, "terrain", ErrorCode::Value},
    };
    for (const Case& c : cases) {
      CAPTURE(c.where);
      CAPTURE(c.params.width);
      CAPTURE(c.params.height);
      CAPTURE(c.params.cell_size);
      Result<Scenario> made = make_new_scenario(c.params);
      REQUIRE_FALSE(made);
      CHECK(made.error().where == c.where);
      CHECK(made.error().code == c.code);
      CHECK_FALSE(made.error().message.empty());
    }
  }

}  // TEST_SUITE
