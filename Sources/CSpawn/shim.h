#ifndef TACTILE_CSPAWN_SHIM_H
#define TACTILE_CSPAWN_SHIM_H
#include <spawn.h>

/// glibc 2.34's "close every fd from here" for posix_spawn: declared by spawn.h only under
/// _GNU_SOURCE, which Swift's Glibc module is built without.
int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
#endif
