// DebuggerPainter: the debugger's two draw lists, map and search overlay, from
// render::paint_world and render::TracePainter.

#include "app/debugger/debugger_painter.hpp"

#include <span>

#include "render/map/scene_painter.hpp"

namespace pathscope::app {
namespace {

// Where the session's nodes sit: grid cells, or the planner's node positions.
render::TraceGeometry geometry(const PlanningWorld& world, const TraceSession& session) {
  const CostGrid& grid = world.grid(session.movement_class());
  if (session.grid_nodes()) return render::grid_trace_geometry(grid);
  const WorldInfo& w = world.scenario().world;
  return render::graph_trace_geometry(*session.planner(), grid.cell_size(), {0, 0}, {w.width, w.height});
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
  painter_.paint(*session.trace(), *replay, geometry(world, session), layers, out, params);
}

}  // namespace pathscope::app
