#include "planner/sim/platoon.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include "planner/sim/platoon_formation.hpp"
#include "tests/planner/sim/box_test_support.hpp"

namespace pathscope::sim {

namespace platoon_test {

constexpr double kHalfTurn = 3.14159265358979323846;

/// An axis-aligned obstacle (metres).
using Box = Box2;

bool inside(const Box& b, Vec2 p) { return p.x > b.lo.x && p.x < b.hi.x && p.y > b.lo.y && p.y < b.hi.y; }

/// The referee's check, by sampling (shares nothing with segment_hits).
bool sampled_hits(const std::vector<Box>& boxes, Vec2 a, Vec2 c) {
  for (int i = 0; i <= 2000; ++i) {
    const Vec2 p = a + (c - a) * (i / 2000.0);
    for (const Box& b : boxes) {
      if (inside(b, p)) return true;
    }
  }
  return false;
}

/// Distance from `p` to the polyline `pts`.
double distance_to_polyline(const std::vector<Vec2>& pts, Vec2 p) {
  double best = 1e300;
  for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
    const Vec2 d = pts[i + 1] - pts[i];
    const double t = std::clamp(glm::dot(p - pts[i], d) / glm::dot(d, d), 0.0, 1.0);
    best = std::min(best, glm::distance(p, pts[i] + d * t));
  }
  return best;
}

/// A line of three (spacing 8) driven east along y = 0 from x = 0 to 100 past `boxes`,
/// the platoon's position moved 0.5 m a step: per step, every slot's drive-to point and
/// morph weight.
struct MorphRun {
  std::vector<std::vector<SlotTarget>> steps;
};

MorphRun run_line_past(const std::vector<Box>& boxes) {
  const std::vector<Vec2> path{{0, 0}, {100, 0}};
  const PathWalk walk({0, 0}, 0, path, 30);
  const PlatoonFormation line = make_formation(FormationShape::Line, 3, 8);
  const SegmentBlocked blocked = [&](Vec2 a, Vec2 b) {
    return std::any_of(boxes.begin(), boxes.end(),
                       [&](const Box& box) { return test_support::segment_meets_box(a, b, box, false); });
  };
  std::vector<double> morph(3, 0);
  MorphRun run;
  for (double x = 0; x <= 100; x += 0.5) {
    DriveToInput in;
    in.walk = &walk;
    in.along = walk.path_start() + x;
    in.position = walk.point_at(in.along);
    in.heading = 0;
    in.from = &line;
    in.to = &line;
    in.ease_seconds = 2;
    in.dt = 0.1;
    std::vector<SlotTarget> out;
    drive_to_points(in, blocked, morph, out);
    run.steps.push_back(out);
  }
  return run;
}

}  // namespace platoon_test

using platoon_test::Box;
using platoon_test::distance_to_polyline;
using platoon_test::kHalfTurn;
using platoon_test::MorphRun;
using platoon_test::run_line_past;
using platoon_test::sampled_hits;

TEST_CASE("platoon formations: the built-in shapes' offsets, the lead at the origin") {
  const PlatoonFormation wedge = make_formation(FormationShape::Wedge, 5, 6);
  REQUIRE(wedge.offsets.size() == 5);
  CHECK(wedge.offsets[0] == Vec2{0, 0});
  CHECK(wedge.offsets[1] == Vec2{-6, 6});
  CHECK(wedge.offsets[2] == Vec2{-6, -6});
  CHECK(wedge.offsets[3] == Vec2{-12, 12});
  CHECK(wedge.offsets[4] == Vec2{-12, -12});
  const PlatoonFormation line = make_formation(FormationShape::Line, 3, 5);
  CHECK(line.offsets[1] == Vec2{0, 5});
  CHECK(line.offsets[2] == Vec2{0, -5});
  const PlatoonFormation echelon = make_formation(FormationShape::Echelon, 3, 4);
  CHECK(echelon.offsets[2] == Vec2{-8, -8});
  const PlatoonFormation column = make_formation(FormationShape::Column, 4, 7);
  CHECK(column.offsets[3] == Vec2{-21, 0});
  // Ranks from the front: forward first, then nearer the centre, left before right.
  CHECK(column_ranks(wedge) == std::vector<std::size_t>{0, 1, 2, 3, 4});
  CHECK(column_ranks(line) == std::vector<std::size_t>{0, 1, 2});
  CHECK(column_ranks(PlatoonFormation{FormationShape::Custom, {{-3, 0}, {2, 1}, {2, -1}, {2, 0}}}) ==
        std::vector<std::size_t>{3, 1, 2, 0});
}

