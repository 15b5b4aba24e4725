#pragma once

// Node views of a query that runs several searches in turn (the hybrid's legs, the
// navmesh's searches on slow ground), merged as a replay of their traces shows them.

#include <cstddef>
#include <vector>

#include "planner/core/search.hpp"

namespace pathscope {

/// `later` (sorted by node) laid over `earlier` (sorted by node), as a trace replay lays a
/// later search's events over an earlier one's records: g, h and parent from the later,
/// closed if either closed it. Sorted by node.
inline std::vector<NodeView> merge_node_views(const std::vector<NodeView>& earlier,
                                              const std::vector<NodeView>& later) {
  std::vector<NodeView> out;
  out.reserve(earlier.size() + later.size());
  std::size_t i = 0, j = 0;
  while (i < earlier.size() || j < later.size()) {
    if (j == later.size() || (i < earlier.size() && earlier[i].node < later[j].node)) {
      out.push_back(earlier[i++]);
    } else if (i == earlier.size() || later[j].node < earlier[i].node) {
      out.push_back(later[j++]);
    } else {
      NodeView v = later[j++];
      if (earlier[i++].closed) v.closed = true;
      out.push_back(v);
    }
  }
  return out;
}

}  // namespace pathscope
