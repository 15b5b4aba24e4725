#pragma once

// A min-heap of search entries with explicit tie-breaking, for lazy-deletion best-first
// searches: an improved node is pushed again and the stale entry is skipped when popped.
// Entries are ordered by f, then h rounded to float (deeper first), then node id, so every
// run of a search expands nodes in the same order.
//
// Layout, for speed (an open list's pops are most of a grid search's time): a 4-ary
// heap, so a node's four children share one 64-byte cache line and the heap is half as
// deep as a binary one; each slot holds the entry as one 128-bit key (f's bits, then h's,
// then the node, each mapped so that unsigned order is the numbers' order), so choosing
// the least of four children is three branch-free compares instead of nested tests on
// doubles and floats. The order is exactly the one open_before() states.

#include <bit>
#include <cassert>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "planner/core/search.hpp"

namespace pathscope {

/// One open-list entry: 16 bytes. The heuristic is kept as a float: it only breaks ties,
/// and rounding it is deterministic. f and h must not be NaN.
struct OpenEntry {
  double f;
  float h;
  NodeId node;
};
static_assert(sizeof(OpenEntry) == 16);

/// True if a comes out of the open list before b.
inline bool open_before(const OpenEntry& a, const OpenEntry& b) {
  if (a.f != b.f) return a.f < b.f;
  if (a.h != b.h) return a.h < b.h;
  return a.node < b.node;
}

/// Min-heap of OpenEntry; with kTagged, each entry also carries a 32-bit tag that takes
/// no part in the order (the quadtree planner orders by a leaf's corner and carries the
/// leaf's id, which would cost a table read per pop to find again). Memory is kept
/// across clear() calls.
template <bool kTagged>
class BasicOpenList {
  __extension__ typedef unsigned __int128 Key;
  struct TaggedKey {
    Key key;
    std::uint32_t tag;
  };
  using Slot = std::conditional_t<kTagged, TaggedKey, Key>;

 public:
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  void clear() { heap_.clear(); }
  /// The entry pop() would return; the list must not be empty.
  OpenEntry top() const { return entry(key_of(heap_.front())); }

  /// Adds an entry; `tag` is kept only when kTagged.
  void push(const OpenEntry& e, std::uint32_t tag = 0) {
    Slot s;
    if constexpr (kTagged) {
      s = TaggedKey{key(e), tag};
    } else {
      (void)tag;
      s = key(e);
    }
    const Key k = key_of(s);
    std::size_t i = heap_.size();
    heap_.push_back(s);
    Slot* h = heap_.data();
    while (i > 0) {
      const std::size_t parent = (i - 1) / kArity;
      if (!(k < key_of(h[parent]))) break;
      h[i] = h[parent];
      i = parent;
    }
    h[i] = s;
  }

  /// Removes and returns the least entry; its tag goes to `*tag` when kTagged and given.
  OpenEntry pop(std::uint32_t* tag = nullptr) {
    assert(!heap_.empty());
    const OpenEntry result = entry(key_of(heap_.front()));
    if constexpr (kTagged) {
      if (tag) *tag = heap_.front().tag;
    } else {
      (void)tag;
    }
    const Slot last = heap_.back();
    const Key last_key = key_of(last);
    heap_.pop_back();
    const std::size_t n = heap_.size();
    if (n == 0) return result;
    Slot* h = heap_.data();
    std::size_t i = 0;
    for (;;) {
      const std::size_t first = kArity * i + 1;
      if (first >= n) break;
      std::size_t best = first;
      if (first + kArity <= n) {  // all four children: no bounds tests
        const std::size_t b01 = key_of(h[first + 1]) < key_of(h[first]) ? first + 1 : first;
        const std::size_t b23 = key_of(h[first + 3]) < key_of(h[first + 2]) ? first + 3 : first + 2;
        best = key_of(h[b23]) < key_of(h[b01]) ? b23 : b01;
      } else {
        for (std::size_t c = first + 1; c < n; ++c) best = key_of(h[c]) < key_of(h[best]) ? c : best;
      }
      if (!(key_of(h[best]) < last_key)) break;
      h[i] = h[best];
      i = best;
    }
    h[i] = last;
    return result;
  }

 private:
  static constexpr std::size_t kArity = 4;

  static const Key& key_of(const Slot& s) {
    if constexpr (kTagged) {
      return s.key;
    } else {
      return s;
    }
  }
  // A double's bits mapped so that unsigned order is numeric order (-0 is taken as +0).
  static std::uint64_t ordered(double x) {
    const std::uint64_t u = std::bit_cast<std::uint64_t>(x + 0.0);
    return u ^ (std::uint64_t(std::int64_t(u) >> 63) | (std::uint64_t(1) << 63));
  }
  static double unordered(std::uint64_t u) {
    const std::uint64_t bits = u ^ ((u >> 63) ? (std::uint64_t(1) << 63) : ~std::uint64_t(0));
    return std::bit_cast<double>(bits);
  }
  static std::uint32_t ordered(float x) {
    const std::uint32_t u = std::bit_cast<std::uint32_t>(x + 0.0f);
    return u ^ (std::uint32_t(std::int32_t(u) >> 31) | (std::uint32_t(1) << 31));
  }
  static float unordered(std::uint32_t u) {
    const std::uint32_t bits = u ^ ((u >> 31) ? (std::uint32_t(1) << 31) : ~std::uint32_t(0));
    return std::bit_cast<float>(bits);
  }
  static Key key(const OpenEntry& e) {
    const std::uint64_t low = (std::uint64_t(ordered(e.h)) << 32) | e.node;
    return (Key(ordered(e.f)) << 64) | low;
  }
  static OpenEntry entry(Key k) {
    const auto low = std::uint64_t(k);
    return OpenEntry{unordered(std::uint64_t(k >> 64)), unordered(std::uint32_t(low >> 32)), NodeId(low)};
  }

  std::vector<Slot> heap_;
};

/// The open list of every search.
using OpenList = BasicOpenList<false>;
/// An open list whose entries carry a tag (see BasicOpenList).
using TaggedOpenList = BasicOpenList<true>;

}  // namespace pathscope
