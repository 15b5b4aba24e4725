#pragma once

// A binary min-heap of search entries with explicit tie-breaking, for lazy-deletion
// best-first searches: an improved node is pushed again and the stale entry is skipped
// when popped. Entries are ordered by f, then h rounded to float (deeper first), then node id, so every
// run of a search expands nodes in the same order.

#include <cstdint>
#include <vector>

#include "planner/core/search.hpp"

namespace pathscope {

/// One open-list entry: 16 bytes, so that four fit in a cache line. The heuristic is
/// kept as a float: it only breaks ties, and rounding it is deterministic.
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

/// Min-heap of OpenEntry. Memory is kept across clear() calls.
class OpenList {
 public:
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  void clear() { heap_.clear(); }
  const OpenEntry& top() const { return heap_.front(); }

  void push(const OpenEntry& e) {
    std::size_t i = heap_.size();
    heap_.push_back(e);
    while (i > 0) {
      const std::size_t parent = (i - 1) / 2;
      if (!open_before(e, heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = e;
  }

  OpenEntry pop() {
    const OpenEntry result = heap_.front();
    const OpenEntry last = heap_.back();
    heap_.pop_back();
    const std::size_t n = heap_.size();
    if (n > 0) {
      std::size_t i = 0;
      for (;;) {
        std::size_t child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && open_before(heap_[child + 1], heap_[child])) ++child;
        if (!open_before(heap_[child], last)) break;
        heap_[i] = heap_[child];
        i = child;
      }
      heap_[i] = last;
    }
    return result;
  }

 private:
  std::vector<OpenEntry> heap_;
};

}  // namespace pathscope
