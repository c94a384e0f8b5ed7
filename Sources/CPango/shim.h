#ifndef TACTILE_CPANGO_SHIM_H
#define TACTILE_CPANGO_SHIM_H
#include <pango/pangocairo.h>
#endif
