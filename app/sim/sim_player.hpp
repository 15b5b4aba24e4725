#pragma once

// The unit simulation as the window runs it: built from the open document's scenario,
// played, paused, stepped and reset, fed the document's edits, and the units the player
// has selected and ordered about. The simulation advances only by its fixed dt; the
// window's frame times only fill an accumulator, so they never change a result.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "app/editor/editor_state.hpp"
#include "planner/core/result.hpp"
#include "planner/navmesh/crowd_run.hpp"
#include "planner/sim/platoon_drive.hpp"
#include "planner/sim/recording.hpp"
#include "planner/sim/sim_referee.hpp"
#include "planner/sim/simulation.hpp"
#include "render/sim/sim_painter.hpp"

namespace pathscope::app {

/// Play, pause, step, reset and speed of the unit simulation; the unit selection and
/// orders. Owns the Simulation (none until played, stepped or reset) and its recording:
/// every step is recorded, and the timeline shows any recorded step (scrubbing), plays
/// the recording back, or takes the run up again from a recorded step.
class SimPlayer {
 public:
  /// Memory cap of a recording made in the window.
  static constexpr std::size_t kRecordingCap = std::size_t{512} << 20;
  /// Longest frame time counted (a frame after a stall counts as this long).
  static constexpr double kMaxFrameSeconds = 0.25;
  /// Speed multiplier limits.
  static constexpr double kMinSpeed = 0.25;
  static constexpr double kMaxSpeed = 8;

  /// The simulation, or nullptr before the first play, step or reset (and after stop()).
  const sim::Simulation* simulation() const { return sim_.get(); }
  bool playing() const { return playing_; }

  /// Builds the simulation afresh from the document's scenario, paused at step 0; the
  /// selection keeps the units that are still there. False (and an error message) when
  /// the scenario cannot be simulated.
  bool reset(EditorState& state);
  /// Starts playing, building the simulation first if there is none.
  bool play(EditorState& state);
  /// Stops playing; the simulation stays as it is.
  void pause();
  /// Pauses and advances exactly one step (building the simulation first if there is none).
  bool step(EditorState& state);
  /// Discards the simulation and the selection (the scenario's units show again).
  void stop();
  /// Once per frame: follows the document (another document stops the simulation; an
  /// edit of this one goes to Simulation::update_world) and, while playing, adds
  /// frame_seconds (at most kMaxFrameSeconds) x speed() to the accumulator and runs the
  /// whole steps it holds, at most max_steps_per_frame(); a frame that falls further
  /// behind drops the rest. The first frame of a play adds nothing. Playing a recording
  /// back, a step whose frame is damaged pauses it (an error names the step and the
  /// reason). Returns the steps run.
  int update(EditorState& state, double frame_seconds);

  /// Simulated seconds per real second (kMinSpeed .. kMaxSpeed).
  double speed() const { return speed_; }
  void set_speed(double speed);
  /// Most steps one frame may run: 8 x speed, at least 1.
  int max_steps_per_frame() const;
  /// Simulated seconds waiting in the accumulator (less than one dt after an update).
  double accumulator() const { return accumulator_; }

  /// The selected units, alive at the last check, in selection order.
  std::span<const sim::UnitId> selected() const { return selected_; }
  /// Selects `ids` (ids of units not alive are dropped; duplicates kept once).
  void select(std::span<const sim::UnitId> ids);
  /// Adds `ids` to the selection, or with `toggle` removes those already selected.
  void add_to_selection(std::span<const sim::UnitId> ids, bool toggle);
  void clear_selection();
  /// The alive unit whose hard radius plus `tolerance` (metres) holds `p`, the nearest
  /// if several; nullopt if none or no simulation.
  std::optional<sim::UnitId> unit_at(Vec2 p, double tolerance) const;
  /// Alive units whose centre lies in the box spanned by `a` and `b` (any corners), in
  /// slot order.
  std::vector<sim::UnitId> units_in_box(Vec2 a, Vec2 b) const;
  /// Orders the selected units to `point`. Each platoon one of whose vehicles is
  /// selected (selected_platoons) moves as a platoon (Simulation::order_platoon: one
  /// path, its formation) to `point`, to face `heading` at the end (radians as
  /// Unit::heading; none: its path's last way); with `append`, a platoon under way goes
  /// through the point it was ordered to (or the points it still plans legs to) first. The other selected
  /// units take a Move order, or with `append` a Waypoints order through the first of them's remaining Move
  /// or Waypoints points, then `point`: one group order. Returns how many units took an
  /// order (0: no selection), or the first refusal.
  Result<std::size_t> command_move(Vec2 point, bool append, std::optional<double> heading = std::nullopt);
  /// Scenario group ids of the platoons of the simulation one of whose vehicles is
  /// selected, in the simulation's platoon order (none while a recorded step is shown).
  std::vector<std::uint32_t> selected_platoons() const;
  /// The simulation's platoon of scenario group `group`, or nullptr.
  const sim::PlatoonRun* platoon(std::uint32_t group) const;
  /// Changes platoon `group`'s formation (Simulation::change_formation: a built-in name
  /// or one of the scenario's); an error names the formation or the group, or says that a
  /// recorded step is shown.
  Status change_formation(std::uint32_t group, std::string_view formation);

