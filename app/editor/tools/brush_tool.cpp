// The terrain brush: paints PaintSettings::brush_terrain into the tile grid under a
// square or round footprint of 1..64 cells. A drag stamps the footprint along the
// pointer's path at half-cell steps, so fast strokes leave no gaps, and applies the
// cells with one merge key: a stroke is one undo step. A scenario without a tile grid
// first gets one (Document::ensure_tile_grid, its own undo step).

#include "app/editor/tools/tool_factories.hpp"
#include "app/editor/tools/tool_support.hpp"
#include "app/editor/tools/tool_widgets.hpp"

#include <imgui.h>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <optional>

namespace pathscope::app::tools {
namespace {

constexpr std::uint64_t kStrokeKey = merge_key("brush.stroke");
constexpr int kMaxBrush = 64;

// Top-left cell of an n x n footprint centred on world point p.
glm::ivec2 footprint_origin(Vec2 p, double cell, int n) {
  return {int(std::floor(p.x / cell - n * 0.5 + 0.5)), int(std::floor(p.y / cell - n * 0.5 + 0.5))};
}

// Appends the row-major indices of the grid cells under the footprint at p.
void stamp(const TileGrid& grid, double cell, Vec2 p, int n, bool round, std::vector<std::uint32_t>& cells) {
  const glm::ivec2 o = footprint_origin(p, cell, n);
  const double half = n * 0.5;
  for (int j = 0; j < n; ++j) {
    const int y = o.y + j;
    if (y < 0 || y >= grid.height) continue;
    for (int i = 0; i < n; ++i) {
      const int x = o.x + i;
      if (x < 0 || x >= grid.width) continue;
      // Round: the cells whose centres lie in the disc inscribed in the footprint.
      const double dx = i + 0.5 - half, dy = j + 0.5 - half;
      if (round && dx * dx + dy * dy > half * half) continue;
      cells.push_back(std::uint32_t(y) * std::uint32_t(grid.width) + std::uint32_t(x));
    }
  }
}

class BrushTool final : public Tool {
 public:
  void on_press(ToolContext& ctx, const PointerEvent& e) override {
    if (e.button != 0) return;
    ctx.doc.end_merge();
    if (!ctx.doc.scenario().tiles &&
        !accept_or_report(ctx.state, "Create tile grid", ctx.doc.ensure_tile_grid())) {
      return;
    }
    painting_ = true;
    reported_ = false;
    last_ = e.world;
    paint(ctx, e.world, e.world);
  }

  void on_drag(ToolContext& ctx, const PointerEvent& e) override {
    hover_ = e.world;
    if (!painting_) return;
    paint(ctx, last_, e.world);
    last_ = e.world;
  }

  void on_release(ToolContext& ctx, const PointerEvent&) override {
    painting_ = false;
    ctx.doc.end_merge();
  }

  void on_hover(ToolContext&, const PointerEvent& e) override { hover_ = e.world; }

  void on_leave(ToolContext&) override { hover_.reset(); }

  void on_deactivate(ToolContext& ctx) override {
    painting_ = false;
    hover_.reset();
    ctx.doc.end_merge();
  }

  void draw_preview(const ToolContext& ctx, render::DrawList& out) const override {
    if (!hover_) return;
    const double cell = ctx.doc.scenario().world.cell_size;
    const int n = size(ctx.state.paint);
    const Vec2 lo = Vec2(footprint_origin(*hover_, cell, n)) * cell;
    const Vec2 hi = lo + Vec2(n, n) * cell;
    if (ctx.state.paint.brush_round) {
      out.circle(render::Layer::Markers, kDraftColor, (lo + hi) * 0.5, n * cell * 0.5, false, 1.5f);
    } else {
      out.rect(render::Layer::Markers, kDraftColor, lo, hi, false, 1.5f);
    }
  }

  void options_ui(ToolContext& ctx) override {
    PaintSettings& paint = ctx.state.paint;
    const Scenario& s = ctx.doc.scenario();
    terrain_combo("Terrain", s, paint.brush_terrain, "Terrain painted into the tile grid");
    ImGui::SliderInt(fit_field("Size (cells)").c_str(), &paint.brush_size, 1, kMaxBrush, "%d",
                     ImGuiSliderFlags_AlwaysClamp);
    item_tooltip("Brush diameter in cells, 1..64");
    int shape = paint.brush_round ? 1 : 0;
    ImGui::RadioButton("Square", &shape, 0);
    item_tooltip("Paint every cell of an n x n square");
    ImGui::SameLine();
    ImGui::RadioButton("Round", &shape, 1);
    item_tooltip("Paint the cells whose centres lie in the disc of diameter n cells");
    paint.brush_round = shape == 1;
    if (!s.tiles) {
      hint("No tile grid yet: the first stroke creates one (ground, %d x %d cells).", s.grid_size().x,
           s.grid_size().y);
    }
    hint("One drag is one undo step.");
  }

 private:
  static int size(const PaintSettings& paint) { return std::clamp(paint.brush_size, 1, kMaxBrush); }

  // Stamps the footprint from `from` to `to` and applies the changed cells.
  void paint(ToolContext& ctx, Vec2 from, Vec2 to) {
    const Scenario& s = ctx.doc.scenario();
    if (!s.tiles) return;
    const TileGrid& grid = *s.tiles;
    const double cell = s.world.cell_size;
    const int n = size(ctx.state.paint);
    const double step = cell * 0.5;
    const double length = glm::length(to - from);
    const int steps = std::isfinite(length) ? std::max(1, int(std::ceil(length / step))) : 1;
    std::vector<std::uint32_t> cells;
    for (int k = 0; k <= steps; ++k)
      stamp(grid, cell, from + (to - from) * (double(k) / steps), n, ctx.state.paint.brush_round, cells);
    std::sort(cells.begin(), cells.end());
    cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
    const std::size_t terrain = ctx.state.paint.brush_terrain;
    // Out-of-range terrains are left to apply_tiles, which names the problem.
    const auto after = std::uint8_t(std::min<std::size_t>(terrain, 255));
    std::vector<TileChange> changes;
    for (std::uint32_t c : cells) {
      if (grid.terrain[c] != after || terrain > 255) changes.push_back(TileChange{c, grid.terrain[c], after});
    }
    if (changes.empty()) return;
    const std::string name = terrain < s.terrains.size() ? s.terrains[terrain].name : std::to_string(terrain);
    const Status status = ctx.doc.apply_tiles("Paint " + name, changes, kStrokeKey);
    if (!status && !reported_) {
      reported_ = true;
      accept_or_report(ctx.state, "Paint", status);
    }
  }

  bool painting_ = false;
  bool reported_ = false;  // a refusal of this stroke was reported
  Vec2 last_{0, 0};
  std::optional<Vec2> hover_;
};

}  // namespace

std::unique_ptr<Tool> make_brush_tool() { return std::make_unique<BrushTool>(); }

}  // namespace pathscope::app::tools
