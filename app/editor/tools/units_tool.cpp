// The units tool: orders for the simulated units, as RTS players give them. A left click
// selects the unit under the pointer (Shift toggles it in the selection), a left drag
// boxes several (Shift adds them), a right click orders the selection to move there and
// Shift+right click adds a waypoint to its route. A selected platoon moves as one; a
// right drag orders it to where the drag began, to face the way the drag goes (its
// formation drawn there as the pointer moves). Selecting never advances time: the
// first click builds the simulation from the document, paused, and a recorded step shown
// by the timeline stays shown. Orders go to the simulation, never to the document.

#include "app/editor/tools/tool_factories.hpp"
#include "app/editor/tools/tool_support.hpp"
#include "app/editor/tools/tool_widgets.hpp"
#include "app/sim/sim_player.hpp"
#include "planner/sim/platoon_formation.hpp"
#include "planner/sim/vehicle.hpp"

#include <imgui.h>
#include <glm/geometric.hpp>

#include <algorithm>
#include <optional>

namespace pathscope::app::tools {
namespace {

// A left press that moves more than this many pixels boxes units instead of picking one.
constexpr double kBoxPixels = 4;

class UnitsTool final : public Tool {
 public:
  void on_press(ToolContext& ctx, const PointerEvent& e) override {
    if (!ctx.sim || !ensure_shown(ctx)) return;
    pressing_ = true;
    box_ = false;
    from_ = to_ = e.world;
  }

  void on_drag(ToolContext& ctx, const PointerEvent& e) override {
    if (!pressing_) return;
    to_ = e.world;
    if (glm::length(to_ - from_) * ctx.zoom > kBoxPixels) box_ = true;
  }

  void on_release(ToolContext& ctx, const PointerEvent& e) override {
    if (!pressing_ || !ctx.sim) return;
    pressing_ = false;
    SimPlayer& sim = *ctx.sim;
    if (box_) {
      box_ = false;
      const std::vector<sim::UnitId> ids = sim.units_in_box(from_, e.world);
      if (e.shift) {
        sim.add_to_selection(ids, false);
      } else {
        sim.select(ids);
      }
      return;
    }
    if (const auto hit = sim.unit_at(e.world, ctx.pick_radius())) {
      const sim::UnitId one[] = {*hit};
      if (e.shift) {
        sim.add_to_selection(one, true);
      } else {
        sim.select(one);
      }
    } else if (!e.shift) {
      sim.clear_selection();
    }
  }

  void on_right_click(ToolContext& ctx, const PointerEvent& e) override {
    if (!ctx.sim || !ensure_shown(ctx)) return;
    if (ctx.sim->selected().empty()) {
      ctx.state.report_warning("No unit selected: click a unit, or drag a box round several, first.");
      return;
    }
    const Result<std::size_t> given = ctx.sim->command_move(e.world, e.shift);
    if (!given.ok()) ctx.state.report_error("Order refused: " + given.error().to_string());
  }

  // A right drag with a platoon selected sets the heading it faces at the end.
  bool takes_right_drag(const ToolContext& ctx, const PointerEvent&) const override {
    return ctx.sim && !ctx.sim->viewing_recording() && !ctx.sim->selected_platoons().empty();
  }

  void on_right_drag(ToolContext& ctx, const PointerEvent& from, const PointerEvent& to, bool done) override {
    if (!ctx.sim) return;
    facing_from_ = from.world;
    facing_to_ = to.world;
    facing_ = !done;
    if (!done) return;
    const Vec2 d = to.world - from.world;
    const std::optional<double> heading =
        glm::length(d) > 0 ? std::optional<double>(sim::heading_of_vector(d)) : std::nullopt;
    const Result<std::size_t> given = ctx.sim->command_move(from.world, from.shift, heading);
    if (!given.ok()) ctx.state.report_error("Order refused: " + given.error().to_string());
  }

