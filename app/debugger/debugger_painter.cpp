// DebuggerPainter: the debugger's two draw lists, map and search overlay, from
// render::paint_world and render::TracePainter.

#include "app/debugger/debugger_painter.hpp"

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "app/editor/tools/item_edit.hpp"
#include "render/map/scene_painter.hpp"
#include "render/search/query_paths_painter.hpp"

namespace pathscope::app {
namespace {

Box2 world_box(const PlanningWorld& world) {
  const WorldInfo& w = world.scenario().world;
  return Box2{{0, 0}, {w.width, w.height}};
}

}  // namespace

void DebuggerPainter::world_changed(const WorldSyncResult& synced) {
  if (!synced.changed) return;
  if (synced.replaced || synced.change.rebuilt) {
    map_images_.invalidate_all();
  } else {
    map_images_.invalidate(synced.change.cells);
  }
}

void DebuggerPainter::paint_map(const PlanningWorld& world, std::size_t movement_class,
                                std::optional<std::size_t> query, const render::LayerSet& layers,
                                render::DrawList& out) {
  render::WorldPaintParams params;
  params.query = query;
  params.images = &map_images_;
  render::paint_world(world, movement_class, layers, out, params);
}

void DebuggerPainter::paint_search(const PlanningWorld& world, const TraceSession& session,
                                   std::span<const QueryOutcome> outcomes, std::optional<std::size_t> traced,
                                   const render::LayerSet& layers, render::DrawList& out,
                                   double pixels_per_metre) {
  if (layers.contains(render::Layer::AllPaths)) {
    const Scenario& scenario = world.scenario();
    std::vector<render::QueryPath> paths;
    for (std::size_t i = 0; i < outcomes.size() && i < scenario.queries.size(); ++i) {
      const QueryOutcome& o = outcomes[i];
      if (i == traced || o.status != SearchStatus::Found) continue;
      // The number alone: names are in the lists, and long labels would crowd the map.
      paths.push_back(render::QueryPath{o.points, "query " + std::to_string(tools::query_number(i))});
    }
    render::paint_query_paths(paths, layers, out);
  }

  const PathResult* result = session.result();
  const TraceReplay* replay = session.replay();
  if (!replay || !result) return;
  render::TracePaintParams params;
  params.trace_version = session.trace_version();
  params.pixels_per_metre = pixels_per_metre;
  params.path_points = std::span<const Vec2>(result->points);
  painter_.paint(*session.trace(), *replay,
                 render::planner_trace_geometry(*session.planner(), world_box(world)), layers, out, params);
  // The path's corridor and portals once the replay is past the search: from its first
  // refinement, or the path itself for planners with none.
  if (replay->refinement() != nullptr || !replay->path().empty()) {
    render::paint_path_structure(*session.planner(), layers, out);
  }
}

render::StructurePaintStats DebuggerPainter::paint_structure(const PlanningWorld& world,
                                                             const TraceSession& session,
                                                             const render::LayerSet& layers, const Box2& view,
                                                             render::DrawList& out) {
  const Planner* planner = session.planner();
  if (!planner) return {};
  render::StructurePaintParams params;
  params.view = view.empty() ? world_box(world) : view;
  // Cell values are cost multipliers for grid planners: colour the map's own range.
  const CostGrid& grid = world.grid(session.movement_class());
  params.value_low = grid.min_multiplier();
  params.value_high = std::max(params.value_low * 4, params.value_low + 1e-9);
  return render::paint_structure(*planner, layers, out, params);
}

}  // namespace pathscope::app