TEST_CASE("platoon formations: offsets turn with the heading (x forward, y to the left on screen)") {
  // World y grows downwards: facing east (0), left is up the screen (-y).
  CHECK(glm::distance(formation_point({10, 10}, 0, {2, 3}), Vec2{12, 7}) < 1e-12);
  // Facing north on screen (pi/2: direction (0, -1)), left is west.
  CHECK(glm::distance(formation_point({10, 10}, kHalfTurn / 2, {2, 3}), Vec2{7, 8}) < 1e-12);
  // Facing west, forward is -x and left is down the screen.
  CHECK(glm::distance(formation_point({0, 0}, kHalfTurn, {1, 1}), Vec2{-1, 1}) < 1e-12);
}

TEST_CASE("platoon formations: a column's snake on a bent path, against hand computation") {
  // East 10 m, then up the screen 10 m; a 20 m lead-in along the heading (east).
  const std::vector<Vec2> path{{0, 0}, {10, 0}, {10, -10}};
  const PathWalk walk({0, 0}, 0, path, 20);
  CHECK(walk.path_start() == 20);
  CHECK(walk.length() == doctest::Approx(40));
  const PlatoonFormation column = make_formation(FormationShape::Column, 7, 4);
  DriveToInput in;
  in.walk = &walk;
  in.along = 32;  // 12 m along the path: 2 m up the second segment.
  in.position = walk.point_at(in.along);
  in.heading = kHalfTurn / 2;
  in.from = &column;
  in.to = &column;
  in.column_spacing = 4;
  std::vector<double> morph(7, 0);
  std::vector<SlotTarget> out;
  drive_to_points(
      in, [](Vec2, Vec2) { return false; }, morph, out);
  REQUIRE(out.size() == 7);
  const std::vector<Vec2> want{{10, -2}, {8, 0}, {4, 0}, {0, 0}, {-4, 0}, {-8, 0}, {-12, 0}};
  for (std::size_t k = 0; k < want.size(); ++k) {
    CAPTURE(k);
    CHECK(glm::distance(out[k].drive_to, want[k]) < 1e-12);
    CHECK(out[k].morph == 0);
  }
  // Past the lead-in's start the snake goes on backwards along the first heading.
  CHECK(glm::distance(walk.point_at(-5), Vec2{-25, 0}) < 1e-12);
  // Past the end: the end.
  CHECK(walk.point_at(1000) == Vec2{10, -10});
  // A walk of no path: the lead-in alone, slots behind along the heading.
  const PathWalk idle({5, 5}, kHalfTurn, {}, 10);
  CHECK(glm::distance(idle.point_at(idle.path_start() - 3), Vec2{8, 5}) < 1e-12);
}

TEST_CASE("platoon formations: a column on a bent path keeps every drive-to point on the path") {
  const std::vector<Vec2> path{{0, 0}, {30, 0}, {30, 30}, {60, 40}, {20, 80}};
  const PathWalk walk({0, 0}, 0, path, 40);
  const PlatoonFormation column = make_formation(FormationShape::Column, 5, 6);
  std::vector<Vec2> full(walk.points().begin(), walk.points().end());
  std::vector<double> morph(5, 0);
  for (double s = walk.path_start(); s <= walk.length(); s += 0.37) {
    DriveToInput in;
    in.walk = &walk;
    in.along = s;
    in.position = walk.point_at(s);
    in.heading = 0;
    in.from = &column;
    in.to = &column;
    in.column_spacing = 6;
    std::vector<SlotTarget> out;
    drive_to_points(
        in, [](Vec2, Vec2) { return false; }, morph, out);
    for (std::size_t k = 0; k < out.size(); ++k) {
      CHECK(distance_to_polyline(full, out[k].drive_to) < 1e-9);
      // Exactly `spacing` x rank behind along the path, so never closer than the
      // straight-line distance allows.
      if (k > 0) CHECK(glm::distance(out[k].drive_to, out[k - 1].drive_to) <= 6 + 1e-9);
    }
  }
}

