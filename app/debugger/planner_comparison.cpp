// PlannerComparison: find_path with every registered planner on one query, each path
// refereed in the world's one cost model, and the notes and reasons that read the rows.

#include "app/debugger/planner_comparison.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <utility>

#include "app/debugger/frame_budget.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/referee/path_referee.hpp"

namespace pathscope::app {
namespace {

// The planner's clearance, as its registry entry declares it; 0: it plans for a point.
double planner_radius(const PlannerInfo& info, const ParamValues& values, const PlanningWorld& world,
                      std::size_t movement_class) {
  return declared_clearance(info, QueryContext{world, movement_class, std::nullopt, values});
}

std::string number(double v, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, v);
  return text;
}

std::string radius_text(double r) { return r > 0 ? number(r, 2) + " m" : "a point"; }

// "metres of threat-weighted travel: (length ..." -> "threat-weighted travel".
std::string model_name(const ComparisonRow& row) {
  std::string units = row.cost_units.substr(0, std::min(row.cost_units.find(':'), row.cost_units.find(" (")));
  const std::string metres = "metres of ";
  if (units.rfind(metres, 0) == 0) units.erase(0, metres.size());
  return units;
}

// The first clause of a planner's message: 'jps needs uniform costs, but ...' -> 'jps
// needs uniform costs' (the table's note; the whole message is its tooltip).
std::string first_clause(const std::string& message) {
  std::size_t end = message.size();
  for (const char* stop : {", ", " (", ": ", "; "}) end = std::min(end, message.find(stop));
  return message.substr(0, end);
}

// Legality rounding of the referee: clearances within this of a radius are kept.
constexpr double kClearanceSlack = 1.0 / 512;

}  // namespace

Color comparison_color(std::size_t index) {
  // Distinct on the map's greens, greys and browns, and from each other.
  static constexpr std::array<Color, 12> kPalette = {{
      {255, 80, 80, 230},    // red
      {80, 160, 255, 230},   // blue
      {255, 200, 40, 230},   // yellow
      {200, 90, 255, 230},   // violet
      {40, 230, 220, 230},   // cyan
      {255, 140, 30, 230},   // orange
      {255, 110, 200, 230},  // pink
      {150, 255, 90, 230},   // lime
      {255, 255, 255, 230},  // white
      {120, 110, 255, 230},  // indigo
      {255, 215, 160, 230},  // sand
      {0, 190, 120, 230},    // green
  }};
  return kPalette[index % kPalette.size()];
}

const std::vector<ComparisonRow>& PlannerComparison::run(const PlanningWorld& world, const Query& q,
                                                         PlannerCache& planners,
                                                         std::span<const PlannerInfo> registry) {
  clear();
  return refresh(world, q, planners, registry);
}

void PlannerComparison::carry_over(const WorldChange& change) {
  if (change.none()) return;
  for (std::size_t i = 0; i < stale_.size(); ++i) {
    const ResultDependency* d = dependencies_[i].get();
    if (!d || change.rebuilt || !d->still_valid(change)) stale_[i] = true;
  }
}

bool PlannerComparison::needs_run() const {
  return rows_.empty() || std::find(stale_.begin(), stale_.end(), true) != stale_.end();
}

bool PlannerComparison::ran_on(const Query& q) const {
  return query_ && query_->start == q.start && query_->goal == q.goal &&
         query_->movement_class == q.movement_class && query_->faction == q.faction;
}

