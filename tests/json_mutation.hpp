#pragma once
// What the seeded mutation fuzzers share (scenarios, saved games, recordings): a seeded
// generator, a uniform pick, the pointers of every value of a JSON document, and a value
// of another type. Each fuzzer keeps its own number edits (what a damaged file of its kind
// holds).

#include <cstddef>
#include <random>
#include <vector>

#include <nlohmann/json.hpp>

namespace pathscope::test {

using Json = nlohmann::json;
using Rng = std::mt19937_64;

/// A number in [0, n), n > 0.
inline std::size_t pick(Rng& rng, std::size_t n) {
  return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
}

/// Every value's pointer under `at`, and every list's and object's, in document order.
inline void collect(const Json& j, const Json::json_pointer& at, std::vector<Json::json_pointer>& values,
                    std::vector<Json::json_pointer>& lists, std::vector<Json::json_pointer>& objects) {
  values.push_back(at);
  if (j.is_array()) {
    lists.push_back(at);
    for (std::size_t k = 0; k < j.size(); ++k) collect(j[k], at / k, values, lists, objects);
  } else if (j.is_object()) {
    objects.push_back(at);
    for (const auto& [key, v] : j.items()) collect(v, at / key, values, lists, objects);
  }
}

/// A value of another type than a number: a string, an object, a list, null, a boolean.
inline Json other_type(Rng& rng) {
  switch (pick(rng, 6)) {
    case 0: return "x";
    case 1: return Json::object();
    case 2: return Json::array();
    case 3: return nullptr;
    case 4: return true;
    default: return Json::array({1, 2});
  }
}

}  // namespace pathscope::test
