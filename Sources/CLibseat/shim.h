#ifndef TACTILE_CLIBSEAT_SHIM_H
#define TACTILE_CLIBSEAT_SHIM_H
#include <libseat.h>
#endif
