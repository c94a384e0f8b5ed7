#ifndef TACTILE_CYAML_SHIM_H
#define TACTILE_CYAML_SHIM_H
#include <yaml.h>
#endif