const std::vector<ComparisonRow>& PlannerComparison::refresh(const PlanningWorld& world, const Query& q,
                                                             PlannerCache& planners,
                                                             std::span<const PlannerInfo> registry) {
  if (!ran_on(q) || rows_.size() != registry.size()) clear();
  ++version_;
  if (q.movement_class >= world.class_count()) {
    clear();
    return rows_;
  }
  query_ = q;
  if (rows_.empty()) {
    rows_.resize(registry.size());
    dependencies_.resize(registry.size());
    stale_.assign(registry.size(), true);
  }
  std::vector<referee::RefereeParams> referee_params;
  for (std::size_t i = 0; i < registry.size(); ++i) {
    const PlannerInfo& info = registry[i];
    ParamValues defaults;
    for (const ParamSpec& spec : info.params) defaults.push_back(spec.default_value);
    referee_params.push_back(referee::params_for(info, defaults, world, q.movement_class));
    if (!stale_[i]) continue;
    ComparisonRow row;
    row.name = info.name;
    row.exact = info.exact;
    row.color = comparison_color(i);
    row.cost_model = info.referee.cost;
    row.cost_units = info.cost_units;
    row.grid_moves = info.referee.cell_centres;
    row.radius = planner_radius(info, defaults, world, q.movement_class);
    // Never replace a cached planner here: the active one is borrowed for node positions.
    std::unique_ptr<Planner> temporary;
    Planner* p = planners.get(world, info, q.movement_class, defaults, PlannerRole::Batch, false,
                              world.scenario().find_faction(q.faction));
    if (!p) {
      temporary =
          planners.make(world, info, q.movement_class, defaults, world.scenario().find_faction(q.faction));
      p = temporary.get();
    }
    const DebugClock::time_point t0 = DebugClock::now();
    const PathResult& r = find_path(*p, PathQuery{q.start, q.goal});
    row.micros = micros_since(t0);
    ++runs_;
    row.status = r.status;
    row.length = r.length;
    row.cost = r.cost;
    row.expansions = r.stats.expansions;
    row.message = r.message;
    if (r.status == SearchStatus::Found) row.points = r.points;
    dependencies_[i] = p->result_dependency();
    rows_[i] = std::move(row);
    stale_[i] = false;
  }
  // The referee: the cost in the world's model and legality at each planner's own
  // clearance; then how near each path comes to walls, up to the largest radius.
  double largest = 0;
  for (const ComparisonRow& row : rows_) largest = std::max(largest, row.radius);
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    ComparisonRow& row = rows_[i];
    // Refereed again for every row: a kept path may pass cells whose cost changed.
    row.terrain_cost.reset();
    row.legal = true;
    row.violation.clear();
    row.min_clearance = std::numeric_limits<double>::infinity();
    row.narrowest.reset();
    if (!row.found() || row.points.empty()) continue;
    const Result<referee::Verdict> own =
        referee::referee_path(world, q.movement_class, row.points, referee_params[i]);
    if (!own) continue;
    row.terrain_cost = own->cost;
    row.legal = own->legal;
    if (!own->legal && !own->violations.empty()) row.violation = own->violations.front().message;
    if (largest <= 0) continue;
    referee::RefereeParams near = referee_params[i];
    near.clearance = largest;
    const Result<referee::Verdict> tight = referee::referee_path(world, q.movement_class, row.points, near);
    if (!tight) continue;
    row.min_clearance = tight->min_clearance;
    for (const referee::Violation& v : tight->violations) {
      if (v.kind == referee::ViolationKind::Clearance) {
        row.narrowest = v.where;
        break;
      }
    }
  }
  return rows_;
}

void PlannerComparison::select(std::optional<std::size_t> row) {
  if (row && *row >= rows_.size()) row.reset();
  if (row == selected_) return;
  selected_ = row;
  ++version_;
}

std::optional<std::size_t> PlannerComparison::baseline() const {
  if (selected_ && rows_[*selected_].found()) return selected_;
  std::optional<std::size_t> any;
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    if (!rows_[i].found()) continue;
    if (rows_[i].exact) return i;
    if (!any) any = i;
  }
  return any;
}

