#pragma once

// A plain, inspectable list of drawing primitives in WORLD coordinates (metres, y down).
//
// The scene painter fills it from planner state; one adapter in app/ replays it into
// ImGui (on screen and headless). Tests read it back to check what is drawn. Primitives
// are kept per layer, in insertion order; layers are drawn in the order of `Layer`.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "planner/core/cell_rect.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope::render {

/// Drawing layers, in drawing order (first is at the bottom).
enum class Layer : std::uint8_t {
  Tiles,            ///< The terrain raster.
  CostHeat,         ///< Terrain cost multipliers of one movement class.
  Regions,          ///< Connected regions of one movement class.
  Features,         ///< Vector features (obstacles, nebulae, swamps).
  Roads,            ///< Road polylines.
  Bridges,          ///< Bridge decks; destroyed bridges dashed red.
  Influences,       ///< Threat (red) and ally (green) circles.
  Knowledge,        ///< Fog of war: each faction's view circles and the features it remembers, in its colour.
  PlannerCells,     ///< The active planner's cells (grid or quadtree cells, polygons), by value.
  PlannerDetail,    ///< A finer division of those cells (a navmesh's detail triangles), outlined.
  PlannerEdges,     ///< The active planner's edges (neighbour links, visibility links).
  PlannerAux,       ///< The active planner's own auxiliary shapes (inflated obstacles, regions).
  Closed,           ///< Closed search nodes, coloured by g.
  Open,             ///< Open search nodes, coloured by f.
  Current,          ///< The open node with the least f = g + h (the next one A* expands).
  PartialPath,      ///< The parent chain of the current node while a search runs.
  PlannerCorridor,  ///< The cells the path found runs through (once the replay reaches the search's end).
  PlannerPortals,   ///< The boundaries the path crosses between those cells.
  RefinementGraph,  ///< The secondary graph the latest refinement stage searched (nodes, forward links).
  RefinementRegion,  ///< The region the latest refinement step reasoned with (a visibility wedge).
  Refinement,        ///< The latest intermediate polyline of a search (smoothing, string pulling).
  AllPaths,          ///< The paths of the other queries (every query but the traced one), thin.
  Path,              ///< The path found.
  ComparedPaths,     ///< Every planner's path of the planner comparison, each in its colour.
  SimDensity,        ///< The simulation's collision density, a heat map (off by default).
  SimPassages,       ///< Narrow passages: their cells, the way units go through now, who waits.
  SimPaths,          ///< Each simulated unit's remaining path and the waypoint it heads for.
  SimPredicted,      ///< Each simulated unit's predicted positions: a polyline with a dot per point.
  SimCollisions,     ///< Collisions between simulated units: a line between the two, coloured by state.
  SimTargets,        ///< What cooperation asks of a unit: move-aside targets, homes and get-to points.
  SimFormation,      ///< Group orders: the ordered point and each unit's slot goal round it.
  SimPlatoons,  ///< Platoons: path, position and heading, slots, drive-to points, crews' cases and avoidance.
  Units,        ///< Units (the scenario's, or the simulation's while it runs): body, heading.
  Markers,      ///< Query start and goal.
  Labels,       ///< Text.
};

/// Number of layers.
inline constexpr std::size_t kLayerCount = static_cast<std::size_t>(Layer::Labels) + 1;

/// Every layer, in drawing order.
std::array<Layer, kLayerCount> all_layers();

/// snake_case name of a layer ("tiles", "cost_heat", "partial_path", ...).
const char* to_string(Layer layer);

/// The layer named `name` (snake_case), or nullopt.
std::optional<Layer> layer_from_string(std::string_view name);

/// The kinds of primitive.
enum class PrimitiveKind : std::uint8_t { Line, Polyline, Polygon, Circle, Rect, Text, Image };

/// Number of primitive kinds.
inline constexpr std::size_t kPrimitiveKindCount = static_cast<std::size_t>(PrimitiveKind::Image) + 1;

/// snake_case name of a primitive kind.
const char* to_string(PrimitiveKind kind);

/// A segment. Drawn max(thickness px, world_width * pixels per metre) wide.
struct LinePrim {
  Vec2 a{0, 0};
  Vec2 b{0, 0};
  float thickness = 1;     ///< Pixels.
  double world_width = 0;  ///< Metres; 0 = pixels only.
};

/// An open or closed polyline; width rule as LinePrim.
struct PolylinePrim {
  std::vector<Vec2> points;
  bool closed = false;     ///< Joins the last point to the first.
  float thickness = 1;     ///< Pixels.
  double world_width = 0;  ///< Metres; 0 = pixels only.
};

/// A filled simple polygon (convex or not, either winding). `triangles` holds index
/// triples into `points`, computed when the polygon is added; empty if not simple.
struct PolygonPrim {
  std::vector<Vec2> points;
  std::vector<std::uint32_t> triangles;
};

/// A circle, filled or outlined.
struct CirclePrim {
  Vec2 center{0, 0};
  double radius = 1;        ///< Metres.
  float min_radius_px = 0;  ///< Drawn at least this many pixels wide (markers, units).
  bool filled = true;
  float thickness = 1;  ///< Outline width in pixels (outline only).
};

