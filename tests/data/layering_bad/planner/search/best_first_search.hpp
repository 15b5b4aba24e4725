// Breaks a rule on purpose: shared search code includes a family.
#pragma once

#include "planner/grid/grid_search_state.hpp"
