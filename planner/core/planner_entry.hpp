#pragma once

// A planner's registry entry written against its typed parameters: each parameter is
// declared once, with its name, help, default, range and the field of the family's
// `XxxParams` struct it sets, so the list the CLI and the window show and the struct the
// planner is built from cannot disagree. `to_planner_info` turns an entry into the
// registry's untyped PlannerInfo. Families write their entries with this header
// (e.g. planner/grid/grid_registry.cpp); planner/registry only lists the families.

#include <cassert>
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "planner/core/planner_registry.hpp"
#include "planner/core/result.hpp"

namespace pathscope {

/// One parameter of a planner, bound to the field of its params struct `P` it sets.
template <class P>
struct ParamField {
  ParamSpec spec;  ///< Name, help, default, range, choices.
  /// Writes a value (in the spec's range) into its field, converting it to the field's
  /// type (e.g. `[](P& p, double v) { p.weight = v; }`).
  void (*set)(P& params, double value) = nullptr;
};

/// A planner's registry entry, written against its params struct `P`.
template <class P>
struct PlannerEntry {
  std::string name;        ///< Registry name, e.g. "weighted_astar".
  std::string family;      ///< Its folder.
  std::string summary;     ///< One line.
  bool exact = true;       ///< Guarantees optimal costs.
  std::string cost_units;  ///< What `cost` measures.
  /// The struct every planner is built from before its parameters are set (the values of
  /// the fields no parameter sets).
  P base{};
  std::vector<ParamField<P>> fields;  ///< Its parameters, in the order users see them.
  /// Builds the planner for a context from its typed parameters.
  std::function<std::unique_ptr<Planner>(const QueryContext&, const P&)> create;
  RefereeSpec referee{};  ///< Cost model and cell centres (the clearance is `clearance`).
  /// Metres the planner's paths keep from obstacles with parameters `p` for the context's
  /// world and class; nullptr: none, they may touch obstacles.
  double (*clearance)(const P& p, const QueryContext& context) = nullptr;
  /// A rule between parameters (each field already in its range); nullptr: none. Its
  /// error's message names the parameters.
  Status (*check)(const P& p) = nullptr;
};

/// A referee spec for a planner whose cost is the world's cost of its polyline, at most
/// `bound` times the reference (RefereeSpec::bound).
inline RefereeSpec polyline_cost_within(double bound) {
  RefereeSpec spec;
  spec.bound = bound;
  return spec;
}

/// `base` with `values` (one per field, in order) written into their fields.
template <class P>
P bind_params(const std::vector<ParamField<P>>& fields, P base, std::span<const double> values) {
  // A list of another length is a caller's broken precondition (check_params refuses
  // it); the release build takes the defaults of missing values and ignores extras.
  assert(values.size() == fields.size());
  for (std::size_t i = 0; i < fields.size(); ++i)
    fields[i].set(base, i < values.size() ? values[i] : fields[i].spec.default_value);
  return base;
}

/// The registry's PlannerInfo for a typed entry.
template <class P>
PlannerInfo to_planner_info(PlannerEntry<P> entry) {
  PlannerInfo info;
  info.name = std::move(entry.name);
  info.family = std::move(entry.family);
  info.summary = std::move(entry.summary);
  info.exact = entry.exact;
  info.cost_units = std::move(entry.cost_units);
  for (const ParamField<P>& f : entry.fields) info.params.push_back(f.spec);
  info.referee = std::move(entry.referee);
  auto fields = std::make_shared<const std::vector<ParamField<P>>>(std::move(entry.fields));
  auto base = std::make_shared<const P>(std::move(entry.base));
  info.create = [fields, base, create = std::move(entry.create)](const QueryContext& c) {
    return create(c, bind_params(*fields, *base, c.params));
  };
  if (entry.clearance) {
    info.clearance = [fields, base, clearance = entry.clearance](const QueryContext& c) {
      return clearance(bind_params(*fields, *base, c.params), c);
    };
  }
  if (entry.check) {
    info.check = [fields, base, check = entry.check](std::span<const double> values) {
      return check(bind_params(*fields, *base, values));
    };
  }
  return info;
}

}  // namespace pathscope
