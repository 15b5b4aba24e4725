#pragma once

// A headless check of a recording (issue 33): every frame decoded and compared with the
// state hash recorded for its step, every decision described, and the run taken up again
// ("run from here") at given steps and run on for a few steps, each compared with the
// recording while it holds them. `pathscope check-recording` prints its report; the
// recordings fuzzer (tests/planner/sim/recording_fuzz_test.cpp) drives it on damaged
// files.

#include <cstdint>
#include <string>
#include <vector>

#include "planner/core/result.hpp"
#include "planner/sim/recording.hpp"

namespace pathscope::sim {

/// What check_recording() does beyond decoding every frame.
struct RecordingCheckParams {
  /// Steps at which the run is taken up again; empty: the step of every snapshot.
  std::vector<std::uint64_t> resume_at;
  /// Steps each resumed run goes on for after its step (0: only taken up).
  std::uint64_t run_on = 10;
};

/// One run taken up again.
struct ResumeCheck {
  std::uint64_t step = 0;      ///< The step it was taken up at.
  std::uint64_t ran_to = 0;    ///< The step it ran on to (= step when it was refused).
  std::uint64_t compared = 0;  ///< Steps after `step` compared with the recording's hashes.
  std::uint64_t hash = 0;      ///< Its state hash at ran_to.
  /// Why it was refused or where it left the recording (naming the file); "" if it matched.
  std::string error;
};

/// What check_recording() found.
struct RecordingReport {
  std::uint64_t first_step = 0;  ///< The first recorded step.
  std::uint64_t last_step = 0;   ///< The last recorded step.
  std::uint64_t frames = 0;      ///< Frames decoded (every recorded step).
  std::size_t max_slots = 0;     ///< Most unit slots in a frame.
  std::uint64_t collisions = 0;  ///< Collisions over every frame.
  std::size_t decisions = 0;     ///< Decisions in the log (each described).
  std::size_t stuck = 0;         ///< Stuck flags.
  std::size_t snapshots = 0;     ///< Whole-state snapshots.
  /// Frames whose decoded state hash differs from the one recorded for their step.
  std::uint64_t hash_mismatches = 0;
  std::uint64_t first_mismatch = 0;  ///< The step of the first (when hash_mismatches > 0).
  std::vector<ResumeCheck> resumes;  ///< In the order of RecordingCheckParams::resume_at.

  /// True when every hash matched and every resumed run matched the recording.
  bool passed() const;
};

/// Checks `recording` as the file header says. An error (naming the file, the step and
/// the frame's bytes) when a frame is damaged; what is not damage (hashes that differ, a
/// run that cannot be taken up or leaves the recording) is in the report. A resumed run
/// is compared with the recording up to the next snapshot of another world (an edit
/// made while it was recorded), past which the recording ran in another world.
Result<RecordingReport> check_recording(const Recording& recording, const RecordingCheckParams& params);

}  // namespace pathscope::sim
