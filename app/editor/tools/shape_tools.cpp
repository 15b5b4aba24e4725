#include "app/editor/tools/shape_tools.hpp"

#include "app/editor/tools/tool_support.hpp"
#include "planner/scenario/feature_motion.hpp"
#include "planner/world/rasterize.hpp"
#include "planner/world/terrain_raster.hpp"

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include <algorithm>
#include <optional>

namespace pathscope::app::tools {

bool PointDraft::add(Vec2 p) {
  if (!points_.empty() && points_.back() == p) return false;
  points_.push_back(p);
  pointer_ = p;
  return true;
}

bool PointDraft::near_first(Vec2 p, double radius) const {
  return !points_.empty() && glm::length(p - points_.front()) <= radius;
}

bool PointDraft::near_last(Vec2 p, double radius) const {
  return !points_.empty() && glm::length(p - points_.back()) <= radius;
}

void PointDraft::draw(render::DrawList& out, bool closed, double handle_radius) const {
  using render::Layer;
  if (points_.empty()) return;
  if (closed && points_.size() >= 3) {
    std::vector<Vec2> ring = points_;
    ring.push_back(pointer_);
    out.polyline(Layer::Markers, kDraftColor, ring, true, 2);
  } else {
    std::vector<Vec2> line = points_;
    line.push_back(pointer_);
    out.polyline(Layer::Markers, kDraftColor, line, false, 2);
  }
  for (std::size_t i = 0; i < points_.size(); ++i) {
    // The first point is larger: clicking it closes the polygon.
    const float px = i == 0 && closed ? 6.0f : 4.0f;
    out.circle(Layer::Markers, kDraftColor, points_[i], handle_radius, true, 1, px);
  }
}

double DragGesture::length() const { return glm::length(to - from); }

bool add_feature(ToolContext& ctx, Shape shape, std::size_t terrain, const std::string& label) {
  const std::uint32_t id = fresh_id(ctx.doc.scenario().features);
  const Status status = ctx.doc.apply(label, [&](Scenario& s) {
    Feature f;
    f.id = id;
    f.terrain = terrain;
    f.shape = std::move(shape);
    s.features.push_back(std::move(f));
  });
  if (!accept_or_report(ctx.state, label, status)) return false;
  ctx.state.selection = Selection{Selection::Kind::Feature, id, -1};
  return true;
}

namespace {

// A terrain no movement class may enter.
bool wall_terrain(const TerrainType& t) {
  return std::none_of(t.cost.begin(), t.cost.end(), [](const auto& c) { return c.has_value(); });
}

bool wall_cell(const Scenario& s, const TerrainRaster& r, std::size_t cell) {
  const Surface& surface = r.surface_at(cell);
  return !surface.bridge && surface.terrain < s.terrains.size() && wall_terrain(s.terrains[surface.terrain]);
}

}  // namespace

std::size_t walls_opened(const Scenario& before, const Scenario& after) {
  const std::optional<CellRect> rect = raster_changes(before, after);
  if (!rect || rect->empty()) return 0;
  const glm::ivec2 grid = before.grid_size();
  TerrainRaster was(grid.x, grid.y, before.world.cell_size, before.terrains.size());
  TerrainRaster is(grid.x, grid.y, after.world.cell_size, after.terrains.size());
  // Fresh rasters of valid scenarios, with no cost overlay: they always fit (rasterize.hpp).
  if (!rasterize_cells(before, *rect, was) || !rasterize_cells(after, *rect, is)) return 0;
  const CellRect r = rect->intersected(CellRect{0, 0, grid.x, grid.y});
  std::size_t opened = 0;
  for (int y = r.y0; y < r.y1; ++y) {
    for (int x = r.x0; x < r.x1; ++x) {
      const std::size_t cell = std::size_t(y) * std::size_t(grid.x) + std::size_t(x);
      opened += wall_cell(before, was, cell) && !wall_cell(after, is, cell) ? 1 : 0;
    }
  }
  return opened;
}

bool add_region(ToolContext& ctx, Shape shape, std::size_t terrain, bool keep_walls,
                const std::string& label) {
  const Scenario before = ctx.doc.scenario();
  // With keep_walls: beneath the first wall feature it meets (by bounds), else on top.
  std::size_t at = before.features.size();
  if (keep_walls) {
    const Box2 box = shape_bounds(shape);
    for (std::size_t i = 0; i < before.features.size(); ++i) {
      const Feature& f = before.features[i];
      if (f.container || f.terrain >= before.terrains.size() || !wall_terrain(before.terrains[f.terrain]))
        continue;
      const Box2 other = shape_bounds(f.shape);
      if (other.lo.x <= box.hi.x && box.lo.x <= other.hi.x && other.lo.y <= box.hi.y &&
          box.lo.y <= other.hi.y) {
        at = i;
        break;
      }
    }
  }
  const std::uint32_t id = fresh_id(before.features);
  const Status status = ctx.doc.apply(label, [&](Scenario& s) {
    Feature f;
    f.id = id;
    f.terrain = terrain;
    f.shape = std::move(shape);
    s.features.insert(s.features.begin() + std::ptrdiff_t(std::min(at, s.features.size())), std::move(f));
  });
  if (!accept_or_report(ctx.state, label, status)) return false;
  ctx.state.selection = Selection{Selection::Kind::Feature, id, -1};
  if (const std::size_t opened = walls_opened(before, ctx.doc.scenario()); opened > 0) {
    const std::string name = terrain < before.terrains.size() ? before.terrains[terrain].name : "its terrain";
    ctx.state.report_warning(label + ": the " + name + " region replaces " + std::to_string(opened) +
                             " wall cell" + (opened == 1 ? "" : "s") +
                             (keep_walls ? " of the tile grid (walls painted as tiles lie under every region)"
                                         : " ('Keep walls' in the tool's options puts regions under walls)") +
                             "; Ctrl+Z undoes it");
  }
  return true;
}

Shape polygon_shape(std::vector<Vec2> points) {
  Shape shape;
  shape.kind = ShapeKind::Polygon;
  shape.points = std::move(points);
  return shape;
}

}  // namespace pathscope::app::tools
