// The figures of `pathscope bench navmesh` (time_navmesh_update): on a small generated map
// in several tiles, every field is set and consistent (a counting clock makes the times
// exact), the updated mesh equals a fresh build, and an update left out (a planted fault)
// is caught by the comparison.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <memory>

#include "planner/navmesh/navmesh_bench.hpp"
#include "planner/world/planning_world.hpp"

using namespace pathscope;

namespace navmesh_bench_test {

// A clock that moves one millisecond per reading: each timed span is exactly 1 ms.
BenchClock counting_clock() {
  auto ns = std::make_shared<std::uint64_t>(0);
  return [ns] { return *ns += 1'000'000; };
}

NavmeshBenchParams small() {
  NavmeshBenchParams p;
  p.size = 64;
  p.edits = 6;
  p.seed = 11;
  p.mesh.tile_cells = 16;  // 4 x 4 tiles
  return p;
}

}  // namespace navmesh_bench_test

TEST_SUITE("navmesh") {
  TEST_CASE("bench: full build, updates and their tiles, equal to a fresh build") {
    namespace t = navmesh_bench_test;
    const NavmeshBenchFigures f = time_navmesh_update(t::small(), t::counting_clock());
    CAPTURE(f.error);
    CAPTURE(f.first_mismatch);
    REQUIRE(f.error.empty());
    CHECK(f.size == 64);
    CHECK(f.tiles == 16);
    CHECK(f.polygons > 100);
    CHECK(f.full_build_s == doctest::Approx(0.001));
    CHECK(f.fresh_build_s == doctest::Approx(0.001));
    REQUIRE(f.update_ms.size() == 6);
    REQUIRE(f.tiles_rebuilt.size() == 6);
    CHECK(f.update_median_ms == doctest::Approx(1.0));
    CHECK(f.update_p95_ms == doctest::Approx(1.0));
    // A 3 x 3 edit changes some cell's area, so at least its own tile; at most the four
    // tiles round a tile corner.
    int most = 0;
    double sum = 0;
    for (const int n : f.tiles_rebuilt) {
      CHECK(n >= 1);
      CHECK(n <= 4);
      most = std::max(most, n);
      sum += n;
    }
    CHECK(f.tiles_rebuilt_max == most);
    CHECK(f.tiles_rebuilt_mean == doctest::Approx(sum / 6));
    CHECK(f.queries == 8);
    CHECK(f.polygon_mismatches == 0);
    CHECK(f.query_mismatches == 0);
    CHECK(f.equal());
  }

  TEST_CASE("bench: an update left out is caught against the fresh build") {
    namespace t = navmesh_bench_test;
    NavmeshBenchParams p = t::small();
    p.skip_update = 2;
    const NavmeshBenchFigures f = time_navmesh_update(p, t::counting_clock());
    REQUIRE(f.error.empty());
    CHECK(f.update_ms.size() == 5);
    CHECK(f.polygon_mismatches > 0);
    CHECK_FALSE(f.first_mismatch.empty());
    CHECK_FALSE(f.equal());
  }

  TEST_CASE("bench: the generated map is the seed's, with walls, slow ground and water") {
    const Scenario a = navmesh_bench_scenario(40, 5), b = navmesh_bench_scenario(40, 5);
    const Scenario c = navmesh_bench_scenario(40, 6);
    CHECK(a.tiles->terrain == b.tiles->terrain);
    CHECK(a.tiles->terrain != c.tiles->terrain);
    int count[5] = {0, 0, 0, 0, 0};
    for (const std::uint8_t k : a.tiles->terrain) ++count[k];
    // 1,600 cells: 15% walls, 10% rough, 5% swamp, 2% water, the rest ground.
    CHECK(count[1] > 160);
    CHECK(count[1] < 320);
    CHECK(count[2] > 100);
    CHECK(count[3] > 40);
    CHECK(count[4] > 10);
    CHECK(count[0] > 800);
    const PlanningWorld world(a);  // a valid world
    CHECK(world.grid(0).width() == 40);
  }
}
