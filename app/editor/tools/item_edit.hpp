#pragma once

// Reading and changing the item a Selection names, whatever its kind: its control
// points, its radius, removing it or one of its vertices. The select tool and the
// inspector share these, so a move or a delete means the same thing in both.

#include <optional>
#include <string>
#include <vector>

#include "app/editor/document.hpp"
#include "app/editor/editor_state.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope::app::tools {

/// The entry of `items` with id `id`, or nullptr.
template <typename T>
T* find_by_id(std::vector<T>& items, std::uint32_t id) {
  for (T& item : items) {
    if (item.id == id) return &item;
  }
  return nullptr;
}

/// The entry of `items` with id `id`, or nullptr.
template <typename T>
const T* find_by_id(const std::vector<T>& items, std::uint32_t id) {
  for (const T& item : items) {
    if (item.id == id) return &item;
  }
  return nullptr;
}

/// True when the selected item exists in `s`, and so does its vertex if one is selected.
bool selection_exists(const Scenario& s, const Selection& sel);

/// The number a query is shown with everywhere (inspector, debugger, tool labels, the
/// names the query tool gives): its position in the scenario's list counted from 1, so
/// the query at index 3 is "query 4". File and error paths keep the index (queries[3]).
inline std::size_t query_number(std::size_t index) { return index + 1; }

/// "query 4", or "query 4: across" for a query named otherwise than "query 4" (empty names
/// and the query tool's default name add nothing). `index` must exist in `s`.
std::string query_label(const Scenario& s, std::size_t index);

/// Short description for messages and undo labels, e.g. "feature 3" or "query 1 start"
/// (queries by query_number()).
std::string describe(const Selection& sel);

/// The control points of the selected item, world metres: polygon or road vertices;
/// rect {min, max}; circle, threat or ally {center}; bridge {a, b}; unit {position};
/// a query marker {start} or {goal}. Empty if the item does not exist.
std::vector<Vec2> item_points(const Scenario& s, const Selection& sel);

/// Replaces the control points (same count and order as item_points()); a rect's
/// corners are reordered so that min <= max. Does nothing if the item does not exist.
void set_item_points(Scenario& s, const Selection& sel, const std::vector<Vec2>& points);

/// Radius in metres of a circle feature, threat or ally; nullopt for other items.
std::optional<double> item_radius(const Scenario& s, const Selection& sel);

/// Sets the radius of a circle feature, threat or ally; other items are unchanged.
void set_item_radius(Scenario& s, const Selection& sel, double radius);

/// Gives `order` the kind `kind` with points that kind accepts: none for None and Stop;
/// for Move its first point; for Waypoints and Patrol its points, padded with `here`
/// (the unit's position, world metres) to at least 1 and 2. The patrol mode is kept.
void set_order_kind(Order& order, OrderKind kind, Vec2 here);

/// `delta` reduced so that every point of `points` moved by it stays in the world.
Vec2 clamp_move(const std::vector<Vec2>& points, Vec2 delta, const WorldInfo& world);

/// Deletes through `doc`: the selected vertex when sel.vertex >= 0 (a polygon keeps at
/// least 3 vertices, a road 2), else the whole item (a query marker deletes its query; a
/// unit leaves its group too).
Status delete_selection(Document& doc, const Selection& sel);

/// Inserts `p` after vertex `after` of the selected polygon feature or road, through
/// `doc` with `merge_key`.
Status insert_vertex(Document& doc, const Selection& sel, int after, Vec2 p, std::uint64_t merge_key = 0);

}  // namespace pathscope::app::tools
