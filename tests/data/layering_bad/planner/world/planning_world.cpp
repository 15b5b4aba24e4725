#include <SDL.h>
#include "planner/world/planning_world.hpp"
