#pragma once

// The timeline strip under the map, while a run is recorded or a recording is open: first,
// back one step, play / pause, forward one step, last; the previous and the next event;
// Run from here; a slider over every recorded step with the events ticked on it (stuck
// flags in red, the selected units' logged decisions in white); and the step, time, hash
// check and size of what is shown. Buttons are recorded in the UI probe (sim_first,
// sim_back, sim_timeline_play, sim_forward, sim_last, sim_prev_event, sim_next_event,
// sim_run_here, sim_timeline) for the window test.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "app/editor/editor_state.hpp"
#include "app/sim/sim_player.hpp"

namespace pathscope::app {

/// Steps of the recording worth jumping to: every stuck flag, and every logged decision
/// of the `selected` units; sorted, each once. Reads every decision: see TimelineEventCache.
std::vector<std::uint64_t> timeline_events(const sim::Recording& recording,
                                           std::span<const sim::UnitId> selected);

/// timeline_events() kept from frame to frame: made again only when the recording (which
/// one, and its revision) or the selection changes, rather than scanning every decision
/// each frame.
class TimelineEventCache {
 public:
  /// timeline_events(recording, selected); valid until the next call.
  const std::vector<std::uint64_t>& events(const sim::Recording& recording,
                                           std::span<const sim::UnitId> selected);
  /// How many times events() has made the list (not taken it from the cache).
  std::uint64_t builds() const { return builds_; }

 private:
  // What the list depends on. The recording is compared by address only (never read).
  struct Key {
    const sim::Recording* recording = nullptr;
    std::uint64_t revision = 0;
    std::vector<sim::UnitId> selected;
    friend bool operator==(const Key&, const Key&) = default;
  };
  std::optional<Key> key_;
  std::vector<std::uint64_t> events_;
  std::uint64_t builds_ = 0;
};

/// Pixels of height the strip needs: 0 without a recording.
float sim_timeline_height(const SimPlayer& sim);

/// The strip's body (inside an open ImGui window of sim_timeline_height()); `events`
/// keeps the ticked events between frames.
void sim_timeline(SimPlayer& sim, EditorState& state, TimelineEventCache& events);

}  // namespace pathscope::app
