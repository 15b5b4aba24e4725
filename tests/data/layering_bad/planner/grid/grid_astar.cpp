#include "planner/quadtree/quadtree.hpp"
#include "planner/world/planning_world.hpp"
