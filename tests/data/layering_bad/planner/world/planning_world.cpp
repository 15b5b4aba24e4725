#include "planner/world/planning_world.hpp"
#include <SDL.h>
