// The WLCS integration's C side: it defines the wlcs_server_integration symbol WLCS looks for,
// and forwards each hook to a Swift function (TactileWLCS, exported with @_cdecl) with plain
// values in place of WLCS's and libwayland-client's pointers.
#ifndef TACTILE_WLCS_GLUE_H
#define TACTILE_WLCS_GLUE_H
#endif