/// An axis-aligned rectangle, filled or outlined.
struct RectPrim {
  Vec2 min{0, 0};  ///< Corner with the smallest x and y.
  Vec2 max{0, 0};  ///< Corner with the largest x and y.
  bool filled = true;
  float thickness = 1;  ///< Outline width in pixels (outline only).
};

/// Where a text sits relative to its anchor.
enum class TextAlign : std::uint8_t { TopLeft, Center };

/// A text in the UI font, at a fixed pixel size.
struct TextPrim {
  Vec2 anchor{0, 0};
  std::string text;
  TextAlign align = TextAlign::TopLeft;
};

/// An RGBA8 pixel buffer covering a world rectangle, sampled nearest-neighbour.
/// `key` + `version` identify the pixels: adapters cache one texture per key and upload
/// again only when the version changes; when they hold `base_version`, only the pixels
/// of `changed` (the rest equal base_version's).
struct ImagePrim {
  std::string key;                 ///< Stable name, e.g. "tiles".
  std::uint64_t version = 0;       ///< Changes whenever the pixels change.
  std::uint64_t base_version = 0;  ///< The previous version (0: unknown, upload it all).
  CellRect changed;                ///< Pixels that differ from base_version's.
  int width = 0;                   ///< Pixels.
  int height = 0;                  ///< Pixels.
  std::vector<std::uint8_t> rgba;  ///< width * height * 4 bytes, row-major, row 0 at min.y.
  Vec2 min{0, 0};                  ///< World corner of pixel (0, 0)'s top-left.
  Vec2 max{0, 0};                  ///< World corner of the last pixel's bottom-right.
};

/// The shape of one primitive; the alternatives are in PrimitiveKind order.
using PrimitiveShape =
    std::variant<LinePrim, PolylinePrim, PolygonPrim, CirclePrim, RectPrim, TextPrim, ImagePrim>;

/// One thing to draw: a shape, its colour and its layer.
struct Primitive {
  Layer layer = Layer::Tiles;
  Color color;  ///< RGBA8; an image's colour tints it (white = unchanged).
  PrimitiveShape shape;

  /// The kind of `shape`.
  PrimitiveKind kind() const { return static_cast<PrimitiveKind>(shape.index()); }
};

/// 64-bit FNV-1a hash of bytes; a content version for image primitives.
std::uint64_t content_hash(const std::vector<std::uint8_t>& bytes);

/// Primitives grouped by layer. A value type: cheap to clear and refill each change.
class DrawList {
 public:
  /// Removes every primitive.
  void clear();
  /// Adds every primitive of `other`, layer by layer, after this list's own.
  void append(const DrawList& other);

  /// Adds a segment.
  void line(Layer layer, Color color, Vec2 a, Vec2 b, float thickness_px = 1, double world_width = 0);
  /// Adds a polyline (ignored if it has fewer than 2 points).
  void polyline(Layer layer, Color color, std::vector<Vec2> points, bool closed, float thickness_px = 1,
                double world_width = 0);
  /// Adds a filled simple polygon (ignored if it has fewer than 3 points).
  void polygon(Layer layer, Color color, std::vector<Vec2> points);
  /// Adds a circle; radius in metres.
  void circle(Layer layer, Color color, Vec2 center, double radius, bool filled, float thickness_px = 1,
              float min_radius_px = 0);
  /// Adds an axis-aligned rectangle given by two opposite corners (any order).
  void rect(Layer layer, Color color, Vec2 a, Vec2 b, bool filled, float thickness_px = 1);
  /// Adds a text.
  void text(Layer layer, Color color, Vec2 anchor, std::string text, TextAlign align = TextAlign::TopLeft);
  /// Adds an image; `image.version` 0 is replaced by the hash of its pixels.
  void image(Layer layer, Color tint, ImagePrim image);
  /// Adds a prepared primitive as is.
  void add(Primitive primitive);

  /// The primitives of one layer, in insertion order.
  const std::vector<Primitive>& layer(Layer layer) const { return layers_[static_cast<std::size_t>(layer)]; }
  /// Number of primitives in all layers.
  std::size_t size() const;
  /// True when there is nothing to draw.
  bool empty() const { return size() == 0; }
  /// Number of primitives of `layer`, of any kind.
  std::size_t count(Layer layer) const { return this->layer(layer).size(); }
  /// Number of primitives of `layer` and `kind`.
  std::size_t count(Layer layer, PrimitiveKind kind) const;
  /// Number of primitives of `kind` in all layers.
  std::size_t count(PrimitiveKind kind) const;
  /// The primitives of `layer` and `kind`, in insertion order (for tests).
  std::vector<const Primitive*> find(Layer layer, PrimitiveKind kind) const;
  /// One line per non-empty layer: "features: 2 polygon, 2 polyline" (for tests and logs).
  std::string summary() const;

 private:
  std::array<std::vector<Primitive>, kLayerCount> layers_;
};

}  // namespace pathscope::render
