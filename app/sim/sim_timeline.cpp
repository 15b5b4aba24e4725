// The timeline strip: scrubbing a recorded run (sim_timeline.hpp).

#include "app/sim/sim_timeline.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include <imgui.h>

namespace pathscope::app {

std::vector<std::uint64_t> timeline_events(const sim::Recording& recording,
                                           std::span<const sim::UnitId> selected) {
  std::vector<std::uint64_t> steps;
  for (const sim::RecordedStuck& s : recording.stuck()) steps.push_back(s.step);
  if (!selected.empty()) {
    for (const sim::Decision& d : recording.decisions()) {
      if (std::find(selected.begin(), selected.end(), d.unit) != selected.end()) steps.push_back(d.step);
    }
  }
  std::sort(steps.begin(), steps.end());
  steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
  return steps;
}

const std::vector<std::uint64_t>& TimelineEventCache::events(const sim::Recording& recording,
                                                             std::span<const sim::UnitId> selected) {
  Key key{&recording, recording.revision(), std::vector<sim::UnitId>(selected.begin(), selected.end())};
  if (key_ != key) {
    events_ = timeline_events(recording, selected);
    key_ = std::move(key);
    ++builds_;
  }
  return events_;
}

namespace {

// Pixels of the band the events are ticked in, above the slider.
constexpr float kTickBand = 7;

// A button with a tooltip, recorded in the probe.
bool button(EditorState& state, const char* label, const char* probe, const char* tip, bool enabled = true) {
  ImGui::BeginDisabled(!enabled);
  const bool pressed = ImGui::Button(label);
  ImGui::EndDisabled();
  state.probe.last_item(probe);
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", tip);
  ImGui::SameLine();
  return pressed;
}

}  // namespace

float sim_timeline_height(const SimPlayer& sim) {
  const sim::Recording* rec = sim.recording();
  if (!rec || rec->empty()) return 0;
  const ImGuiStyle& style = ImGui::GetStyle();
  return ImGui::GetFrameHeightWithSpacing() * 2 + kTickBand + style.ItemSpacing.y + style.WindowPadding.y * 2;
}

void sim_timeline(SimPlayer& sim, EditorState& state, TimelineEventCache& event_cache) {
  const sim::Recording* rec = sim.recording();
  if (!rec || rec->empty()) return;
  const std::uint64_t first = rec->first_step(), last = rec->last_step();
  const std::uint64_t shown = sim.shown_step();
  const std::vector<std::uint64_t>& events = event_cache.events(*rec, sim.selected());
  const auto next_event = std::upper_bound(events.begin(), events.end(), shown);
  const auto prev_event = std::lower_bound(events.begin(), events.end(), shown);

  if (button(state, "|<##tl", "sim_first", "The first recorded step", shown > first)) sim.scrub(first);
  if (button(state, "<##tl", "sim_back", "One step back", shown > first)) sim.step_back();
  if (button(state, sim.playing() ? "Pause##tl" : "Play##tl", "sim_timeline_play",
             "Play on from the step shown: the recording first, then the simulation past its end")) {
    if (sim.playing()) {
      sim.pause();
    } else {
      sim.play(state);
    }
  }
  if (button(state, ">##tl", "sim_forward",
             "One step forward (past the recording's end: one more simulated step)"))
    sim.step(state);
  if (button(state, ">|##tl", "sim_last", "The last recorded step (the simulation as it is now)",
             shown < last))
    sim.scrub(last);
  if (button(state, "<<##tl_event", "sim_prev_event",
             "The previous event: a stuck flag, or a decision of a selected unit",
             prev_event != events.begin())) {
    sim.scrub(*std::prev(prev_event));
  }
  if (button(state, ">>##tl_event", "sim_next_event",
             "The next event: a stuck flag, or a decision of a selected unit", next_event != events.end())) {
    sim.scrub(*next_event);
  }
  if (button(state, "Run from here", "sim_run_here",
             "Take the run up again at the step shown: the recorded steps after it are dropped",
             sim.viewing_recording())) {
    sim.run_from_here(state);
  }
  ImGui::Text("hash %s  %.1f MB%s", sim.shown_verified() ? "as recorded" : "DIFFERS",
              double(rec->bytes()) / (1 << 20), rec->stopped() ? "  (stopped: memory cap)" : "");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "State hash %016" PRIx64 "%s\n%s", sim.shown_hash(),
        sim.shown_verified() ? ": the step shown has exactly the state the simulation had"
                             : ": the decoded step differs from the recorded state",
        rec->stopped() ? rec->stop_message().c_str() : "Every step is recorded (keyframes plus deltas).");
  }
  // The events, ticked in a band above the slider over every recorded step.
  const float band = kTickBand;
  const ImVec2 band_lo = ImGui::GetCursorScreenPos();
  const float band_width = ImGui::GetContentRegionAvail().x;
  ImGui::Dummy(ImVec2(band_width, band));
  ImGui::SetNextItemWidth(-1);
  std::uint64_t value = shown;
  char format[96];
  std::snprintf(format, sizeof format, "%s step %%llu / %llu   t = %.2f s",
                sim.viewing_recording() ? "recorded" : "live", static_cast<unsigned long long>(last),
                sim.shown_time());
  const bool changed =
      ImGui::SliderScalar("##sim_timeline", ImGuiDataType_U64, &value, &first, &last, format);
  state.probe.last_item("sim_timeline");
  if (changed) sim.scrub(std::clamp(value, first, last));
  if (last > first) {
    const float grab = ImGui::GetStyle().GrabMinSize;
    const float x0 = band_lo.x + grab * 0.5f, x1 = band_lo.x + band_width - grab * 0.5f;
    ImDrawList& draw = *ImGui::GetWindowDrawList();
    const auto x_of = [&](std::uint64_t step) {
      return x0 + (x1 - x0) * float(step - first) / float(last - first);
    };
    for (const std::uint64_t step : events) {
      const float x = x_of(step);
      draw.AddLine(ImVec2(x, band_lo.y + band * 0.5f), ImVec2(x, band_lo.y + band),
                   IM_COL32(235, 235, 235, 200));
    }
    for (const sim::RecordedStuck& s : rec->stuck()) {
      const float x = x_of(s.step);
      draw.AddLine(ImVec2(x, band_lo.y), ImVec2(x, band_lo.y + band), IM_COL32(235, 55, 55, 230), 2);
    }
    // Where the step shown is.
    const float x = x_of(shown);
    draw.AddTriangleFilled(ImVec2(x - 4, band_lo.y), ImVec2(x + 4, band_lo.y), ImVec2(x, band_lo.y + band),
                           IM_COL32(255, 235, 60, 255));
  }
}

}  // namespace pathscope::app
