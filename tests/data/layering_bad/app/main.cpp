#include <imgui.h>
#include "render/core/draw_list.hpp"
