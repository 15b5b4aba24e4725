// A headless check of a recording: frames, decisions and resumed runs (recording_check.hpp).

#include "planner/sim/recording_check.hpp"

#include <algorithm>
#include <limits>

namespace pathscope::sim {

namespace {

std::string step_text(std::uint64_t step) { return std::to_string(step); }

// The last step at which a run taken up at `step` is still the recorded run: the step of
// the next snapshot of another world (an edit made then), or the last recorded step.
std::uint64_t same_world_until(const Recording& recording, std::uint64_t step) {
  const Snapshot* from = recording.snapshot_before(step);
  for (const Snapshot& s : recording.snapshots()) {
    if (s.step > step && from && s.world != from->world) return s.step;
  }
  return recording.last_step();
}

ResumeCheck resume_at(const Recording& recording, std::uint64_t step, std::uint64_t run_on) {
  ResumeCheck check;
  check.step = step;
  check.ran_to = step;
  auto resumed = recording.resume(step);
  if (!resumed) {
    check.error = resumed.error().to_string();
    return check;
  }
  Simulation& simulation = **resumed;
  const std::uint64_t compare_to = same_world_until(recording, step);
  const std::uint64_t end = run_on > std::numeric_limits<std::uint64_t>::max() - step
                                ? std::numeric_limits<std::uint64_t>::max()
                                : step + run_on;
  while (simulation.step_count() < end) {
    simulation.step();
    const std::uint64_t now = simulation.step_count();
    if (now > compare_to || !recording.has(now)) continue;
    ++check.compared;
    if (check.error.empty() && !recording.matches(simulation)) {
      const std::string where = recording.source().empty() ? "" : recording.source() + ": ";
      check.error = where + "hashes: the run taken up at step " + step_text(step) +
                    " differs from the recording at step " + step_text(now);
    }
  }
  check.ran_to = simulation.step_count();
  check.hash = simulation.state_hash();
  return check;
}

}  // namespace

bool RecordingReport::passed() const {
  return hash_mismatches == 0 &&
         std::all_of(resumes.begin(), resumes.end(), [](const ResumeCheck& r) { return r.error.empty(); });
}

Result<RecordingReport> check_recording(const Recording& recording, const RecordingCheckParams& params) {
  RecordingReport report;
  report.first_step = recording.first_step();
  report.last_step = recording.last_step();
  const Status frames = recording.for_each_frame([&](const Frame& f) {
    ++report.frames;
    report.max_slots = std::max(report.max_slots, f.units.size());
    report.collisions += f.collisions.size();
    if (recording.hash_of(f.step, f.units) != recording.hash(f.step)) {
      if (report.hash_mismatches == 0) report.first_mismatch = f.step;
      ++report.hash_mismatches;
    }
    return true;
  });
  if (!frames) return frames.error();
  // Each decision as the window's log shows it (its values come from the file).
  for (const Decision& d : recording.decisions()) (void)describe(d);
  report.decisions = recording.decisions().size();
  report.stuck = recording.stuck().size();
  report.snapshots = recording.snapshots().size();
  std::vector<std::uint64_t> steps = params.resume_at;
  if (steps.empty()) {
    for (const Snapshot& s : recording.snapshots()) steps.push_back(s.step);
  }
  for (const std::uint64_t step : steps) report.resumes.push_back(resume_at(recording, step, params.run_on));
  return report;
}

}  // namespace pathscope::sim
