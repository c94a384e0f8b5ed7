// libwayland-client for Swift (the tests' clients, and later the nested backend).
#ifndef TACTILE_CWAYLANDCLIENT_SHIM_H
#define TACTILE_CWAYLANDCLIENT_SHIM_H

#define WL_HIDE_DEPRECATED 1
#include <wayland-client.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Swift imports the interface constants by value; these return their real addresses.
#define TACTILE_CLIENT_INTERFACE(name) \
    static inline const struct wl_interface *tactile_client_##name##_interface(void) { return &name##_interface; }
TACTILE_CLIENT_INTERFACE(wl_compositor)
TACTILE_CLIENT_INTERFACE(wl_subcompositor)
TACTILE_CLIENT_INTERFACE(wl_shm)
TACTILE_CLIENT_INTERFACE(wl_seat)
TACTILE_CLIENT_INTERFACE(wl_output)
TACTILE_CLIENT_INTERFACE(wl_shell)
TACTILE_CLIENT_INTERFACE(wl_data_device_manager)

static inline int tactile_client_memfd_create(const char *name) {
    return (int)syscall(SYS_memfd_create, name, 0x0001U /* MFD_CLOEXEC */);
}

#endif
