#include "planner/scenario/movingai_check.hpp"

#include <doctest/doctest.h>

#include <span>

#include "tests/planner/scenario/movingai_test_support.hpp"

using namespace pathscope;
using namespace pathscope::movingai_test;

TEST_SUITE("movingai") {
  TEST_CASE("tolerances follow the printed precision: one unit of the last digit, at least 1e-3") {
    PATHSCOPE_SKIP_WITHOUT_BENCHMARKS();
    CHECK(movingai_length_tolerance("371.752") == doctest::Approx(1e-3 + 1e-9).epsilon(1e-12));
    CHECK(movingai_length_tolerance("1007.22") == doctest::Approx(0.01 + 1e-9).epsilon(1e-12));
    CHECK(movingai_length_tolerance("2628.3") == doctest::Approx(0.1 + 1e-9).epsilon(1e-12));
    CHECK(movingai_length_tolerance("1084") == doctest::Approx(1 + 1e-9).epsilon(1e-12));
    CHECK(movingai_length_tolerance("12.12345678") == doctest::Approx(1e-3 + 1e-9).epsilon(1e-12));
    CHECK(movingai_length_tolerance("0") == doctest::Approx(1 + 1e-9).epsilon(1e-12));
    CHECK(movingai_length_tolerance("1.5e+03") == doctest::Approx(100 + 1e-9).epsilon(1e-12));
    CHECK(movingai_length_tolerance("3.82843") == doctest::Approx(1e-3 + 1e-9).epsilon(1e-12));
    CHECK(movingai_length_tolerance("132.40") == doctest::Approx(0.01 + 1e-9).epsilon(1e-12));

    auto maze = load_movingai_scen(bench_dir() / "maze512-1-0.map.scen");
    REQUIRE(maze.ok());
    for (const MovingAiProblem& p : *maze) CHECK(p.tolerance == doctest::Approx(1e-3 + 1e-9).epsilon(1e-12));
  }

  TEST_CASE("a truncated stored optimum is not a mismatch, a length one unit beyond it is") {
    // Some published files truncate (or sum in single precision) instead of rounding: the
    // exact 3175.91500578 is stored as "3175.91", 0.005006 below it. Half a unit of the
    // last digit (0.005) rejected the exact length.
    auto scen = parse_movingai_scen("version 1\n793\tm.map\t512\t512\t0\t0\t511\t511\t3175.91\n", "t.scen");
    REQUIRE_MESSAGE(scen.ok(), scen.error().to_string());
    const MovingAiProblem& p = scen->front();
    CHECK(p.tolerance == doctest::Approx(0.01 + 1e-9).epsilon(1e-12));
    CHECK(movingai_length_matches(3175.91500578, p));
    CHECK(movingai_length_matches(3175.919, p));
    CHECK(movingai_length_matches(3175.901, p));
    CHECK_FALSE(movingai_length_matches(3175.93, p));
    CHECK_FALSE(movingai_length_matches(3175.89, p));
    CHECK(movingai_length_within(3175.91500578, p, 1.0));
    CHECK_FALSE(movingai_length_within(3175.93, p, 1.0));

    // Finer prints keep the check tight: at most 1e-3, or one unit of the last digit.
    auto fine = parse_movingai_scen(
        "version 1\n0 m.map 9 9 0 0 1 1 3175.91500578\n0 m.map 9 9 0 0 1 1 3175.915\n", "f.scen");
    REQUIRE(fine.ok());
    CHECK(movingai_length_matches(3175.91500578, (*fine)[0]));
    CHECK(movingai_length_matches(3175.91500578, (*fine)[1]));
    CHECK_FALSE(movingai_length_matches(3175.917, (*fine)[0]));
    CHECK_FALSE(movingai_length_matches(3175.9175, (*fine)[1]));
  }

  TEST_CASE("check_movingai_problems: the declared size must match the map") {
    auto map = parse_movingai_map(kSmallMap, "small.map");
    REQUIRE(map.ok());
    auto scen =
        parse_movingai_scen("version 1\n0 small.map 4 3 0 0 3 2 1\n\n0 small.map 5 3 0 0 1 1 1\n", "s.scen");
    REQUIRE(scen.ok());
    CHECK(check_movingai_problems(*map, std::span(scen->data(), 1), "s.scen").ok());
    auto status = check_movingai_problems(*map, *scen, "s.scen");
    REQUIRE_FALSE(status.ok());
    check_error(status.error(), "s.scen:4", {"5x3", "4x3", "small"});
  }

  TEST_CASE("found lengths: exact planners match within the tolerance, inexact ones within the ratio") {
    MovingAiProblem p;
    p.start = {0, 0};
    p.goal = {3, 4};  // straight line 5
    p.optimal_length = 6.24264;
    p.tolerance = movingai_length_tolerance("6.24264");
    CHECK(movingai_length_matches(6.242640687, p));
    CHECK(movingai_length_matches(6.2433, p));
    CHECK_FALSE(movingai_length_matches(6.2437, p));
    CHECK_FALSE(movingai_length_matches(6.2416, p));

    CHECK(movingai_length_within(6.242640687, p, 1.0));
    CHECK_FALSE(movingai_length_within(6.5, p, 1.0));
    CHECK(movingai_length_within(6.5, p, 1.1));
    CHECK_FALSE(movingai_length_within(6.9, p, 1.1));
    // Shorter than the optimum is fine for an inexact check, shorter than the straight line is not.
    CHECK(movingai_length_within(5.0, p, 1.1));
    CHECK_FALSE(movingai_length_within(4.99, p, 1.1));
  }

}  // TEST_SUITE