TEST_CASE(
    "platoon formations: morphing keeps every drive-to point out of obstacles in seed 004's three cases") {
  // Figures 7.1-7.3 as boxes beside a straight path: one obstacle over the left slot's
  // track, a narrow spot over both outer tracks, and a sliver between the path and the
  // left slot.
  const std::vector<std::vector<Box>> cases{
      {{{40, -12}, {60, -3}}},
      {{{40, -12}, {60, -3}}, {{40, 3}, {60, 12}}},
      {{{40, -5.2}, {60, -4.8}}},
  };
  for (std::size_t c = 0; c < cases.size(); ++c) {
    CAPTURE(c);
    const MorphRun run = run_line_past(cases[c]);
    bool pulled = false;
    for (std::size_t i = 0; i < run.steps.size(); ++i) {
      for (const SlotTarget& t : run.steps[i]) {
        // The drive-to point is in the open and joined to the path in the open.
        CHECK_FALSE(sampled_hits(cases[c], t.column, t.drive_to));
        pulled = pulled || t.morph > 0;
        if (i > 0) CHECK(t.morph >= 0);
      }
      // Far from the obstacles every slot stands at its formation position.
      const double x = static_cast<double>(i) * 0.5;
      if (x < 35) {
        for (const SlotTarget& t : run.steps[i]) CHECK(t.drive_to == t.formation);
      }
    }
    CHECK(pulled);
    // After the obstacles (and the easing back: 2 s at 0.1 s a step), back in formation.
    for (const SlotTarget& t : run.steps.back()) CHECK(t.morph == 0);
  }
}

TEST_CASE("platoon formations: a pulled slot eases back out gradually, never faster than dt / ease_seconds") {
  const MorphRun run = run_line_past({{{40, -12}, {60, -3}}});
  double largest_drop = 0;
  for (std::size_t i = 1; i < run.steps.size(); ++i) {
    largest_drop = std::max(largest_drop, run.steps[i - 1][1].morph - run.steps[i][1].morph);
  }
  CHECK(largest_drop > 0);
  CHECK(largest_drop <= 0.1 / 2 + 1e-12);
}

TEST_CASE("platoon formations: a change of formation blends each slot from its old position to its new one") {
  const std::vector<Vec2> path{{0, 0}, {100, 0}};
  const PathWalk walk({0, 0}, 0, path, 30);
  const PlatoonFormation line = make_formation(FormationShape::Line, 3, 8);
  const PlatoonFormation column = make_formation(FormationShape::Column, 3, 8);
  DriveToInput in;
  in.walk = &walk;
  in.along = walk.path_start() + 50;
  in.position = walk.point_at(in.along);
  in.heading = 0;
  in.from = &line;
  in.to = &column;
  in.column_spacing = 8;
  const auto targets = [&](double blend) {
    in.blend = blend;
    std::vector<double> morph(3, 0);
    std::vector<SlotTarget> out;
    drive_to_points(
        in, [](Vec2, Vec2) { return false; }, morph, out);
    return out;
  };
  const auto start = targets(0);
  const auto half = targets(0.5);
  const auto end = targets(1);
  CHECK(glm::distance(start[1].drive_to, Vec2{50, -8}) < 1e-12);
  CHECK(glm::distance(end[1].drive_to, Vec2{42, 0}) < 1e-12);
  CHECK(glm::distance(half[1].drive_to, Vec2{46, -4}) < 1e-12);
  CHECK(glm::distance(end[2].drive_to, Vec2{34, 0}) < 1e-12);
}

