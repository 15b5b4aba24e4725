#include "app/editor/inspector.hpp"

// [SECTION] Features
// [SECTION] Threats, allies, roads, bridges, units
// [SECTION] Queries
// [SECTION] Scenario and entry point
//
// Each panel copies its item first: an edit replaces the document's scenario, so
// references into it would dangle. The setters look the item up again by id (or query
// index) in the scenario being edited.

#include "app/editor/inspector_fields.hpp"
#include "app/editor/tools/item_edit.hpp"
#include "app/editor/tools/tool_support.hpp"
#include "app/editor/tools/tool_widgets.hpp"
#include "planner/core/planner_registry.hpp"

#include <imgui.h>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

namespace pathscope::app {
namespace {

using tools::find_by_id;
using Kind = Selection::Kind;

// Vertex list editor: a tree of [x, y] fields titled `title`, clipped to what is visible.
void vertex_list(InspectorFields& fields, const std::vector<Vec2>& points,
                 const std::function<std::vector<Vec2>&(Scenario&)>& list, const char* title = "Vertices") {
  if (!ImGui::TreeNode(title, "%s (%zu)", title, points.size())) return;
  ImGuiListClipper clipper;
  clipper.Begin(int(points.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const std::string label = "[" + std::to_string(i) + "]";
      fields.point(label.c_str(), points[std::size_t(i)], nullptr,
                   [&list, i](Scenario& e, Vec2 v) { list(e)[std::size_t(i)] = v; });
    }
  }
  ImGui::TreePop();
}

// The selected vertex of a polygon or road, if any.
void selected_vertex(InspectorFields& fields, const Selection& sel, const std::vector<Vec2>& points,
                     const std::function<std::vector<Vec2>&(Scenario&)>& list) {
  if (sel.vertex < 0 || std::size_t(sel.vertex) >= points.size()) return;
  const int v = sel.vertex;
  const std::string label = "vertex " + std::to_string(v);
  fields.point(label.c_str(), points[std::size_t(v)], "The selected vertex, metres (Delete removes it)",
               [&list, v](Scenario& e, Vec2 p) { list(e)[std::size_t(v)] = p; });
}

// ---------------------------------------------------------------------------------------
// [SECTION] Features
// ---------------------------------------------------------------------------------------

void feature_panel(EditorState& state, const Selection& sel) {
  const Scenario& s = state.doc->scenario();
  const Feature f = *find_by_id(s.features, sel.id);
  const std::uint32_t id = f.id;
  auto edit = [id](Scenario& e) -> Feature& { return *find_by_id(e.features, id); };
  InspectorFields fields(state, tools::describe(Selection{sel.kind, id, -1}));
  const char* kinds[] = {"polygon", "rect", "circle"};
  InspectorFields::read_only("feature", std::to_string(id) + " (" + kinds[int(f.shape.kind)] + ")");
  fields.text("name", f.name, "Optional label drawn on the map",
              [&](Scenario& e, const std::string& v) { edit(e).name = v; });
  std::size_t terrain = f.terrain;
  const bool changed =
      tools::terrain_combo("terrain", s, terrain, "Terrain painted over the tile grid inside the shape");
  fields.choice("terrain", changed, [&](Scenario& e) { edit(e).terrain = terrain; });
  fields.boolean(
      "container", f.container,
      "A container (seed 004) bounds walkable space: everything outside every container takes the "
      "containers' terrain (one for all, usually an obstacle), painted after the tiles and before the "
      "other features",
      [&](Scenario& e, bool v) { edit(e).container = v; });
  switch (f.shape.kind) {
    case ShapeKind::Polygon: {
      auto points = [&](Scenario& e) -> std::vector<Vec2>& { return edit(e).shape.points; };
      selected_vertex(fields, sel, f.shape.points, points);
      vertex_list(fields, f.shape.points, points);
      break;
    }
    case ShapeKind::Rect:
      fields.point("min", f.shape.min, "Corner with the smallest x and y, metres",
                   [&](Scenario& e, Vec2 v) { edit(e).shape.min = v; });
      fields.point("max", f.shape.max, "Corner with the largest x and y, metres",
                   [&](Scenario& e, Vec2 v) { edit(e).shape.max = v; });
      break;
    case ShapeKind::Circle:
      fields.point("center", f.shape.center, "Centre, metres (inside the world)",
                   [&](Scenario& e, Vec2 v) { edit(e).shape.center = v; });
      fields.number("radius", f.shape.radius, "Radius, metres (> 0)",
                    [&](Scenario& e, double v) { edit(e).shape.radius = v; });
      break;
  }
  fields.point("velocity", f.velocity,
               "Metres per second while the motion plays (Motion section, M); bounces off the world's edges. "
               "0, 0: stays put",
               [&](Scenario& e, Vec2 v) { edit(e).velocity = v; });
}

// ---------------------------------------------------------------------------------------
// [SECTION] Threats, allies, roads, bridges, units
// ---------------------------------------------------------------------------------------

void influence_panel(EditorState& state, const Selection& sel) {
  const Scenario& s = state.doc->scenario();
  const bool threat = sel.kind == Kind::Threat;
  const Influence z = *find_by_id(threat ? s.threats : s.allies, sel.id);
  const std::uint32_t id = z.id;
  auto edit = [id, threat](Scenario& e) -> Influence& {
    return *find_by_id(threat ? e.threats : e.allies, id);
  };
  InspectorFields fields(state, tools::describe(sel));
  InspectorFields::read_only(threat ? "threat" : "ally", std::to_string(id));
  fields.point("center", z.center, "Centre, metres", [&](Scenario& e, Vec2 v) { edit(e).center = v; });
  fields.number("radius", z.radius, "Radius, metres (> 0)",
                [&](Scenario& e, double v) { edit(e).radius = v; });
  fields.number("strength", z.strength, "Relative weight for threat-aware planners (>= 0)",
                [&](Scenario& e, double v) { edit(e).strength = v; });
  std::string faction = z.faction;
  const bool changed =
      tools::faction_combo("faction", s, faction, true, "Side the zone belongs to (optional)");
  fields.choice("faction", changed, [&](Scenario& e) { edit(e).faction = faction; });
}

void road_panel(EditorState& state, const Selection& sel) {
  const Road r = *find_by_id(state.doc->scenario().roads, sel.id);
  const std::uint32_t id = r.id;
  auto edit = [id](Scenario& e) -> Road& { return *find_by_id(e.roads, id); };
  InspectorFields fields(state, tools::describe(Selection{sel.kind, id, -1}));
  InspectorFields::read_only("road", std::to_string(id));
  fields.number("width", r.width, "Width, metres (> 0)", [&](Scenario& e, double v) { edit(e).width = v; });
  fields.number("speed factor", r.speed_factor, "Terrain costs on the road are divided by this (>= 1)",
                [&](Scenario& e, double v) { edit(e).speed_factor = v; });
  auto points = [&](Scenario& e) -> std::vector<Vec2>& { return edit(e).points; };
  selected_vertex(fields, sel, r.points, points);
  vertex_list(fields, r.points, points);
}

void bridge_panel(EditorState& state, const Selection& sel) {
  const Bridge b = *find_by_id(state.doc->scenario().bridges, sel.id);
  const std::uint32_t id = b.id;
  auto edit = [id](Scenario& e) -> Bridge& { return *find_by_id(e.bridges, id); };
  InspectorFields fields(state, tools::describe(sel));
  InspectorFields::read_only("bridge",
                             std::to_string(id) + ", " + tools::format_metres(glm::length(b.b - b.a)));
  fields.point("end a", b.a, "One end, metres", [&](Scenario& e, Vec2 v) { edit(e).a = v; });
  fields.point("end b", b.b, "The other end, metres", [&](Scenario& e, Vec2 v) { edit(e).b = v; });
  fields.number("width", b.width, "Deck width, metres (> 0)",
                [&](Scenario& e, double v) { edit(e).width = v; });
  fields.boolean("intact", b.intact, "An intact deck is passable ground; a destroyed one is not",
                 [&](Scenario& e, bool v) { edit(e).intact = v; });
}

// A unit's own order: its kind and patrol mode as combos, its points as [x, y] fields
// (their count follows the kind). A group's order, when the unit has one, replaces it.
void order_fields(EditorState& state, InspectorFields& fields, const Unit& u,
                  const std::function<Unit&(Scenario&)>& edit) {
  const Scenario& s = state.doc->scenario();
  static const char* const kKinds[] = {"none", "move", "waypoints", "patrol", "stop"};
  int kind = int(u.order.kind);
  const bool kind_changed =
      ImGui::Combo(tools::fit_field("order").c_str(), &kind, kKinds, IM_ARRAYSIZE(kKinds));
  tools::item_tooltip(
      "What the unit is told to do: move to a point, go through waypoints and stop, patrol them "
      "forever, or stop. A new point starts at the unit's position");
  const Vec2 here = u.position;
  fields.choice("order", kind_changed,
                [&](Scenario& e) { tools::set_order_kind(edit(e).order, OrderKind(kind), here); });
  if (kind_changed) return;  // `u` is the unit before the change
  if (u.order.kind == OrderKind::Patrol) {
    static const char* const kModes[] = {"loop", "back and forth"};
    int mode = int(u.order.patrol);
    const bool mode_changed =
        ImGui::Combo(tools::fit_field("patrol").c_str(), &mode, kModes, IM_ARRAYSIZE(kModes));
    tools::item_tooltip("Loop: from the last point back to the first; back and forth: the points in reverse");
    fields.choice("patrol", mode_changed, [&](Scenario& e) { edit(e).order.patrol = PatrolMode(mode); });
  }
  if (!u.order.points.empty()) {
    auto points = [&](Scenario& e) -> std::vector<Vec2>& { return edit(e).order.points; };
    vertex_list(fields, u.order.points, points, "Order points");
  }
  for (const UnitGroup& g : s.groups) {
    if (std::find(g.units.begin(), g.units.end(), u.id) == g.units.end()) continue;
    InspectorFields::read_only("group",
                               std::to_string(g.id) + (g.name.empty() ? "" : " (" + g.name + ")") +
                                   (g.order.kind == OrderKind::None ? "" : ": its order replaces this one"));
  }
}

void unit_panel(EditorState& state, const Selection& sel) {
  const Scenario& s = state.doc->scenario();
  const Unit u = *find_by_id(s.units, sel.id);
  const std::uint32_t id = u.id;
  auto edit = [id](Scenario& e) -> Unit& { return *find_by_id(e.units, id); };
  InspectorFields fields(state, tools::describe(sel));
  InspectorFields::read_only("unit", std::to_string(id));
  std::string faction = u.faction;
  const bool faction_changed = tools::faction_combo("faction", s, faction, false, "Side the unit belongs to");
  fields.choice("faction", faction_changed, [&](Scenario& e) { edit(e).faction = faction; });
  if (const std::optional<std::size_t> fi = s.find_faction(u.faction); fi && !faction_changed) {
    // Fog of war is the faction's: its sight and how it remembers what it sees.
    const Faction& f = s.factions[*fi];
    const std::size_t k = *fi;
    fields.number("faction sight", f.sight,
                  "Metres each unit of this faction sees; 0: no fog of war (the faction knows every feature)",
                  [k](Scenario& e, double v) { e.factions[k].sight = v; });
    bool partial = f.partial;
    const bool partial_changed = ImGui::Checkbox("remember only parts seen", &partial);
    tools::item_tooltip(
        "Seed 003's two options for an obstacle partly in view: believe all of it (off), or only "
        "the parts seen, with corners where it leaves the view (on)");
    fields.choice("partial", partial_changed, [k, partial](Scenario& e) { e.factions[k].partial = partial; });
    InspectorFields::read_only("remembered", std::to_string(f.memory.size()) + " features" +
                                                 (f.sight > 0 ? "" : " (no fog of war)"));
  }
  std::size_t cls = u.movement_class;
  const bool class_changed =
      tools::class_combo("class", s, cls, "Movement class: body radius, speed, terrain costs");
  fields.choice("class", class_changed, [&](Scenario& e) { edit(e).movement_class = cls; });
  fields.point("position", u.position, "Metres", [&](Scenario& e, Vec2 v) { edit(e).position = v; });
  constexpr double kDegrees = 180.0 / std::numbers::pi;
  fields.number(
      "heading (deg)", u.heading * kDegrees, "0 = +x (east), counter-clockwise on screen",
      [&](Scenario& e, double v) { edit(e).heading = v / kDegrees; }, "%.1f");
  order_fields(state, fields, u, edit);
}

// ---------------------------------------------------------------------------------------
// [SECTION] Queries
// ---------------------------------------------------------------------------------------

// Sets the override of parameter `name`, keeping the list sorted by name.
void set_param(std::vector<PlannerParam>& params, const std::string& name, double value) {
  auto it = std::lower_bound(params.begin(), params.end(), name,
                             [](const PlannerParam& p, const std::string& n) { return p.name < n; });
  if (it != params.end() && it->name == name) {
    it->value = value;
  } else {
    params.insert(it, PlannerParam{name, value});
  }
}

void query_panel(EditorState& state, const Selection& sel) {
  const Scenario& s = state.doc->scenario();
  const std::size_t qi = sel.id;
  const Query q = s.queries[qi];
  auto edit = [qi](Scenario& e) -> Query& { return e.queries[qi]; };
  InspectorFields fields(state, "query " + std::to_string(tools::query_number(qi)));
  InspectorFields::read_only(
      "query", std::to_string(tools::query_number(qi)) + " of " + std::to_string(s.queries.size()) +
                   (sel.kind == Kind::QueryStart ? " (start selected)" : " (goal selected)"));
  fields.text("name", q.name, "Optional label", [&](Scenario& e, const std::string& v) { edit(e).name = v; });
  fields.point("start", q.start, "Start, metres", [&](Scenario& e, Vec2 v) { edit(e).start = v; });
  fields.point("goal", q.goal, "Goal, metres", [&](Scenario& e, Vec2 v) { edit(e).goal = v; });
  std::size_t cls = q.movement_class;
  const bool class_changed = tools::class_combo("class", s, cls, "Movement class the path is planned for");
  fields.choice("class", class_changed, [&](Scenario& e) { edit(e).movement_class = cls; });
  std::string planner = q.planner;
  const bool planner_changed = tools::planner_combo("planner", planner, "Planner from the registry");
  const PlannerInfo* info = find_planner(planner);
  // Overrides the new planner does not know would be refused: drop them.
  std::string plans_as = q.faction;
  const bool plans_as_changed =
      tools::faction_combo("plans as", s, plans_as, true,
                           "Plan with this faction's knowledge (fog of war); (none): the world as it is");
  fields.choice("plans as", plans_as_changed, [&](Scenario& e) { edit(e).faction = plans_as; });
  fields.choice("planner", planner_changed, [&](Scenario& e) {
    Query& query = edit(e);
    query.planner = planner;
    std::erase_if(query.params, [&](const PlannerParam& p) {
      return !info || std::none_of(info->params.begin(), info->params.end(),
                                   [&](const ParamSpec& spec) { return spec.name == p.name; });
    });
  });
  if (info && !planner_changed) {
    for (const ParamSpec& spec : info->params) {
      auto it = std::find_if(q.params.begin(), q.params.end(),
                             [&](const PlannerParam& p) { return p.name == spec.name; });
      const bool overridden = it != q.params.end();
      char range[160];
      std::snprintf(range, sizeof range, " [%g, %g], default %g", spec.min_value, spec.max_value,
                    spec.default_value);
      const std::string tooltip = spec.description + range;
      ImGui::PushID(spec.name.c_str());
      // The reset button goes first, so that the field and its label share what it leaves.
      if (overridden) {
        const bool reset = ImGui::SmallButton("default");
        tools::item_tooltip("Remove the override and use the planner's default");
        fields.choice((spec.name + " reset").c_str(), reset, [&](Scenario& e) {
          std::erase_if(edit(e).params, [&](const PlannerParam& p) { return p.name == spec.name; });
        });
        ImGui::SameLine();
      }
      const double value = overridden ? it->value : spec.default_value;
      if (spec.choices.empty()) {
        fields.number(
            spec.name.c_str(), value, tooltip.c_str(),
            [&](Scenario& e, double v) { set_param(edit(e).params, spec.name, v); }, "%.4g");
      } else {
        // An enumeration: one of its names.
        const int count = static_cast<int>(spec.choices.size());
        const int shown = std::clamp(static_cast<int>(std::lround(value - spec.min_value)), 0, count - 1);
        int picked = shown;
        if (ImGui::BeginCombo(spec.name.c_str(), spec.choices[shown].c_str())) {
          for (int i = 0; i < count; ++i) {
            if (ImGui::Selectable(spec.choices[i].c_str(), i == shown)) picked = i;
          }
          ImGui::EndCombo();
        }
        tools::item_tooltip(spec.description.c_str());
        fields.choice(spec.name.c_str(), picked != shown,
                      [&](Scenario& e) { set_param(edit(e).params, spec.name, spec.min_value + picked); });
      }
      ImGui::PopID();
    }
  }
  bool known = q.expected_length.has_value();
  const bool known_changed = ImGui::Checkbox("known optimal length", &known);
  tools::item_tooltip("A known optimal length (metres) that solving checks against");
  fields.choice("known length", known_changed, [&](Scenario& e) {
    edit(e).expected_length = known ? std::optional<double>(0.0) : std::nullopt;
  });
  if (q.expected_length) {
    fields.number("expected length", *q.expected_length, "Optimal path length, metres (>= 0)",
                  [&](Scenario& e, double v) { edit(e).expected_length = v; });
  }
}

// ---------------------------------------------------------------------------------------
// [SECTION] Scenario and entry point
// ---------------------------------------------------------------------------------------

void scenario_panel(EditorState& state) {
  const Scenario& s = state.doc->scenario();
  InspectorFields fields(state, "scenario");
  fields.text("name", s.name, "Scenario name", [](Scenario& e, const std::string& v) { e.name = v; });
  fields.text(
      "description", s.description, "Free text", [](Scenario& e, const std::string& v) { e.description = v; },
      true);
  char line[160];
  std::snprintf(line, sizeof line, "%g x %g m", s.world.width, s.world.height);
  InspectorFields::read_only("world", line);
  const glm::ivec2 grid = s.grid_size();
  std::snprintf(line, sizeof line, "%g m (%d x %d cells)", s.world.cell_size, grid.x, grid.y);
  InspectorFields::read_only("cell size", line);
  if (s.tiles) {
    std::snprintf(line, sizeof line, "%d x %d cells", s.tiles->width, s.tiles->height);
    InspectorFields::read_only("tile grid", line);
  } else {
    InspectorFields::read_only("tile grid", "none (the brush creates one)");
  }
  std::snprintf(line, sizeof line,
                "%zu features, %zu threats, %zu allies, %zu roads, %zu bridges, %zu units, %zu queries",
                s.features.size(), s.threats.size(), s.allies.size(), s.roads.size(), s.bridges.size(),
                s.units.size(), s.queries.size());
  ImGui::TextWrapped("%s", line);
  ImGui::Separator();
  tools::hint("Select an item with the select tool (V) to edit it here.");
}

}  // namespace

void inspector_panel(EditorState& state) {
  if (!state.doc) {
    ImGui::TextDisabled("No document.");
    return;
  }
  const Scenario& s = state.doc->scenario();
  Selection& sel = state.selection;
  if (!sel.empty() && !tools::selection_exists(s, Selection{sel.kind, sel.id, -1})) sel = {};
  if (sel.vertex >= 0 && !tools::selection_exists(s, sel)) sel.vertex = -1;
  // Copy: the panels may change the selection's item, never the selection itself.
  const Selection current = sel;
  ImGui::PushID(tools::describe(Selection{current.kind, current.id, -1}).c_str());
  switch (current.kind) {
    case Kind::None: scenario_panel(state); break;
    case Kind::Feature: feature_panel(state, current); break;
    case Kind::Threat:
    case Kind::Ally: influence_panel(state, current); break;
    case Kind::Road: road_panel(state, current); break;
    case Kind::Bridge: bridge_panel(state, current); break;
    case Kind::Unit: unit_panel(state, current); break;
    case Kind::QueryStart:
    case Kind::QueryGoal: query_panel(state, current); break;
  }
  ImGui::PopID();
}

}  // namespace pathscope::app