  bool on_key(ToolContext& ctx, ToolKey key) override {
    if (key != ToolKey::Escape || !ctx.sim) return false;
    pressing_ = box_ = facing_ = false;
    ctx.sim->clear_selection();
    return true;
  }

  void on_hover(ToolContext& ctx, const PointerEvent& e) override {
    hover_ = ctx.sim ? ctx.sim->unit_at(e.world, ctx.pick_radius()) : std::nullopt;
  }

  void on_leave(ToolContext&) override { hover_.reset(); }

  void on_deactivate(ToolContext&) override {
    pressing_ = box_ = facing_ = false;
    hover_.reset();
  }

  void draw_preview(const ToolContext& ctx, render::DrawList& out) const override {
    // The unit a click would select.
    const sim::Simulation* s = ctx.sim ? ctx.sim->simulation() : nullptr;
    if (const sim::SimUnit* u = s && hover_ && !box_ ? s->unit(*hover_) : nullptr) {
      const Scenario& scenario = s->scenario();
      const double r = u->movement_class < scenario.classes.size()
                           ? sim::resolve_motion(scenario.classes[u->movement_class]).hard_radius
                           : sim::Motion{}.hard_radius;
      out.circle(render::Layer::Markers, kHoverColor, u->body.position, r * 1.3, false, 1.5f, 7);
    }
    if (facing_ && s) paint_facing(*ctx.sim, out);
    if (!box_) return;
    out.rect(render::Layer::Markers, kDraftFill, from_, to_, true);
    out.rect(render::Layer::Markers, kDraftColor, from_, to_, false, 1.5f);
  }

  void options_ui(ToolContext& ctx) override {
    hint("Click a unit to select it, drag a box round several (Shift adds).");
    hint("Right-click: move there. Shift+right-click: add a waypoint. Escape: deselect.");
    hint("A platoon selected: right-drag from where it goes the way it should face.");
    if (ctx.sim && !ctx.sim->active()) hint("The first click builds the simulation, paused.");
  }

 private:
  // Units to select: the simulation or the recorded step shown, else the simulation
  // built from the document, paused at its first step.
  static bool ensure_shown(ToolContext& ctx) {
    if (ctx.sim->active()) return true;
    return ctx.sim->reset(ctx.state);
  }

  // The facing drag: an arrow from the ordered point, and each selected platoon's
  // formation standing there, turned the drag's way.
  void paint_facing(const SimPlayer& player, render::DrawList& out) const {
    const Vec2 d = facing_to_ - facing_from_;
    if (glm::length(d) <= 0) return;
    const double heading = sim::heading_of_vector(d);
    out.line(render::Layer::Markers, kDraftColor, facing_from_, facing_to_, 2.0f);
    const Vec2 u = d / glm::length(d), left{u.y, -u.x};
    const double head = std::min(glm::length(d) * 0.4, 3.0);
    out.polygon(render::Layer::Markers, kDraftColor,
                {facing_to_, facing_to_ - u * head + left * (head * 0.5),
                 facing_to_ - u * head - left * (head * 0.5)});
    for (const std::uint32_t g : player.selected_platoons()) {
      const sim::PlatoonRun* p = player.platoon(g);
      if (!p) continue;
      for (std::size_t k = 0; k < p->to.offsets.size(); ++k) {
        const Vec2 at = sim::formation_point(facing_from_, heading, p->to.offsets[k]);
        out.circle(render::Layer::Markers, k == 0 ? kDraftColor : kHoverColor, at, 1.2, false, 1.5f, 5);
      }
    }
  }

  bool pressing_ = false;
  bool box_ = false;
  bool facing_ = false;  // a facing drag is under way
  Vec2 facing_from_{0, 0}, facing_to_{0, 0};
  std::optional<sim::UnitId> hover_;  // the unit under the pointer
  Vec2 from_{0, 0}, to_{0, 0};
};

}  // namespace

std::unique_ptr<Tool> make_units_tool() { return std::make_unique<UnitsTool>(); }

}  // namespace pathscope::app::tools