TEST_CASE(
    "platoon: heading follows the path's segments, turns before a corner and ends at the ordered heading") {
  const std::vector<Vec2> path{{0, 0}, {50, 0}, {50, -50}};
  const PathWalk walk({0, 0}, 0, path, 20);
  PlatoonParams p;
  p.max_speed = 5;
  p.corner_lookahead = 6;
  const double final_heading = kHalfTurn;  // West, though the last segment goes north.
  PlatoonMotion m = start_platoon(walk, 0, final_heading, false);
  double before_turn = -1;
  int steps = 0;
  bool turned_before_corner = false;
  while (m.phase != PlatoonPhase::Arrived && steps < 10000) {
    advance_platoon(m, walk, p, PlatoonFeedback{}, 1.0 / 30);
    ++steps;
    CHECK(m.speed <= p.max_speed + 1e-12);
    CHECK(distance_to_polyline({{0, 0}, {50, 0}, {50, -50}}, m.position) < 1e-9);
    const double along_path = m.along - walk.path_start();
    if (along_path < 50 - p.corner_lookahead - 1) CHECK(m.heading == 0);
    if (along_path < 50 && m.heading != 0 && !turned_before_corner) {
      turned_before_corner = true;
      before_turn = along_path;
    }
    if (along_path > 70 && m.phase == PlatoonPhase::Moving) CHECK(std::abs(m.heading - kHalfTurn / 2) < 1e-9);
  }
  CHECK(m.phase == PlatoonPhase::Arrived);
  CHECK(turned_before_corner);
  CHECK(before_turn >= 50 - p.corner_lookahead - 1);
  CHECK(glm::distance(m.position, Vec2{50, -50}) < 1e-12);
  CHECK(std::abs(std::abs(m.heading) - kHalfTurn) <= p.final_heading_tolerance);
}

TEST_CASE(
    "platoon: the straggler wait starts beyond 2 x maxspeed and not before, and the speed falls on the way") {
  const std::vector<Vec2> path{{0, 0}, {1000, 0}};
  const PathWalk walk({0, 0}, 0, path, 20);
  PlatoonParams p;
  p.max_speed = 4;
  p.acceleration = 1000;  // Speed reaches its target in one step: the target is what is checked.
  const auto speed_after = [&](double straggler) {
    PlatoonMotion m = start_platoon(walk, 0, 0, false);
    advance_platoon(m, walk, p, PlatoonFeedback{straggler, false}, 0.1);
    return std::pair{m.phase, m.speed};
  };
  CHECK(speed_after(0).second == doctest::Approx(4));
  CHECK(speed_after(p.slack).second == doctest::Approx(4));
  const double limit = 2 * p.max_speed;
  CHECK(speed_after(limit - 1e-9).first == PlatoonPhase::Moving);
  CHECK(speed_after(limit).first == PlatoonPhase::Moving);
  CHECK(speed_after(limit + 1e-9).first == PlatoonPhase::Waiting);
  CHECK(speed_after(limit + 1e-9).second == 0);
  // Progressively slower between the slack and the limit.
  double last = speed_after(p.slack).second;
  for (double s = p.slack + 0.5; s < limit; s += 0.5) {
    const double v = speed_after(s).second;
    CHECK(v < last);
    last = v;
  }
  // Waiting lasts until the straggler is back within resume_factor x maxspeed.
  PlatoonMotion m = start_platoon(walk, 0, 0, false);
  advance_platoon(m, walk, p, PlatoonFeedback{limit + 1, false}, 0.1);
  REQUIRE(m.phase == PlatoonPhase::Waiting);
  advance_platoon(m, walk, p, PlatoonFeedback{p.max_speed + 0.1, false}, 0.1);
  CHECK(m.phase == PlatoonPhase::Waiting);
  CHECK(m.speed == 0);
  advance_platoon(m, walk, p, PlatoonFeedback{p.max_speed, false}, 0.1);
  CHECK(m.phase == PlatoonPhase::Moving);
  CHECK(m.speed > 0);
  // Passing obstacles (a slot pulled in) slows it.
  PlatoonMotion slow = start_platoon(walk, 0, 0, false);
  advance_platoon(slow, walk, p, PlatoonFeedback{0, true}, 0.1);
  CHECK(slow.speed == doctest::Approx(p.max_speed * p.obstacle_slowdown));
}