  /// Changes whenever what is drawn of the simulation changes (a step, a reset, an order,
  /// the selection, a world update, a scrub): the window repaints when it does.
  std::uint64_t version() const { return version_; }

  // [SECTION] The recording and the timeline ------------------------------------------

  /// The run's recording, or nullptr (none before the first play, step or reset).
  const sim::Recording* recording() const { return recording_.get(); }
  /// Shows a recording opened from a file at its first step, with no simulation: Play
  /// plays it back, and past its end (or with run_from_here) the run is taken up again.
  void load_recording(std::shared_ptr<sim::Recording> recording, EditorState& state);
  /// Writes the recording (atomically); an error naming the path, or none to write.
  Status save_recording(const std::filesystem::path& path) const;
  /// A simulation or a recorded step to show.
  bool active() const { return sim_ != nullptr || view_.has_value(); }
  /// True while a recorded step is shown instead of the simulation as it is now.
  bool viewing_recording() const { return view_.has_value(); }
  /// The step shown (0 when nothing is).
  std::uint64_t shown_step() const;
  /// Seconds simulated at the step shown.
  double shown_time() const;
  /// The state hash of the step shown: the simulation's, or the recorded one.
  std::uint64_t shown_hash() const;
  /// The shown frame's decoded state has the hash recorded for its step (always true
  /// live): scrubbing shows exactly the state the simulation had.
  bool shown_verified() const { return !view_ || view_->verified; }
  /// Shows a recorded step (and pauses); the simulation's own step shows it live. False
  /// if the step was not recorded or its frame is damaged (then nothing changes).
  bool scrub(std::uint64_t step);
  /// Shows the step before the one shown (pauses); false at the first recorded step.
  bool step_back();
  /// Takes the run up again at the recorded step shown: the simulation is made again
  /// there from the recording and the recorded steps after it are dropped. True if live.
  bool run_from_here(EditorState& state);
  /// Unit slots, collisions and scenario of what is shown (empty with nothing shown).
  std::span<const sim::SimUnit> shown_units() const;
  std::span<const sim::Collision> shown_collisions() const;
  const Scenario* shown_scenario() const;
  /// The shown unit `id` names, or nullptr.
  const sim::SimUnit* shown_unit(sim::UnitId id) const;
  /// What the window draws of what is shown; needs active().
  render::SimScene scene() const;
  /// The stuck detector watching the simulation up to its current step (the recording's),
  /// or nullptr.
  const sim::StuckDetector* stuck_detector() const;
  /// Units stuck at the step shown, by the stuck detector's one definition (flagged after
  /// sim.stuck_seconds with less than sim.stuck_progress metres of progress towards their
  /// order point, and no progress since: Recording::stuck_at): the number `pathscope
  /// simulate` reports as stuck at that step. nullopt when the step shown was not recorded
  /// (the recording stopped at its memory cap), so nobody watched it.
  std::optional<std::vector<sim::UnitId>> stuck_shown() const;
  /// The step shown as a saved game (Save Game As): the live step with the stuck
  /// detector's tracks; a recorded step taken up again from the recording
  /// (Recording::resume: the state hash recorded for it), whose stuck detector starts
  /// afresh. An error when nothing is shown or the step cannot be taken up again.
  Result<Scenario> saved_game_shown() const;
  /// The referee checking the live run since it was built, restored or taken up again
  /// (overlaps, tunnelling, units inside walls, goal errors: planner/sim/sim_referee.hpp).
  const sim::SimReferee& referee() const { return referee_; }
  /// Marks a point in the scene (a log entry's) until the next scrub, or clears it.
  void set_focus(std::optional<Vec2> point);

