// The timeline's events (stuck flags and the selected units' decisions) and the cache
// that keeps them between frames instead of reading every decision each frame.

#include "app/sim/sim_timeline.hpp"

#include "planner/sim/sim_cases.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace pathscope;
using namespace pathscope::app;

namespace {

// A recording of `steps` steps of `scenario`, and the simulation it watched.
struct Run {
  sim::Simulation sim;
  sim::Recording recording;
  explicit Run(const Scenario& scenario) : sim(scenario), recording(scenario) {
    REQUIRE(recording.capture(sim));
  }
  void step(int steps) {
    for (int i = 0; i < steps; ++i) {
      sim.step();
      REQUIRE(recording.capture(sim));
    }
  }
};

}  // namespace

TEST_CASE(
    "timeline events: the cache gives timeline_events() and makes it again only when its inputs change") {
  Run run(sim::crossing_case(6));
  run.step(40);
  TimelineEventCache cache;
  const std::vector<sim::UnitId> none;
  const std::vector<sim::UnitId> first{run.sim.slots()[0].id};
  const std::vector<sim::UnitId> two{run.sim.slots()[0].id, run.sim.slots()[3].id};

  CHECK(cache.events(run.recording, first) == timeline_events(run.recording, first));
  CHECK(!cache.events(run.recording, first).empty());  // the unit's path request, at least
  CHECK(cache.builds() == 1);
  // Frame after frame with nothing changed: no new scan.
  for (int frame = 0; frame < 10; ++frame)
    CHECK(cache.events(run.recording, first) == timeline_events(run.recording, first));
  CHECK(cache.builds() == 1);

  // Another selection, then none.
  CHECK(cache.events(run.recording, two) == timeline_events(run.recording, two));
  CHECK(cache.builds() == 2);
  CHECK(cache.events(run.recording, none) == timeline_events(run.recording, none));
  CHECK(cache.builds() == 3);
  CHECK(cache.events(run.recording, two) == timeline_events(run.recording, two));
  CHECK(cache.builds() == 4);

  // The recording grows: made again, and it has the new decisions.
  const std::size_t decisions = run.recording.decisions().size();
  run.step(200);
  REQUIRE(run.recording.decisions().size() > decisions);
  CHECK(cache.events(run.recording, two) == timeline_events(run.recording, two));
  CHECK(cache.builds() == 5);
  CHECK(cache.events(run.recording, two) == timeline_events(run.recording, two));
  CHECK(cache.builds() == 5);

  // Cut back (Run from here): made again.
  run.recording.truncate_after(20);
  CHECK(cache.events(run.recording, two) == timeline_events(run.recording, two));
  CHECK(cache.builds() == 6);

  // Another recording of the same run: its own events.
  Run other(sim::crossing_case(6));
  other.step(10);
  CHECK(cache.events(other.recording, two) == timeline_events(other.recording, two));
  CHECK(cache.builds() == 7);
}
