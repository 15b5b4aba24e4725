// The circle case of `pathscope bench sim` (planner/sim/sim_cases.cpp, circle_case) run by
// RVO2, the reference library for reciprocal velocity obstacles, for a side-by-side row:
// `pathscope bench sim --circle N --rvo2 BIN` runs `BIN N SECONDS DT` and reads the one
// JSON line it prints. Built against an RVO2 checkout outside this repository by
// scripts/peers/build_rvo2.sh; not part of Pathscope's build.
//
// Same set-up as ours: units on a circle of radius max(10, 1.5 N / 2 pi) m, each to its
// antipode, radius 0.5 m, top speed 1.5 m/s, 30 steps a second. What RVO2 computes per
// step: a k-d tree of the agents, each agent's ORCA half-planes from its 10 nearest
// neighbours within 5 m (time horizon 2 s), a 2-D linear program for its new velocity, and
// a straight move. No terrain, no paths, no hard separation, no cooperation rules.
// Timed: the preferred velocities and doStep, per agent-step. Arrival: within 0.25 m.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <vector>

#include "RVO.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s UNITS SECONDS DT\n", argv[0]);
    return 2;
  }
  const int units = std::atoi(argv[1]);
  const double seconds = std::atof(argv[2]);
  const double dt = std::atof(argv[3]);
  if (units <= 0 || !(seconds > 0) || !(dt > 0)) {
    std::fprintf(stderr, "%s: UNITS, SECONDS and DT must be > 0\n", argv[0]);
    return 2;
  }
  constexpr float kRadius = 0.5F, kSpeed = 1.5F, kTolerance = 0.25F;
  RVO::RVOSimulator sim;
  sim.setTimeStep(static_cast<float>(dt));
  sim.setAgentDefaults(5.0F, 10U, 2.0F, 2.0F, kRadius, kSpeed);
  const double radius = std::max(10.0, units * 1.5 / (2 * std::numbers::pi));
  const double centre = radius + 10;
  std::vector<RVO::Vector2> goals;
  for (int i = 0; i < units; ++i) {
    const double a = 2 * std::numbers::pi * i / units;
    const double dx = std::cos(a), dy = std::sin(a);
    sim.addAgent(
        RVO::Vector2(static_cast<float>(centre + dx * radius), static_cast<float>(centre + dy * radius)));
    goals.emplace_back(static_cast<float>(centre - dx * radius), static_cast<float>(centre - dy * radius));
  }
  const auto steps = static_cast<long>(std::ceil(seconds / dt));
  long done_steps = 0;
  double nanos = 0, arrive_seconds = -1;
  std::size_t at_goal = 0;
  for (long s = 0; s < steps; ++s) {
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < sim.getNumAgents(); ++i) {
      RVO::Vector2 v = goals[i] - sim.getAgentPosition(i);
      const float len = RVO::abs(v);
      // Full speed, slowing to land on the goal in one step.
      const float want = std::min(kSpeed, len / static_cast<float>(dt));
      sim.setAgentPrefVelocity(i, len > 0 ? v * (want / len) : RVO::Vector2());
    }
    sim.doStep();
    nanos += std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    ++done_steps;
    at_goal = 0;
    for (std::size_t i = 0; i < sim.getNumAgents(); ++i)
      at_goal += RVO::abs(goals[i] - sim.getAgentPosition(i)) <= kTolerance ? 1 : 0;
    if (at_goal == static_cast<std::size_t>(units)) {
      arrive_seconds = done_steps * dt;
      break;
    }
  }
  std::printf(
      "{\"units\":%d,\"steps\":%ld,\"micros_per_unit_step\":%.6f,\"at_goal_pct\":%.3f,\"seconds_to_arrive\":%"
      ".3f}\n",
      units, done_steps, nanos / 1000.0 / (static_cast<double>(done_steps) * units), 100.0 * at_goal / units,
      arrive_seconds);
  return 0;
}
