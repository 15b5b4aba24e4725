// SimPlayer: the window's fixed-step loop around the unit simulation (the accumulator,
// pause and single step the simulation leaves to its caller), and the RTS-style unit
// selection and move orders.

#include "app/sim/sim_player.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <string>
#include <utility>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "planner/sim/stuck_detector.hpp"

namespace pathscope::app {

std::vector<Vec2> platoon_points_ahead(const sim::PlatoonRun& p, std::span<const Vec2> ordered) {
  if (ordered.empty() || ordered.back() != p.goal) return {p.goal};
  if (p.order == sim::PlatoonOrderState::WaitingForPath) return {ordered.begin(), ordered.end()};
  if (p.order != sim::PlatoonOrderState::Driving) return {p.goal};
  // The legs joined at the points themselves: each is a vertex of the walk, in order.
  const std::span<const Vec2> vertices = p.walk.points();
  std::vector<Vec2> ahead;
  std::size_t j = 0;
  double arc = 0;
  for (std::size_t k = 0; k < ordered.size(); ++k) {
    while (j < vertices.size() && vertices[j] != ordered[k]) {
      if (j + 1 < vertices.size()) arc += glm::distance(vertices[j], vertices[j + 1]);
      ++j;
    }
    if (j == vertices.size()) {  // not on the walk: keep it and the rest
      ahead.insert(ahead.end(), ordered.begin() + static_cast<std::ptrdiff_t>(k), ordered.end());
      break;
    }
    if (arc > p.motion.along + 1e-6) ahead.push_back(ordered[k]);
  }
  if (ahead.empty()) ahead.push_back(p.goal);
  return ahead;
}

bool SimPlayer::ensure(EditorState& state) {
  if (active() && state.doc_serial == doc_serial_) return true;
  return reset(state);
}

bool SimPlayer::reset(EditorState& state) {
  if (!state.doc) return false;
  // The selection survives a reset by the units' scenario ids.
  std::vector<std::uint32_t> keep;
  if (sim_ && state.doc_serial == doc_serial_) {
    for (const sim::UnitId id : selected_) {
      if (const sim::SimUnit* u = sim_->unit(id)) keep.push_back(u->scenario_id);
    }
  }
  const Scenario& scenario = state.doc->scenario();
  Result<std::unique_ptr<sim::Simulation>> created = sim::Simulation::create(scenario);
  if (!created) {
    state.report_error("Simulation not started: " + created.error().to_string());
    stop();
    return false;
  }
  sim_ = std::move(*created);
  platoon_orders_.clear();
  // A saved game runs on from where it was saved.
  if (!scenario.sim_state.empty()) {
    if (const Status restored = sim_->restore_state(scenario.sim_state); !restored.ok()) {
      state.report_error("Saved game not restored (the simulation starts afresh): " +
                         restored.error().to_string());
      sim_ = std::make_unique<sim::Simulation>(scenario);
    }
  }
  referee_ = sim::SimReferee{};
  referee_.check_step(*sim_);  // as placed
  crowd_.reset();
  crowd_note_.clear();
  if (crowd_mode_ != CrowdMode::Ours) {
    if (scenario.sim_state.empty()) {
      (void)build_crowd(scenario, state);
    } else {
      drop_crowd(state,
                 "a saved game runs on from where it was saved, and DetourCrowd runs only from the "
                 "scenario's start");
    }
  }
  doc_serial_ = state.doc_serial;
  revision_ = state.doc->revision();
  playing_ = false;
  accumulator_ = 0;
  selected_.clear();
  // Every run in the window is recorded, from its first state on.
  recording_ = std::make_shared<sim::Recording>(scenario, sim::RecordingLimits{.max_bytes = kRecordingCap});
  (void)recording_->capture(*sim_);
  cap_reported_ = false;
  view_.reset();
  focus_.reset();
  for (const std::uint32_t scenario_id : keep) {
    if (const sim::SimUnit* u = sim_->find_scenario_unit(scenario_id)) selected_.push_back(u->id);
  }
  ++version_;
  return true;
}

bool SimPlayer::play(EditorState& state) {
  if (!ensure(state)) return false;
  playing_ = true;
  started_ = true;
  accumulator_ = 0;
  return true;
}

void SimPlayer::pause() {
  playing_ = false;
  accumulator_ = 0;
}

bool SimPlayer::step(EditorState& state) {
  pause();
  if (!ensure(state)) return false;
  if (view_) {
    // Through the recording, then live past its end.
    if (view_->frame.step < recording_->last_step()) return show(view_->frame.step + 1).ok();
    if (!go_live(state)) return false;
  }
  advance(1, state);
  return true;
}

void SimPlayer::stop() {
  if (active()) ++version_;
  sim_.reset();
  crowd_.reset();
  crowd_note_.clear();
  recording_.reset();
  view_.reset();
  focus_.reset();
  playing_ = false;
  accumulator_ = 0;
  selected_.clear();
}

int SimPlayer::update(EditorState& state, double frame_seconds) {
  if (!active()) return 0;
  if (!state.doc || state.doc_serial != doc_serial_) {
    stop();
    return 0;
  }
  if (state.doc->revision() != revision_ && sim_) {
    // Documents hold valid scenarios only (every edit is validated), as update_world needs.
    revision_ = state.doc->revision();
    // The simulation's world holds the density cost, whose factors on the edited cells
    // can take it over the raster's surface limit: the simulation stops, the edit stays.
    if (const Status updated = sim_->update_world(state.doc->scenario()); !updated) {
      state.report_error("Simulation stopped: " + updated.error().to_string());
      stop();
      return 0;
    }
    if (recording_) recording_->world_changed(*sim_);
    if (crowd_) drop_crowd(state, "the world was edited (the crowd's navmeshes are built once)");
    ++version_;
  }
  if (!playing_) return 0;
  // The frame that pressed Play measured the idle time before it: it plays nothing.
  if (std::exchange(started_, false) || !(frame_seconds > 0)) return 0;
  const double dt = shown_scenario()->sim.dt;
  accumulator_ += std::min(frame_seconds, kMaxFrameSeconds) * speed_;
  const double whole = std::floor(accumulator_ / dt);
  if (whole < 1) return 0;
  const int cap = max_steps_per_frame();
  const int count = int(std::min<double>(whole, cap));
  // Behind by more than a frame may run: the rest is dropped, so a slow frame never spirals.
  accumulator_ = whole > cap ? 0 : accumulator_ - whole * dt;
  if (view_) {
    // Playing the recording back, then live past its end.
    const std::uint64_t last = recording_->last_step();
    const std::uint64_t from = view_->frame.step;
    const std::uint64_t next = std::min<std::uint64_t>(from + std::uint64_t(count), last);
    if (const Status shown = show(next); !shown.ok()) {
      // A damaged frame: playing on would show the same step forever.
      pause();
      state.report_error("playback paused at step " + std::to_string(from) + ": step " +
                         std::to_string(next) + " cannot be shown: " + shown.error().to_string());
      return 0;
    }
    if (next == last && !go_live(state)) playing_ = false;
    return count;
  }
  advance(count, state);
  return count;
}

void SimPlayer::set_speed(double speed) { speed_ = std::clamp(speed, kMinSpeed, kMaxSpeed); }

int SimPlayer::max_steps_per_frame() const { return std::max(1, int(std::ceil(8 * speed_))); }

void SimPlayer::advance(int count, EditorState& state) {
  for (int i = 0; i < count; ++i) {
    sim_->step();
    referee_.check_step(*sim_);
    if (crowd_) crowd_->step();  // the same step, the same dt
    if (recording_ && !recording_->capture(*sim_) && !cap_reported_) {
      cap_reported_ = true;
      state.report_warning(recording_->stop_message());
    }
  }
  prune_selection();
  ++version_;
}

void SimPlayer::prune_selection() {
  if (!active()) return;
  std::erase_if(selected_, [this](sim::UnitId id) { return shown_unit(id) == nullptr; });
}

void SimPlayer::load_recording(std::shared_ptr<sim::Recording> recording, EditorState& state) {
  stop();
  if (!recording || recording->empty() || !state.doc) return;
  recording_ = std::move(recording);
  doc_serial_ = state.doc_serial;
  revision_ = state.doc->revision();
  cap_reported_ = recording_->stopped();
  if (!show(recording_->first_step()).ok()) {
    state.report_error("the recording's first step cannot be shown: its frame is damaged");
    stop();
  }
}

Status SimPlayer::save_recording(const std::filesystem::path& path) const {
  if (!recording_ || recording_->empty())
    return make_error(ErrorCode::Value, path.string(), "nothing recorded: play or step the simulation first");
  return recording_->save(path);
}

std::uint64_t SimPlayer::shown_step() const {
  if (view_) return view_->frame.step;
  return sim_ ? sim_->step_count() : 0;
}

double SimPlayer::shown_time() const {
  const Scenario* s = shown_scenario();
  return s ? static_cast<double>(shown_step()) * s->sim.dt : 0;
}

std::uint64_t SimPlayer::shown_hash() const {
  if (view_) return recording_->hash(view_->frame.step);
  return sim_ ? sim_->state_hash() : 0;
}

Status SimPlayer::show(std::uint64_t step) {
  Result<sim::Frame> frame =
      recording_ ? recording_->frame(step) : make_error(ErrorCode::Value, "", "no recording");
  if (!frame) return frame.error();
  View v;
  v.verified = recording_->hash_of(step, frame->units) == recording_->hash(step);
  v.frame = std::move(frame).value();
  view_ = std::move(v);
  focus_.reset();
  prune_selection();
  ++version_;
  return Ok{};
}

bool SimPlayer::scrub(std::uint64_t step) {
  pause();
  if (!recording_ || !recording_->has(step)) return false;
  if (sim_ && step == sim_->step_count()) {
    // The simulation's own step: live.
    if (view_) {
      view_.reset();
      focus_.reset();
      ++version_;
    }
    return true;
  }
  return show(step).ok();
}

bool SimPlayer::step_back() {
  pause();
  if (!recording_ || recording_->empty()) return false;
  const std::uint64_t now = shown_step();
  if (now <= recording_->first_step()) return false;
  return show(now - 1).ok();
}

bool SimPlayer::go_live(EditorState& state) {
  if (!view_) return true;
  if (sim_ && sim_->step_count() == view_->frame.step) {
    view_.reset();
    ++version_;
    return true;
  }
  return run_from_here(state);
}

bool SimPlayer::run_from_here(EditorState& state) {
  if (!view_) return sim_ != nullptr;
  const std::uint64_t step = view_->frame.step;
  if (sim_ && sim_->step_count() == step) return go_live(state);
  auto resumed = recording_->resume(step);
  if (!resumed) {
    state.report_error("cannot take the run up again at step " + std::to_string(step) + ": " +
                       resumed.error().to_string());
    return false;
  }
  sim_ = std::move(resumed).value();
  platoon_orders_.clear();
  if (crowd_) drop_crowd(state, "the run was taken up again from a recorded step");
  referee_ = sim::SimReferee{};
  referee_.check_step(*sim_);
  recording_->truncate_after(step);
  cap_reported_ = false;
  // The run goes on with the world it had then; the document's next edit reaches it.
  revision_ = state.doc ? state.doc->revision() : revision_;
  view_.reset();
  ++version_;
  state.report("the run goes on from step " + std::to_string(step) +
               " (the recorded steps after it are dropped)");
  return true;
}

std::span<const sim::SimUnit> SimPlayer::shown_units() const {
  if (view_) return view_->frame.units;
  if (sim_) return sim_->slots();
  return {};
}

std::span<const sim::Collision> SimPlayer::shown_collisions() const {
  if (view_) return view_->frame.collisions;
  if (sim_) return sim_->collisions();
  return {};
}

const Scenario* SimPlayer::shown_scenario() const {
  if (sim_) return &sim_->scenario();
  if (recording_) return &recording_->start();
  return nullptr;
}

const sim::SimUnit* SimPlayer::shown_unit(sim::UnitId id) const {
  const auto units = shown_units();
  if (id.index >= units.size()) return nullptr;
  const sim::SimUnit& u = units[id.index];
  return u.alive && u.id == id ? &u : nullptr;
}

render::SimScene SimPlayer::scene() const {
  render::SimScene scene;
  if (view_) {
    scene.scenario = shown_scenario();
    scene.units = view_->frame.units;
    scene.collisions = view_->frame.collisions;
    scene.platoons = view_->frame.platoons;
    scene.selected = selected_;
  } else {
    scene = render::sim_scene(*sim_, selected_);
  }
  scene.focus = focus_;
  if (recording_ && recording_->has(shown_step())) scene.stuck = recording_->stuck_at(shown_step());
  return scene;
}

const sim::StuckDetector* SimPlayer::stuck_detector() const {
  if (!sim_ || !recording_ || recording_->empty() || recording_->last_step() != sim_->step_count())
    return nullptr;
  return recording_->detector();
}

std::optional<std::vector<sim::UnitId>> SimPlayer::stuck_shown() const {
  if (!recording_ || !recording_->has(shown_step())) return std::nullopt;
  return recording_->stuck_at(shown_step());
}

Result<Scenario> SimPlayer::saved_game_shown() const {
  if (!active()) return make_error(ErrorCode::Value, "", "no simulation is running (Play or Step it first)");
  if (!view_) {
    const sim::StuckDetector* detector = stuck_detector();
    return detector ? sim::saved_game(*sim_, *detector) : sim::saved_game(*sim_);
  }
  // A recorded step: the run as it was then, made again from the recording.
  auto resumed = recording_->resume(view_->frame.step);
  if (!resumed) return resumed.error();
  return sim::saved_game(**resumed);
}

void SimPlayer::set_focus(std::optional<Vec2> point) {
  focus_ = point;
  ++version_;
}

void SimPlayer::select(std::span<const sim::UnitId> ids) {
  selected_.clear();
  add_to_selection(ids, false);
}

void SimPlayer::add_to_selection(std::span<const sim::UnitId> ids, bool toggle) {
  if (!active()) return;
  for (const sim::UnitId id : ids) {
    if (!shown_unit(id)) continue;
    const auto it = std::find(selected_.begin(), selected_.end(), id);
    if (it == selected_.end()) {
      selected_.push_back(id);
    } else if (toggle) {
      selected_.erase(it);
    }
  }
  ++version_;
}

void SimPlayer::clear_selection() {
  if (selected_.empty()) return;
  selected_.clear();
  ++version_;
}

std::optional<sim::UnitId> SimPlayer::unit_at(Vec2 p, double tolerance) const {
  if (!active()) return std::nullopt;
  const Scenario& s = *shown_scenario();
  std::optional<sim::UnitId> best;
  double best_gap = 0;
  for (const sim::SimUnit& u : shown_units()) {
    if (!u.alive) continue;
    const double radius = u.movement_class < s.classes.size()
                              ? sim::resolve_motion(s.classes[u.movement_class]).hard_radius
                              : sim::Motion{}.hard_radius;
    // Distance outside the body: the unit whose edge is nearest wins (ties: lower slot).
    const double gap = glm::length(p - u.body.position) - radius;
    if (gap <= tolerance && (!best || gap < best_gap)) {
      best = u.id;
      best_gap = gap;
    }
  }
  return best;
}

std::vector<sim::UnitId> SimPlayer::units_in_box(Vec2 a, Vec2 b) const {
  std::vector<sim::UnitId> out;
  const Vec2 lo = glm::min(a, b), hi = glm::max(a, b);
  for (const sim::SimUnit& u : shown_units()) {
    if (u.alive && u.body.position.x >= lo.x && u.body.position.x <= hi.x && u.body.position.y >= lo.y &&
        u.body.position.y <= hi.y) {
      out.push_back(u.id);
    }
  }
  return out;
}

Result<std::size_t> SimPlayer::command_move(Vec2 point, bool append, std::optional<double> heading) {
  if (view_) {
    return make_error(ErrorCode::Value, "",
                      "the timeline shows recorded step " + std::to_string(view_->frame.step) +
                          ": Run from here (or play to its end) to give orders");
  }
  if (!sim_ || selected_.empty()) return std::size_t(0);
  // Platoons go as platoons: their vehicles leave the group order below.
  const std::vector<std::uint32_t> platoons = selected_platoons();
  std::vector<sim::UnitId> others;
  for (const sim::UnitId id : selected_) {
    bool in_platoon = false;
    for (const std::uint32_t g : platoons) {
      const sim::PlatoonRun* p = platoon(g);
      in_platoon = in_platoon || std::find(p->slots.begin(), p->slots.end(), id) != p->slots.end();
    }
    if (!in_platoon) others.push_back(id);
  }
  std::size_t taken = 0;
  ++version_;
  if (!others.empty()) {
    Order order;
    order.kind = OrderKind::Move;
    order.points = {point};
    if (append) {
      order.kind = OrderKind::Waypoints;
      order.points.clear();
      // The first such unit's points still ahead, then the new one.
      const sim::SimUnit* lead = sim_->unit(others.front());
      if (lead && !lead->goal.arrived &&
          (lead->route.order.kind == OrderKind::Move || lead->route.order.kind == OrderKind::Waypoints)) {
        const std::size_t from = std::min(lead->route.order_point, lead->route.order.points.size());
        order.points.assign(lead->route.order.points.begin() + std::ptrdiff_t(from),
                            lead->route.order.points.end());
        // Its last point is its own slot of a group's formation: the route goes on from
        // the point the group was ordered to.
        if (lead->goal.formation && !order.points.empty()) order.points.back() = lead->goal.formation_point;
      }
      order.points.push_back(point);
    }
    Result<std::size_t> given = sim_->give_order(others, order);
    if (!given.ok()) return given;
    taken += *given;
  }
  for (const std::uint32_t g : platoons) {
    Order order;
    order.kind = OrderKind::Move;
    order.points = {point};
    // Appended: through the points it still has to reach (from where it is), then `point`.
    const sim::PlatoonRun* p = platoon(g);
    auto remembered = std::find_if(platoon_orders_.begin(), platoon_orders_.end(),
                                   [&](const auto& o) { return o.first == g; });
    if (remembered == platoon_orders_.end())
      remembered = platoon_orders_.insert(platoon_orders_.end(), {g, {}});
    if (append &&
        (p->order == sim::PlatoonOrderState::Driving || p->order == sim::PlatoonOrderState::WaitingForPath)) {
      order.kind = OrderKind::Waypoints;
      order.points = platoon_points_ahead(*p, remembered->second);
      order.points.push_back(point);
    }
    Result<std::size_t> given = sim_->order_platoon(g, order, heading);
    if (!given.ok()) return given;
    remembered->second = order.points;
    taken += *given;
  }
  if (crowd_) {
    // The same units' agents, straight to the point (DetourCrowd has one target per
    // agent: no waypoints, formations or platoons).
    const std::vector<Unit>& units = crowd_->scenario().units;
    std::vector<std::size_t> agents;
    for (const sim::UnitId id : selected_) {
      const sim::SimUnit* u = sim_->unit(id);
      if (!u) continue;
      const auto it =
          std::find_if(units.begin(), units.end(), [&](const Unit& su) { return su.id == u->scenario_id; });
      if (it != units.end()) agents.push_back(std::size_t(it - units.begin()));
    }
    (void)crowd_->order(agents, point);
  }
  return taken;
}

bool SimPlayer::set_crowd_mode(CrowdMode mode, EditorState& state) {
  if (mode == crowd_mode_) return true;
  const CrowdMode was = crowd_mode_;
  crowd_mode_ = mode;
  ++version_;
  if (mode == CrowdMode::Ours) {
    crowd_.reset();
    crowd_note_.clear();
    return true;
  }
  // Both runs start together from the scenario.
  if (was == CrowdMode::Ours || !crowd_) return reset(state) && crowd_ != nullptr;
  return true;
}

bool SimPlayer::build_crowd(const Scenario& scenario, EditorState& state) {
  Result<std::unique_ptr<CrowdRun>> made = CrowdRun::create(scenario);
  if (!made) {
    state.report_error("DetourCrowd not started: " + made.error().to_string());
    crowd_mode_ = CrowdMode::Ours;
    return false;
  }
  crowd_ = std::move(made).value();
  crowd_note_.clear();
  return true;
}

void SimPlayer::drop_crowd(EditorState& state, const std::string& why) {
  crowd_.reset();
  crowd_note_ = why;
  state.report_warning("DetourCrowd's run stopped: " + why + " (Reset starts both runs again)");
  ++version_;
}

std::vector<std::uint32_t> SimPlayer::selected_platoons() const {
  std::vector<std::uint32_t> groups;
  if (!sim_ || view_) return groups;
  for (const sim::PlatoonRun& p : sim_->platoons()) {
    for (const sim::UnitId id : p.slots) {
      if (sim_->unit(id) && std::find(selected_.begin(), selected_.end(), id) != selected_.end()) {
        groups.push_back(p.group);
        break;
      }
    }
  }
  return groups;
}

const sim::PlatoonRun* SimPlayer::platoon(std::uint32_t group) const {
  if (!sim_) return nullptr;
  for (const sim::PlatoonRun& p : sim_->platoons()) {
    if (p.group == group) return &p;
  }
  return nullptr;
}

Status SimPlayer::change_formation(std::uint32_t group, std::string_view formation) {
  if (view_) {
    return make_error(ErrorCode::Value, "",
                      "the timeline shows recorded step " + std::to_string(view_->frame.step) +
                          ": Run from here (or play to its end) to change a formation");
  }
  if (!sim_) return make_error(ErrorCode::Value, "", "no simulation runs");
  Status changed = sim_->change_formation(group, formation);
  ++version_;
  return changed;
}

double remaining_path_length(const sim::SimUnit& unit) {
  if (unit.route.waypoint >= unit.route.path.size()) return 0;
  double length = glm::length(unit.route.path[unit.route.waypoint] - unit.body.position);
  for (std::size_t i = unit.route.waypoint + 1; i < unit.route.path.size(); ++i) {
    length += glm::length(unit.route.path[i] - unit.route.path[i - 1]);
  }
  return length;
}

std::size_t collision_count(std::span<const sim::Collision> collisions, sim::UnitId id) {
  std::size_t n = 0;
  for (const sim::Collision& c : collisions) n += (c.a == id || c.b == id) ? 1 : 0;
  return n;
}

const char* yield_name(sim::Yield yield) {
  switch (yield) {
    case sim::Yield::None: return "none";
    case sim::Yield::Wait: return "wait";
    case sim::Yield::SlowDown: return "slow_down";
    case sim::Yield::MoveAside: return "move_aside";
    case sim::Yield::Return: return "return";
    case sim::Yield::Detour: return "detour";
  }
  return "none";
}

}  // namespace pathscope::app
