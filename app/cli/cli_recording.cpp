// `pathscope check-recording FILE.psrec [--resume-at STEP ...] [--run-on N]`: reads a
// recording headless (planner/sim/recording_check): decodes every frame and compares it
// with the state hash recorded for its step, describes every decision, and takes the run
// up again at the given steps (default: every snapshot), running each on for a few steps
// against the recording. A file that cannot be read is refused naming the file and the
// field, list item or byte offset.

#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/cli_commands.hpp"
#include "app/cli/command_table.hpp"
#include "planner/sim/recording.hpp"
#include "planner/sim/recording_check.hpp"

namespace pathscope::app {

int run_check_recording(const CheckRecordingOptions& options) {
  const char* file = options.path.c_str();
  auto recording = sim::Recording::load(options.path);
  if (!recording) {
    std::fprintf(stderr, "pathscope check-recording: %s\n", recording.error().to_string().c_str());
    return kExitFailed;
  }
  sim::RecordingCheckParams params;
  params.resume_at = options.resume_at;
  params.run_on = options.run_on;
  const auto report = sim::check_recording(*recording, params);
  if (!report) {
    std::fprintf(stderr, "pathscope check-recording: %s\n", report.error().to_string().c_str());
    return kExitFailed;
  }
  const sim::RecordingReport& r = *report;
  std::printf("%s: steps %" PRIu64 " to %" PRIu64 ", %" PRIu64
              " frames decoded (up to %zu unit slots, %" PRIu64
              " collisions), %zu decisions, %zu stuck flags, %zu snapshots\n",
              file, r.first_step, r.last_step, r.frames, r.max_slots, r.collisions, r.decisions, r.stuck,
              r.snapshots);
  if (r.hash_mismatches == 0) {
    std::printf("frames: every state hash as recorded\n");
  } else {
    std::printf("frames: %" PRIu64 " state hashes differ from those recorded, the first at step %" PRIu64
                "\n",
                r.hash_mismatches, r.first_mismatch);
  }
  for (const sim::ResumeCheck& c : r.resumes) {
    if (!c.error.empty()) {
      std::printf("resume at step %" PRIu64 ": failed: %s\n", c.step, c.error.c_str());
    } else {
      std::printf("resume at step %" PRIu64 ": ran on to step %" PRIu64 ", %" PRIu64
                  " steps as recorded, state_hash %016" PRIx64 "\n",
                  c.step, c.ran_to, c.compared, c.hash);
    }
  }
  std::printf("%s: %s\n", file, r.passed() ? "passed" : "failed");
  return r.passed() ? kExitOk : kExitFailed;
}

namespace {

CliRunner add_check_recording_options(CLI::App& command) {
  auto options = std::make_shared<CheckRecordingOptions>();
  command.add_option("file", options->path, "a recording (.psrec), as `simulate --record` writes")
      ->required();
  command.add_option("--resume-at", options->resume_at,
                     "take the run up again at these steps (default: every snapshot's step)");
  command.add_option("--run-on", options->run_on, "steps each run taken up again goes on for (default 10)")
      ->check(CLI::Range(0, 100000));
  return [options] { return run_check_recording(*options); };
}

}  // namespace

const CliCommand kCheckRecordingCommand{"check-recording",
                                        "read a recording headless: decode every frame against its state "
                                        "hash, take the run up again at given steps",
                                        add_check_recording_options};

}  // namespace pathscope::app
