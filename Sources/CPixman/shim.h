#ifndef TACTILE_CPIXMAN_SHIM_H
#define TACTILE_CPIXMAN_SHIM_H
#include <pixman.h>
#endif
