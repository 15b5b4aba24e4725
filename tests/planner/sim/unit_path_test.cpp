#include "planner/sim/unit_path.hpp"

#include <vector>

#include <doctest/doctest.h>

namespace pathscope::sim {

TEST_CASE("unit path: every change bumps the revision, a copy keeps it, == compares the points") {
  UnitPath path;
  std::uint64_t seen = path.revision();
  const auto bumped = [&] {
    const bool changed = path.revision() != seen;
    seen = path.revision();
    return changed;
  };
  path = std::vector<Vec2>{{0, 0}, {1, 0}, {2, 0}};
  CHECK(bumped());
  path = {{0, 0}, {1, 0}, {2, 0}};  // the same points again: still a change of path
  CHECK(bumped());
  path.insert(path.begin() + 1, Vec2{0.5, 1});
  CHECK(bumped());
  CHECK(path.size() == 4);
  CHECK(path[1] == Vec2{0.5, 1});
  path.erase(path.begin(), path.begin() + 2);
  CHECK(bumped());
  CHECK(path.points() == std::vector<Vec2>{{1, 0}, {2, 0}});
  const UnitPath copy = path;
  CHECK(copy.revision() == path.revision());
  CHECK(copy == path);
  path.clear();
  CHECK(bumped());
  CHECK(path.empty());
  CHECK_FALSE(copy == path);
  UnitPath other{{1, 0}, {2, 0}};
  CHECK(other == copy);  // same points, another history
}

}  // namespace pathscope::sim
