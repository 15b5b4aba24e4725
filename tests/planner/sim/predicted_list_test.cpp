#include <cstddef>
#include <deque>
#include <random>

#include <doctest/doctest.h>

#include "planner/sim/sim_types.hpp"

namespace pathscope::sim {

namespace {

PredictedPoint point(int k) {
  return PredictedPoint{Vec2{double(k), -double(k)}, 0.5 * k, 1, 0.1 * k, std::uint32_t(k)};
}

void check_same(const PredictedList& list, const std::deque<PredictedPoint>& want) {
  REQUIRE(list.size() == want.size());
  CHECK(list.empty() == want.empty());
  std::size_t k = 0;
  for (const PredictedPoint& p : list) {
    CHECK(p.waypoint == want[k].waypoint);
    CHECK(list[k].position == want[k].position);
    ++k;
  }
  CHECK(k == want.size());
  if (!want.empty()) CHECK(list.back().waypoint == want.back().waypoint);
}

}  // namespace

TEST_CASE("the rolling list of predicted positions keeps the order a queue keeps") {
  // Random pushes, pops, clears and resizes against std::deque: the list compacts its
  // storage now and then, which must never lose, repeat or reorder a point.
  std::mt19937_64 rng(5);
  PredictedList list;
  std::deque<PredictedPoint> want;
  int next = 0;
  for (int op = 0; op < 20000; ++op) {
    const int r = std::uniform_int_distribution<int>(0, 99)(rng);
    if (r < 50) {
      list.push_back(point(next));
      want.push_back(point(next));
      ++next;
    } else if (r < 95) {
      if (want.empty()) continue;
      list.pop_front();
      want.pop_front();
    } else if (r < 98) {
      list.clear();
      want.clear();
    } else {
      const std::size_t n = std::uniform_int_distribution<std::size_t>(0, 40)(rng);
      list.resize(n);
      want.resize(n);
    }
    check_same(list, want);
  }
  // A prediction's life: 30 points, then one popped and one pushed per step.
  list.clear();
  want.clear();
  for (int k = 0; k < 30; ++k) {
    list.push_back(point(k));
    want.push_back(point(k));
  }
  for (int step = 30; step < 500; ++step) {
    list.pop_front();
    want.pop_front();
    list.push_back(point(step));
    want.push_back(point(step));
  }
  check_same(list, want);
}

}  // namespace pathscope::sim