TEST_CASE("platoon: a wait with no straggler coming nearer presses on slowly after wait_patience") {
  const std::vector<Vec2> path{{0, 0}, {1000, 0}};
  const PathWalk walk({0, 0}, 0, path, 20);
  PlatoonParams p;
  p.max_speed = 4;
  p.acceleration = 1000;  // Speed reaches its target in one step: the target is what is checked.
  const double dt = 0.1;
  const double far = 2 * p.max_speed + 5;
  PlatoonMotion m = start_platoon(walk, 0, 0, false);
  advance_platoon(m, walk, p, PlatoonFeedback{far, false}, dt);
  REQUIRE(m.phase == PlatoonPhase::Waiting);
  // A straggler coming nearer keeps the platoon waiting however long it takes.
  double straggler = far;
  for (int k = 0; k < 200; ++k) {
    straggler -= 0.02;  // 0.2 m/s: 0.5 m every 2.5 s
    advance_platoon(m, walk, p, PlatoonFeedback{straggler, false}, dt);
    REQUIRE(m.phase == PlatoonPhase::Waiting);
  }
  // Held where it is: the wait lasts wait_patience seconds since the last 0.5 m of
  // progress, then it presses on.
  const double already = m.wait_stalled;
  CHECK(already < 2.6);
  int steps = 0;
  while (m.phase == PlatoonPhase::Waiting && steps < 1000) {
    advance_platoon(m, walk, p, PlatoonFeedback{straggler, false}, dt);
    ++steps;
  }
  CHECK(steps * dt == doctest::Approx(p.wait_patience - already).epsilon(0.05));
  CHECK(m.phase == PlatoonPhase::Moving);
  CHECK(m.pressing_on);
  CHECK(m.speed == doctest::Approx(p.press_on_factor * p.max_speed));
  // Pressing on, it does not wait again while the straggler stays beyond the limit...
  for (int k = 0; k < 100; ++k) {
    advance_platoon(m, walk, p, PlatoonFeedback{straggler + 10, false}, dt);
    CHECK(m.phase == PlatoonPhase::Moving);
    CHECK(m.speed == doctest::Approx(p.press_on_factor * p.max_speed));
  }
  // ...until its vehicles have gathered (within the resume distance): then as before.
  advance_platoon(m, walk, p, PlatoonFeedback{p.max_speed, false}, dt);
  CHECK_FALSE(m.pressing_on);
  advance_platoon(m, walk, p, PlatoonFeedback{far, false}, dt);
  CHECK(m.phase == PlatoonPhase::Waiting);
}

TEST_CASE("platoon: the same order twice gives the same states bit for bit") {
  const std::vector<Vec2> path{{0, 0}, {37.3, 4.1}, {41.9, -33.3}, {-5.5, -20.25}};
  const PathWalk walk({0, 0}, 0.3, path, 25);
  const auto run = [&]() {
    PlatoonMotion m = start_platoon(walk, 0.3, -2.0, true);
    std::vector<double> trace;
    for (int i = 0; i < 3000; ++i) {
      advance_platoon(m, walk, PlatoonParams{}, PlatoonFeedback{std::fmod(i * 0.731, 9.0), i % 17 == 0},
                      1.0 / 30);
      trace.insert(trace.end(), {m.position.x, m.position.y, m.heading, m.speed, m.formation_blend});
    }
    return trace;
  };
  const std::vector<double> a = run();
  const std::vector<double> b = run();
  REQUIRE(a.size() == b.size());
  CHECK(std::equal(a.begin(), a.end(), b.begin(),
                   [](double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }));
}

}  // namespace pathscope::sim
