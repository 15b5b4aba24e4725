#pragma once

// Scenario -> scenario JSON text in the canonical, deterministic layout.

#include <string>

#include "planner/scenario/scenario.hpp"

namespace pathscope {

/// The scenario as JSON text in the canonical layout (2-space indent, number arrays and
/// point lists on one line, numbers in shortest round-trip form, trailing newline).
/// Deterministic: save -> load -> save gives the same bytes. Empty optional sections are
/// omitted. Out-of-range indices are written as "". scenario_to_json is this function.
std::string write_scenario_json(const Scenario& scenario);

}  // namespace pathscope
