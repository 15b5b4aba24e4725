// The open list: pops come out in open_before() order (f, then h, then node) for any
// mix of pushes and pops, including negative values, -0, infinities and exact ties.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "planner/core/open_list.hpp"

using namespace pathscope;

TEST_SUITE("open_list") {
  TEST_CASE("pops follow open_before over random pushes and pops") {
    std::mt19937_64 rng(424242);
    const double specials[] = {0.0,
                               -0.0,
                               -1.5,
                               1.5,
                               1e300,
                               -1e300,
                               std::numeric_limits<double>::infinity(),
                               std::numeric_limits<double>::denorm_min()};
    for (int round = 0; round < 200; ++round) {
      OpenList open;
      std::vector<OpenEntry> reference;  // the same entries, kept sorted by open_before
      const int ops = 1 + int(rng() % 400);
      for (int i = 0; i < ops; ++i) {
        if (!reference.empty() && rng() % 3 == 0) {
          const auto best = std::min_element(reference.begin(), reference.end(), open_before);
          REQUIRE(open.size() == reference.size());
          const OpenEntry top = open.top();
          const OpenEntry got = open.pop();
          CHECK(top.f == got.f);
          // Equal under the order (-0 and +0 are one key) and identical in value.
          CHECK(!open_before(got, *best));
          CHECK(!open_before(*best, got));
          CHECK(got.node == best->node);
          CHECK(got.h == best->h);
          CHECK(got.f == best->f);
          reference.erase(best);
          continue;
        }
        OpenEntry e;
        // Few distinct values, so that ties on f and on h are common.
        e.f = rng() % 5 == 0 ? specials[rng() % 8] : double(int(rng() % 7)) * 0.25;
        e.h = rng() % 7 == 0 ? -0.0f : float(int(rng() % 5)) - 1.0f;
        e.node = NodeId(rng() % 1000);
        open.push(e);
        reference.push_back(e);
      }
      while (!reference.empty()) {
        const auto best = std::min_element(reference.begin(), reference.end(), open_before);
        const OpenEntry got = open.pop();
        CHECK(!open_before(got, *best));
        CHECK(!open_before(*best, got));
        CHECK(got.node == best->node);
        reference.erase(best);
      }
      CHECK(open.empty());
    }
  }

  TEST_CASE("clear empties the list and it is usable again") {
    OpenList open;
    for (int i = 0; i < 100; ++i) open.push(OpenEntry{double(100 - i), 0.0f, NodeId(i)});
    CHECK(open.size() == 100);
    open.clear();
    CHECK(open.empty());
    open.push(OpenEntry{2.0, 1.0f, 7});
    open.push(OpenEntry{2.0, 0.5f, 9});
    CHECK(open.pop().node == 9);
    CHECK(open.pop().node == 7);
  }

}  // TEST_SUITE
