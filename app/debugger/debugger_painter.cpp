// DebuggerPainter: the debugger's two draw lists, map and search overlay, from
// render::paint_world and render::TracePainter.

#include "app/debugger/debugger_painter.hpp"

#include <algorithm>
#include <span>

#include "render/map/scene_painter.hpp"

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
                                   const render::LayerSet& layers, render::DrawList& out, double pixels_per_metre) {
  const PathResult* result = session.result();
  const TraceReplay* replay = session.replay();
  if (!replay || !result) return;
  render::TracePaintParams params;
  params.trace_version = session.trace_version();
  params.pixels_per_metre = pixels_per_metre;
  params.path_points = std::span<const Vec2>(result->points);
  painter_.paint(*session.trace(), *replay, render::planner_trace_geometry(*session.planner(), world_box(world)), layers,
                 out, params);
}

render::StructurePaintStats DebuggerPainter::paint_structure(const PlanningWorld& world, const TraceSession& session,
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