std::string PlannerComparison::note(std::size_t i) const {
  if (i >= rows_.size()) return "";
  const ComparisonRow& row = rows_[i];
  std::vector<std::string> notes;
  if (!row.found()) {
    std::string text = std::string(to_string(row.status));
    if (!row.message.empty()) text += ": " + first_clause(row.message);
    notes.push_back(std::move(text));
  }
  const std::optional<std::size_t> base = baseline();
  if (base && *base != i && std::abs(row.radius - rows_[*base].radius) > 1e-9) {
    notes.push_back("radius: " + radius_text(row.radius) + " (" + rows_[*base].name + ": " +
                    radius_text(rows_[*base].radius) + ")");
  }
  if (row.cost_model == CostModel::Other) notes.push_back("own cost: " + model_name(row));
  if (row.found() && !row.legal) notes.push_back("illegal: " + first_clause(row.violation));
  std::string joined;
  for (const std::string& n : notes) joined += (joined.empty() ? "" : "; ") + n;
  return joined;
}

std::optional<double> PlannerComparison::relative_cost(std::size_t i) const {
  const std::optional<std::size_t> base = baseline();
  if (!base || i >= rows_.size()) return std::nullopt;
  const std::optional<double> mine = rows_[i].terrain_cost, theirs = rows_[*base].terrain_cost;
  if (!mine || !theirs || *theirs <= 0) return std::nullopt;
  return *mine / *theirs - 1;
}

std::vector<std::string> PlannerComparison::differences() const {
  std::vector<std::string> lines;
  const std::optional<std::size_t> base = baseline();
  if (!base) return lines;
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    if (i == *base) continue;
    std::string why = explain_difference(rows_[*base], rows_[i]);
    if (!why.empty()) lines.push_back(std::move(why));
  }
  return lines;
}

std::vector<render::ComparedPath> PlannerComparison::paths() const {
  std::vector<render::ComparedPath> out;
  for (const ComparisonRow& row : rows_) out.push_back(render::ComparedPath{row.points, row.color, row.name});
  return out;
}

std::string explain_difference(const ComparisonRow& a, const ComparisonRow& b) {
  if (!a.terrain_cost || !b.terrain_cost) return "";
  const bool a_cheaper = *a.terrain_cost <= *b.terrain_cost;
  const ComparisonRow& cheap = a_cheaper ? a : b;
  const ComparisonRow& dear = a_cheaper ? b : a;
  const double low = *cheap.terrain_cost, high = *dear.terrain_cost;
  if (!(high > low * (1 + kMarkedDifference))) return "";
  std::vector<std::string> reasons;
  if (!cheap.legal) reasons.push_back(cheap.name + "'s path is illegal (" + cheap.violation + ")");
  if (cheap.radius + 1e-9 < dear.radius && cheap.min_clearance < dear.radius - kClearanceSlack) {
    std::string where;
    if (cheap.narrowest)
      where = " near (" + number(cheap.narrowest->x, 1) + ", " + number(cheap.narrowest->y, 1) + ")";
    reasons.push_back(cheap.name + " (radius: " + radius_text(cheap.radius) + ") passes " +
                      number(cheap.min_clearance, 2) + " m from a wall" + where + ", a gap " + dear.name +
                      " cannot take: it keeps its radius, " + radius_text(dear.radius) + ", from walls");
  }
  if (dear.cost_model == CostModel::Other) {
    reasons.push_back(dear.name + " minimises its own cost (" + model_name(dear) + "), not terrain metres");
  }
  // Inexact search and any-angle moves explain a difference only when nothing above does.
  const bool explained = !reasons.empty();
  if (!explained && !dear.exact) {
    reasons.push_back(dear.name + " is not exact: its path may cost more than the optimum");
  }
  if (!explained && !cheap.grid_moves && dear.grid_moves) {
    reasons.push_back(cheap.name + "'s path is any-angle; " + dear.name +
                      " moves in the grid's 8 directions");
  }
  if (!dear.legal) reasons.push_back(dear.name + "'s path is illegal (" + dear.violation + ")");
  if (reasons.empty()) reasons.push_back("no reason found: compare the two paths on the map");
  std::string text = dear.name + " costs " + number(100 * (high / low - 1), 0) + " % more than " +
                     cheap.name + " (terrain metres " + number(high, 2) + " against " + number(low, 2) +
                     "): ";
  for (std::size_t i = 0; i < reasons.size(); ++i) text += (i ? "; " : "") + reasons[i];
  return text;
}

}  // namespace pathscope::app
