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

#include "planner/scenario/scenario_validate.hpp"

namespace pathscope::app {

bool SimPlayer::ensure(EditorState& state) {
  if (sim_ && state.doc_serial == doc_serial_) return true;
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
  if (const Status valid = validate_scenario(scenario); !valid.ok()) {
    state.report_error("Simulation not started: " + valid.error().to_string());
    stop();
    return false;
  }
  try {
    sim_ = std::make_unique<sim::Simulation>(scenario);
  } catch (const std::exception& e) {
    state.report_error(std::string("Simulation not started: ") + e.what());
    stop();
    return false;
  }
  // A saved game runs on from where it was saved.
  if (!scenario.sim_state.empty()) {
    if (const Status restored = sim_->restore_state(scenario.sim_state); !restored.ok()) {
      state.report_error("Saved game not restored (the simulation starts afresh): " + restored.error().to_string());
      sim_ = std::make_unique<sim::Simulation>(scenario);
    }
  }
  doc_serial_ = state.doc_serial;
  revision_ = state.doc->revision();
  playing_ = false;
  accumulator_ = 0;
  selected_.clear();
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
  advance(1);
  return true;
}

void SimPlayer::stop() {
  if (sim_) ++version_;
  sim_.reset();
  playing_ = false;
  accumulator_ = 0;
  selected_.clear();
}

int SimPlayer::update(EditorState& state, double frame_seconds) {
  if (!sim_) return 0;
  if (!state.doc || state.doc_serial != doc_serial_) {
    stop();
    return 0;
  }
  if (state.doc->revision() != revision_) {
    // Documents hold valid scenarios only (every edit is validated), as update_world needs.
    revision_ = state.doc->revision();
    sim_->update_world(state.doc->scenario());
    ++version_;
  }
  if (!playing_) return 0;
  // The frame that pressed Play measured the idle time before it: it plays nothing.
  if (std::exchange(started_, false) || !(frame_seconds > 0)) return 0;
  const double dt = sim_->scenario().sim.dt;
  accumulator_ += std::min(frame_seconds, kMaxFrameSeconds) * speed_;
  const double whole = std::floor(accumulator_ / dt);
  if (whole < 1) return 0;
  const int cap = max_steps_per_frame();
  const int count = int(std::min<double>(whole, cap));
  // Behind by more than a frame may run: the rest is dropped, so a slow frame never spirals.
  accumulator_ = whole > cap ? 0 : accumulator_ - whole * dt;
  advance(count);
  return count;
}

void SimPlayer::set_speed(double speed) { speed_ = std::clamp(speed, kMinSpeed, kMaxSpeed); }

int SimPlayer::max_steps_per_frame() const { return std::max(1, int(std::ceil(8 * speed_))); }

void SimPlayer::advance(int count) {
  for (int i = 0; i < count; ++i) sim_->step();
  prune_selection();
  ++version_;
}

void SimPlayer::prune_selection() {
  if (!sim_) return;
  std::erase_if(selected_, [this](sim::UnitId id) { return sim_->unit(id) == nullptr; });
}

void SimPlayer::select(std::span<const sim::UnitId> ids) {
  selected_.clear();
  add_to_selection(ids, false);
}

void SimPlayer::add_to_selection(std::span<const sim::UnitId> ids, bool toggle) {
  if (!sim_) return;
  for (const sim::UnitId id : ids) {
    if (!sim_->unit(id)) continue;
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
  if (!sim_) return std::nullopt;
  const Scenario& s = sim_->scenario();
  std::optional<sim::UnitId> best;
  double best_gap = 0;
  for (const sim::SimUnit& u : sim_->slots()) {
    if (!u.alive) continue;
    const double radius = u.movement_class < s.classes.size()
                              ? sim::resolve_motion(s.classes[u.movement_class]).hard_radius
                              : sim::Motion{}.hard_radius;
    // Distance outside the body: the unit whose edge is nearest wins (ties: lower slot).
    const double gap = glm::length(p - u.position) - radius;
    if (gap <= tolerance && (!best || gap < best_gap)) {
      best = u.id;
      best_gap = gap;
    }
  }
  return best;
}

std::vector<sim::UnitId> SimPlayer::units_in_box(Vec2 a, Vec2 b) const {
  std::vector<sim::UnitId> out;
  if (!sim_) return out;
  const Vec2 lo = glm::min(a, b), hi = glm::max(a, b);
  for (const sim::SimUnit& u : sim_->slots()) {
    if (u.alive && u.position.x >= lo.x && u.position.x <= hi.x && u.position.y >= lo.y &&
        u.position.y <= hi.y) {
      out.push_back(u.id);
    }
  }
  return out;
}

Result<std::size_t> SimPlayer::command_move(Vec2 point, bool append) {
  if (!sim_ || selected_.empty()) return std::size_t(0);
  Order order;
  order.kind = OrderKind::Move;
  order.points = {point};
  if (append) {
    order.kind = OrderKind::Waypoints;
    order.points.clear();
    // The first selected unit's points still ahead, then the new one.
    const sim::SimUnit* lead = sim_->unit(selected_.front());
    if (lead && !lead->arrived &&
        (lead->order.kind == OrderKind::Move || lead->order.kind == OrderKind::Waypoints)) {
      const std::size_t from = std::min(lead->order_point, lead->order.points.size());
      order.points.assign(lead->order.points.begin() + std::ptrdiff_t(from), lead->order.points.end());
    }
    order.points.push_back(point);
  }
  Result<std::size_t> given = sim_->give_order(selected_, order);
  ++version_;
  return given;
}

double remaining_path_length(const sim::SimUnit& unit) {
  if (unit.waypoint >= unit.path.size()) return 0;
  double length = glm::length(unit.path[unit.waypoint] - unit.position);
  for (std::size_t i = unit.waypoint + 1; i < unit.path.size(); ++i) {
    length += glm::length(unit.path[i] - unit.path[i - 1]);
  }
  return length;
}

std::size_t collision_count(const sim::Simulation& simulation, sim::UnitId id) {
  std::size_t n = 0;
  for (const sim::Collision& c : simulation.collisions()) n += (c.a == id || c.b == id) ? 1 : 0;
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
