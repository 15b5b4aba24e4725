#pragma once
// What the painters' tests share: the primitives of one kind on a layer of a draw list.

#include <variant>
#include <vector>

#include "render/core/draw_list.hpp"

namespace pathscope::render::test_support {

/// The primitives of type `Shape` on `layer` of `list`, in order.
template <class Shape>
std::vector<const Shape*> shapes(const DrawList& list, Layer layer) {
  std::vector<const Shape*> out;
  for (const Primitive& p : list.layer(layer)) {
    if (const Shape* s = std::get_if<Shape>(&p.shape)) out.push_back(s);
  }
  return out;
}

}  // namespace pathscope::render::test_support
