#pragma once
// The one symbol the Qt module exports (app/gui_main.cpp); app/main.cpp looks it up by this name.

#define RANKLINE_GUI_ENTRY "rankline_gui_main"

extern "C" {
// The window (argv without a command) or `rankline report`; returns the exit status.
__attribute__((visibility("default"))) int rankline_gui_main(int argc, char** argv);
}
