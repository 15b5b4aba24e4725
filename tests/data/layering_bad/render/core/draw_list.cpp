#include "app/editor/document.hpp"
#include <imgui.h>
