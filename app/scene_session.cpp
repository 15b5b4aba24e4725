#include "app/scene_session.hpp"

#include "app/cli_commands.hpp"
#include "planner/planner_registry.hpp"
#include "render/scene_painter.hpp"

#include <cstdio>
#include <system_error>
#include <utility>

namespace pathscope::app {

std::optional<std::filesystem::path> find_default_scenario() {
  const std::filesystem::path relative = std::filesystem::path("maps") / "default.json";
  std::error_code ec;
  if (std::filesystem::is_regular_file(relative, ec)) return relative;
#ifdef PATHSCOPE_SOURCE_DIR
  const std::filesystem::path in_source = std::filesystem::path(PATHSCOPE_SOURCE_DIR) / relative;
  if (std::filesystem::is_regular_file(in_source, ec)) return in_source;
#endif
  return std::nullopt;
}

Result<std::unique_ptr<SceneSession>> SceneSession::open(const std::string& path) {
  std::string file = path;
  if (file.empty()) {
    const auto found = find_default_scenario();
    if (!found) {
      return make_error(ErrorCode::Io, "maps/default.json",
                        "no default scenario in the working directory or the source tree; give a file");
    }
    file = found->string();
  }
  Result<Scenario> loaded = load_any_scenario(file);
  if (!loaded) return loaded.error();
  return std::make_unique<SceneSession>(std::move(loaded).value(), file);
}

SceneSession::SceneSession(Scenario scenario, std::string source)
    : world_(std::make_unique<PlanningWorld>(std::move(scenario))), source_(std::move(source)) {}

Status SceneSession::run_query(std::size_t index, const std::string& planner_override) {
  const Scenario& s = scenario();
  const std::string where = "queries[" + std::to_string(index) + "]";
  if (index >= s.queries.size()) {
    return make_error(ErrorCode::Query, where,
                      "no such query (the scenario has " + std::to_string(s.queries.size()) + ")");
  }
  const Query& q = s.queries[index];
  const std::string& name = planner_override.empty() ? q.planner : planner_override;
  const PlannerInfo* info = find_planner(name);
  if (!info) {
    std::string known;
    for (const PlannerInfo& p : planner_registry()) known += (known.empty() ? "" : ", ") + p.name;
    return make_error(ErrorCode::Query, planner_override.empty() ? where + ".planner" : "--planner",
                      "unknown planner \"" + name + "\" (known: " + known + ")");
  }
  if (q.movement_class >= world_->class_count()) {
    return make_error(ErrorCode::Query, where + ".movement_class", "no such movement class");
  }
  // A query's parameters belong to its own planner; another planner starts from defaults.
  const bool own = name == q.planner;
  Result<ParamValues> params = resolve_params(
      *info, own ? std::span<const PlannerParam>(q.params) : std::span<const PlannerParam>(), where);
  if (!params) return params.error();

  planner_.reset();
  planner_ = info->create(*world_, q.movement_class, *params);
  query_ = index;
  movement_class_ = q.movement_class;
  find_path(*planner_, PathQuery{q.start, q.goal});
  total_expansions_ = planner_->result().stats.expansions;
  shown_expansions_ = total_expansions_;
  return Ok{};
}

void SceneSession::show_step(std::uint64_t expansions) {
  if (!planner_ || !query_) return;
  const Query& q = scenario().queries[*query_];
  const PathQuery pq{q.start, q.goal};
  if (expansions >= total_expansions_) {
    find_path(*planner_, pq);
  } else {
    const SearchStatus status = planner_->start(pq);
    if (expansions > 0 && !is_finished(status)) planner_->step(expansions);
  }
  shown_expansions_ = planner_->result().stats.expansions;
}

void SceneSession::paint(const render::LayerSet& layers, render::DrawList& out) const {
  render::paint_world(*world_, movement_class_, layers, out, render::WorldPaintParams{query_});
  if (planner_) {
    render::paint_search(*planner_, planner_->result(), layers, out,
                         render::SearchPaintParams{scenario().world.cell_size});
  }
}

render::Camera SceneSession::initial_camera(Vec2 viewport_size) const {
  render::Camera cam;
  cam.set_viewport({0, 0}, viewport_size);
  fit(cam);
  const ViewerHints& hints = scenario().viewer;
  if (hints.zoom) cam.set_zoom(*hints.zoom);
  if (hints.center) cam.set_center(*hints.center);
  return cam;
}

void SceneSession::fit(render::Camera& camera) const {
  const WorldInfo& w = scenario().world;
  camera.fit({0, 0}, {w.width, w.height});
}

std::string SceneSession::status_line() const {
  const PathResult* r = result();
  if (!r) return scenario().queries.empty() ? "no queries" : "no query run";
  const std::string name(planner_->name());
  const auto expansions = static_cast<unsigned long long>(r->stats.expansions);
  char buf[256];
  if (r->status == SearchStatus::Found) {
    std::snprintf(buf, sizeof buf, "%s: found, length %.2f m, cost %.2f, %llu expansions", name.c_str(),
                  r->length, r->cost, expansions);
  } else {
    std::snprintf(buf, sizeof buf, "%s: %s, %llu expansions", name.c_str(), to_string(r->status), expansions);
  }
  return buf;
}

}  // namespace pathscope::app
