#ifndef TACTILE_CCRYPT_SHIM_H
#define TACTILE_CCRYPT_SHIM_H
#include <crypt.h>
#endif
