#ifndef TACTILE_CPNG_SHIM_H
#define TACTILE_CPNG_SHIM_H
#include <png.h>
#endif