  // [SECTION] DetourCrowd beside the simulation ---------------------------------------

  /// Which run the window shows: ours, DetourCrowd's agents instead of our units, or both
  /// (the agents as outlined ghosts over our units).
  enum class CrowdMode : std::uint8_t { Ours, Detour, Both };
  CrowdMode crowd_mode() const { return crowd_mode_; }
  /// Chooses the mode. Turning DetourCrowd on (from Ours) resets the run, so that both
  /// start together from the scenario (reset()); between Detour and Both only the drawing
  /// changes; Ours drops the crowd's run. False (and an error message) when the crowd
  /// cannot be built: the mode is then Ours.
  bool set_crowd_mode(CrowdMode mode, EditorState& state);
  /// DetourCrowd's run of the scenario's units (planner/navmesh/crowd_run.hpp), stepped
  /// with every live step of the simulation and given the same orders; nullptr in mode
  /// Ours, or once the two runs part (a world edit, a run taken up from a recorded step,
  /// a saved game: DetourCrowd runs only from the scenario's start).
  const CrowdRun* crowd() const { return crowd_.get(); }
  /// Whether the crowd's agents are drawn now (a crowd run, and the live step shown).
  bool crowd_shown() const { return crowd_ != nullptr && !view_.has_value(); }
  /// Why the crowd's run was dropped while the mode is not Ours ("" when it runs or was
  /// never built); Reset builds both again.
  const std::string& crowd_note() const { return crowd_note_; }

 private:
  // Builds the simulation if there is none; false if it cannot be built.
  bool ensure(EditorState& state);
  // Runs `count` steps, recording each.
  void advance(int count, EditorState& state);
  // Drops selected ids whose units are gone.
  void prune_selection();
  // Shows recorded step `step`; the frame's error (naming the step) if it cannot be decoded.
  Status show(std::uint64_t step);
  // The recording's end is reached while viewing it: live from there.
  bool go_live(EditorState& state);

  struct View {
    sim::Frame frame;
    bool verified = false;
  };
  // Builds the crowd's run from `scenario` (mode not Ours); false and a message if it cannot.
  bool build_crowd(const Scenario& scenario, EditorState& state);
  // The crowd's run and our simulation part: it is dropped, saying why.
  void drop_crowd(EditorState& state, const std::string& why);

  std::unique_ptr<sim::Simulation> sim_;
  std::unique_ptr<CrowdRun> crowd_;
  CrowdMode crowd_mode_ = CrowdMode::Ours;
  std::string crowd_note_;
  sim::SimReferee referee_;
  std::shared_ptr<sim::Recording> recording_;
  std::optional<View> view_;
  std::optional<Vec2> focus_;
  bool cap_reported_ = false;
  bool playing_ = false;
  bool started_ = false;  // play() was called and no frame has passed since
  double speed_ = 1;
  double accumulator_ = 0;
  std::vector<sim::UnitId> selected_;
  /// Per platoon (group id): the points of the last order given here, so that an
  /// appended waypoint keeps those not reached yet.
  std::vector<std::pair<std::uint32_t, std::vector<Vec2>>> platoon_orders_;
  std::uint64_t version_ = 0;
  std::uint64_t doc_serial_ = 0;  // the document the simulation was built from
  std::uint64_t revision_ = 0;    // its revision the simulation's world has
};

/// The points of `ordered` (the platoon's last order, its last point the platoon's goal)
/// the platoon has not reached yet: all of them while it waits for its path; while it
/// drives, those whose vertex on its walk lies ahead of it. Without its order ({} or
/// another goal: an order given elsewhere), its goal only.
std::vector<Vec2> platoon_points_ahead(const sim::PlatoonRun& platoon, std::span<const Vec2> ordered);

/// Metres left of `unit`'s path: from its position to its current waypoint, then along
/// the rest of the path (0 with no path, or past its end).
double remaining_path_length(const sim::SimUnit& unit);

/// Collisions in `collisions` (a step's) that involve `id`.
std::size_t collision_count(std::span<const sim::Collision> collisions, sim::UnitId id);

/// snake_case name of a yield ("none", "wait", "slow_down", "move_aside", "return", "detour").
const char* yield_name(sim::Yield yield);

}  // namespace pathscope::app
