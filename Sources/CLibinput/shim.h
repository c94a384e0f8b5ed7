#ifndef TACTILE_CLIBINPUT_SHIM_H
#define TACTILE_CLIBINPUT_SHIM_H
#include <libinput.h>
#include <libudev.h>
#endif
