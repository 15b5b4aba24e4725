#include <imgui.h>
#include "app/editor/document.hpp"
