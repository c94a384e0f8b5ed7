// libwayland-server for Swift: the header, plus what Swift cannot reach by itself
// (variadic functions, addresses of interface constants, container_of, memfd).
#ifndef TACTILE_CWAYLANDSERVER_SHIM_H
#define TACTILE_CWAYLANDSERVER_SHIM_H

// No _GNU_SOURCE here: it changes glibc's structs (fd_set) and clashes with Swift's Glibc module.
// Without this, wl_resource imports as a struct with bogus fields instead of an opaque pointer.
#define WL_HIDE_DEPRECATED 1
#include <dlfcn.h>
#include <malloc.h>
#include <wayland-server.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <fcntl.h>
#include <unistd.h>

// Kernel ABI constants glibc only shows under _GNU_SOURCE.
#define TACTILE_MFD_CLOEXEC 0x0001U
#define TACTILE_MFD_ALLOW_SEALING 0x0002U
#define TACTILE_F_ADD_SEALS 1033
#define TACTILE_F_SEAL_SEAL 0x0001
#define TACTILE_F_SEAL_SHRINK 0x0002
#define TACTILE_F_SEAL_GROW 0x0004
#define TACTILE_F_SEAL_WRITE 0x0008

/// wl_resource_post_error is variadic; Swift passes a ready message.
static inline void tactile_post_error(struct wl_resource *resource, uint32_t code, const char *message) {
    wl_resource_post_error(resource, code, "%s", message);
}

/// wl_client_post_implementation_error is variadic too: a limit of the compositor's was hit.
static inline void tactile_post_implementation_error(struct wl_client *client, const char *message) {
    wl_client_post_implementation_error(client, "%s", message);
}

/// Swift imports the interface constants by value; these return their real addresses.
/// (wl_compositor, wl_surface, wl_seat and wl_pointer come from WaylandProtocols' wayland-core.h,
/// at versions newer than these tables.)
#define TACTILE_INTERFACE(name) \
    static inline const struct wl_interface *tactile_##name##_interface(void) { return &name##_interface; }
TACTILE_INTERFACE(wl_region)
TACTILE_INTERFACE(wl_callback)
TACTILE_INTERFACE(wl_subcompositor)
TACTILE_INTERFACE(wl_subsurface)
TACTILE_INTERFACE(wl_keyboard)
TACTILE_INTERFACE(wl_touch)
TACTILE_INTERFACE(wl_output)
TACTILE_INTERFACE(wl_buffer)
TACTILE_INTERFACE(wl_data_device_manager)
TACTILE_INTERFACE(wl_data_device)
TACTILE_INTERFACE(wl_data_source)
TACTILE_INTERFACE(wl_data_offer)
TACTILE_INTERFACE(wl_shell)
TACTILE_INTERFACE(wl_shell_surface)

/// Gives memory glibc's allocator holds free back to the system (malloc_trim), so a burst of
/// clients does not leave the server's footprint at its peak. Not under a sanitizer: its
/// runtime owns malloc, and glibc's trim then walks arenas glibc half set up (AddressSanitizer
/// saw it fault inside malloc_trim). A runtime is found by its symbol (dlsym with a null
/// handle is RTLD_DEFAULT), asked each time, as it costs little and keeps no shared state.
static inline int tactile_malloc_trim(void) {
    if (dlsym(NULL, "__asan_init") != NULL || dlsym(NULL, "__tsan_init") != NULL) return 0;
    return malloc_trim(0);
}

/// A wl_listener with a context pointer beside it: Swift has no container_of.
struct tactile_listener {
    struct wl_listener listener;
    void *context;
};

static inline struct tactile_listener *tactile_listener_create(void *context, wl_notify_func_t notify) {
    struct tactile_listener *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    l->context = context;
    l->listener.notify = notify;
    return l;
}

static inline void *tactile_listener_context(struct wl_listener *listener) {
    return ((struct tactile_listener *)((char *)listener - offsetof(struct tactile_listener, listener)))->context;
}

/// Unlinks (if linked) and frees a listener made by tactile_listener_create.
static inline void tactile_listener_destroy(struct tactile_listener *l) {
    if (l->listener.link.next) wl_list_remove(&l->listener.link);
    free(l);
}

/// A sealable anonymous file, for the keymap (Glibc's Swift module does not show memfd_create).
static inline int tactile_memfd_create(const char *name) {
    return (int)syscall(SYS_memfd_create, name, TACTILE_MFD_CLOEXEC | TACTILE_MFD_ALLOW_SEALING);
}

/// Seals a memfd so a client can map it but nobody can change or grow it.
static inline int tactile_memfd_seal_readonly(int fd) {
    return fcntl(fd, TACTILE_F_ADD_SEALS, TACTILE_F_SEAL_SHRINK | TACTILE_F_SEAL_GROW | TACTILE_F_SEAL_WRITE | TACTILE_F_SEAL_SEAL);
}

#endif
