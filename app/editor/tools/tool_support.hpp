#pragma once

// Small helpers shared by the editing tools: clamping to the world, fresh ids, merge
// keys for drags, reporting refused edits, and the colours of tool previews.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "app/editor/document.hpp"
#include "app/editor/editor_state.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope::app::tools {

/// Outline of shapes being drawn.
inline constexpr Color kDraftColor{255, 214, 64, 255};
/// Fill of shapes being drawn.
inline constexpr Color kDraftFill{255, 214, 64, 50};
/// Outline and handles of the selected item.
inline constexpr Color kSelectedColor{80, 200, 255, 255};
/// Outline of the item under the pointer.
inline constexpr Color kHoverColor{255, 255, 255, 150};

/// `p` moved onto the world rectangle [0, width] x [0, height] (metres).
Vec2 clamp_to_world(const WorldInfo& world, Vec2 p);

/// A merge key for `name` (64-bit FNV-1a, never 0): equal names give equal keys, so a
/// drag or a field edit that applies many times becomes one undo step.
constexpr std::uint64_t merge_key(std::string_view name) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (char c : name) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ull;
  }
  return h == 0 ? 1 : h;
}

/// A fresh id for a new entry of `items` (features, threats, roads, ...).
template <typename T>
std::uint32_t fresh_id(const std::vector<T>& items) {
  std::vector<std::uint32_t> used;
  used.reserve(items.size());
  for (const T& item : items) used.push_back(item.id);
  return Document::next_id(used);
}

/// True when `status` is ok; otherwise reports "`what` refused: <where>: <message>" to
/// the message panel as an error and returns false.
bool accept_or_report(EditorState& state, std::string_view what, const Status& status);

/// A length for labels, e.g. "12.5 m".
std::string format_metres(double metres);

/// `index` if it is < `count`, else 0 (settings kept across documents may be stale).
std::size_t index_or_zero(std::size_t index, std::size_t count);

}  // namespace pathscope::app::tools
