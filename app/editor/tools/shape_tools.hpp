#pragma once

// Building blocks of the drawing tools: a list of clicked points (polygons, regions,
// roads), a press-drag-release gesture (rects, circles, threats, bridges, queries) and
// the command that adds a new feature.

#include <cstddef>
#include <string>
#include <vector>

#include "app/editor/tool.hpp"
#include "planner/scenario/scenario.hpp"
#include "render/core/draw_list.hpp"

namespace pathscope::app::tools {

/// Points clicked so far for a polygon or a polyline being drawn, world metres.
class PointDraft {
 public:
  bool empty() const { return points_.empty(); }
  std::size_t size() const { return points_.size(); }
  const std::vector<Vec2>& points() const { return points_; }
  /// Appends `p`; a repeat of the last point is ignored. Returns true if appended.
  bool add(Vec2 p);
  /// Removes the last point (Delete while drawing).
  void pop() {
    if (!points_.empty()) points_.pop_back();
  }
  void clear() { points_.clear(); }
  /// The pointer position, for the rubber band to the next point.
  void set_pointer(Vec2 p) { pointer_ = p; }
  /// True if `p` is within `radius` of the first point.
  bool near_first(Vec2 p, double radius) const;
  /// True if `p` is within `radius` of the last point.
  bool near_last(Vec2 p, double radius) const;
  /// Draws the points, the edges and the rubber band into the Markers layer; `closed`
  /// also draws the closing edge back to the first point.
  void draw(render::DrawList& out, bool closed, double handle_radius) const;

 private:
  std::vector<Vec2> points_;
  Vec2 pointer_{0, 0};
};

/// A press-drag-release gesture with the left button, world metres.
struct DragGesture {
  bool active = false;
  Vec2 from{0, 0};  ///< Where the button went down.
  Vec2 to{0, 0};    ///< Where the pointer is now.
  void begin(Vec2 p) {
    active = true;
    from = to = p;
  }
  double length() const;
};

/// Adds a feature with `shape` and `terrain` through ctx.doc as one undo step and
/// selects it; a refusal is reported with the validator's message. Returns success.
bool add_feature(ToolContext& ctx, Shape shape, std::size_t terrain, const std::string& label);

/// Adds a region (a feature such as a swamp or a nebula) as one undo step and selects it,
/// as add_feature. With `keep_walls` it goes beneath the first wall feature (a terrain no
/// class may enter) whose bounds meet its own, so walls drawn as shapes stay walls;
/// otherwise on top of every feature (later features paint over earlier ones). Wall cells
/// it still turns into its terrain (walls of the tile grid lie under every feature) are
/// counted and said in a warning that names the undo. Returns success.
bool add_region(ToolContext& ctx, Shape shape, std::size_t terrain, bool keep_walls,
                const std::string& label);

/// Cells that are walls (a terrain no class may enter, not under an intact bridge) in
/// `before` and not in `after`: the two scenarios rasterised where they differ.
std::size_t walls_opened(const Scenario& before, const Scenario& after);

/// A polygon shape with `points`.
Shape polygon_shape(std::vector<Vec2> points);

}  // namespace pathscope::app::tools
