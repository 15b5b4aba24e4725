#pragma once

// Turning the debugger's state into draw lists: the map of the active query's movement
// class (render::paint_world with raster images kept between frames and repainted only
// where the world changed), the other queries' paths (render::paint_query_paths) and the
// search overlay at the replay's step (render::TracePainter).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "app/debugger/replan_scheduler.hpp"
#include "app/debugger/trace_session.hpp"
#include "app/debugger/world_sync.hpp"
#include "planner/world/planning_world.hpp"
#include "render/core/draw_list.hpp"
#include "render/core/layer_set.hpp"
#include "render/map/map_images.hpp"
#include "render/search/structure_painter.hpp"
#include "render/search/trace_painter.hpp"

namespace pathscope::app {

/// Paints the map and the search overlay; keeps their images between calls.
class DebuggerPainter {
 public:
  /// Marks the map image cells a world sync changed for repainting (all of them when
  /// the world was replaced or rebuilt).
  void world_changed(const WorldSyncResult& synced);
  /// Appends the map in `layers` (render::paint_world for `movement_class`, markers of
  /// query `query` only) to `out`. Image cells are repainted only where marked.
  void paint_map(const PlanningWorld& world, std::size_t movement_class, std::optional<std::size_t> query,
                 const render::LayerSet& layers, render::DrawList& out);
  /// Appends the paths found in `outcomes` (one row per query of `world`'s scenario) on
  /// layer AllPaths, each labelled "query N" (tools::query_number), except row `traced`:
  /// the session's trace is that query's own search, whose path is the Path layer's,
  /// drawn once the replay reaches it. Then the search overlay of `session` at its step
  /// (nothing before a finished trace), and the structure of the path found (its
  /// corridor and portals, render::paint_path_structure) once the replay reaches the
  /// search's first refinement or its path. `pixels_per_metre` (the camera zoom) matters
  /// only for non-grid planners: 0 = draw their node sets as images.
  void paint_search(const PlanningWorld& world, const TraceSession& session,
                    std::span<const QueryOutcome> outcomes, std::optional<std::size_t> traced,
                    const render::LayerSet& layers, render::DrawList& out, double pixels_per_metre);
  /// Appends the active planner's structure (cells, edges, auxiliary shapes) inside
  /// `view` (world box; empty = the whole world) on the planner layers of `layers`.
  render::StructurePaintStats paint_structure(const PlanningWorld& world, const TraceSession& session,
                                              const render::LayerSet& layers, const Box2& view,
                                              render::DrawList& out);
  /// Pixels of map images repainted so far (see render::MapImages).
  std::uint64_t map_pixels_painted() const { return map_images_.pixels_painted(); }

 private:
  render::TracePainter painter_;
  render::MapImages map_images_;
};

}  // namespace pathscope::app
