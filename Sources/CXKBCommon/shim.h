#ifndef TACTILE_CXKBCOMMON_SHIM_H
#define TACTILE_CXKBCOMMON_SHIM_H
#include <xkbcommon/xkbcommon.h>
#endif
