#ifndef TACTILE_CXCURSOR_SHIM_H
#define TACTILE_CXCURSOR_SHIM_H
#include <X11/Xcursor/Xcursor.h>
#endif
