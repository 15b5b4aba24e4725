#pragma once
#include "planner/core/types.hpp"
