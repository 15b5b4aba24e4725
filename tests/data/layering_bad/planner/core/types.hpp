#pragma once
#include "planner/grid/grid_astar.hpp"
