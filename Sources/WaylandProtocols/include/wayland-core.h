// The core interfaces at the versions Tactile offers beyond libwayland 1.21's tables
// (wayland-core-protocol.c, generated from protocol/wayland-core.xml), and their messages
// libwayland's headers do not have. Not generated: wayland-scanner's headers for these would
// redefine libwayland's own functions. Swift reaches variadic marshalling through these.
#ifndef TACTILE_WAYLAND_CORE_H
#define TACTILE_WAYLAND_CORE_H

#include <wayland-server-core.h>
#include <wayland-client-core.h>

extern const struct wl_interface tactile_core_wl_compositor_interface;
extern const struct wl_interface tactile_core_wl_surface_interface;
extern const struct wl_interface tactile_core_wl_seat_interface;
extern const struct wl_interface tactile_core_wl_pointer_interface;
extern const struct wl_interface tactile_core_wl_shm_interface;
extern const struct wl_interface tactile_core_wl_shm_pool_interface;

static inline const struct wl_interface *tactile_wl_compositor_interface(void) { return &tactile_core_wl_compositor_interface; }
static inline const struct wl_interface *tactile_wl_surface_interface(void) { return &tactile_core_wl_surface_interface; }
static inline const struct wl_interface *tactile_wl_seat_interface(void) { return &tactile_core_wl_seat_interface; }
static inline const struct wl_interface *tactile_wl_pointer_interface(void) { return &tactile_core_wl_pointer_interface; }
static inline const struct wl_interface *tactile_wl_shm_interface(void) { return &tactile_core_wl_shm_interface; }
static inline const struct wl_interface *tactile_wl_shm_pool_interface(void) { return &tactile_core_wl_shm_pool_interface; }

/// wl_shm's requests at version 2: libwayland 1.21's `struct wl_shm_interface` stops at
/// create_pool.
struct tactile_wl_shm_requests {
    void (*create_pool)(struct wl_client *client, struct wl_resource *resource, uint32_t id, int32_t fd, int32_t size);
    void (*release)(struct wl_client *client, struct wl_resource *resource);
};

#define TACTILE_WL_SURFACE_PREFERRED_BUFFER_SCALE 2
#define TACTILE_WL_SURFACE_PREFERRED_BUFFER_TRANSFORM 3
#define TACTILE_WL_SURFACE_PREFERRED_SINCE_VERSION 6
#define TACTILE_WL_POINTER_AXIS_RELATIVE_DIRECTION 10
#define TACTILE_WL_POINTER_AXIS_RELATIVE_DIRECTION_SINCE_VERSION 9

static inline void tactile_wl_surface_send_preferred_buffer_scale(struct wl_resource *surface, int32_t factor) {
    wl_resource_post_event(surface, TACTILE_WL_SURFACE_PREFERRED_BUFFER_SCALE, factor);
}

static inline void tactile_wl_surface_send_preferred_buffer_transform(struct wl_resource *surface, uint32_t transform) {
    wl_resource_post_event(surface, TACTILE_WL_SURFACE_PREFERRED_BUFFER_TRANSFORM, transform);
}

static inline void tactile_wl_pointer_send_axis_relative_direction(struct wl_resource *pointer, uint32_t axis, uint32_t direction) {
    wl_resource_post_event(pointer, TACTILE_WL_POINTER_AXIS_RELATIVE_DIRECTION, axis, direction);
}

// Client side, for test clients that bind these versions: libwayland-client's inline
// wl_compositor_create_surface would make the surface with its own version 5 table, whose
// events stop at leave.
static inline struct wl_proxy *tactile_client_create_surface_v6(struct wl_proxy *compositor) {
    return wl_proxy_marshal_flags(compositor, 0, &tactile_core_wl_surface_interface,
                                  wl_proxy_get_version(compositor), 0, NULL);
}

/// wl_shm.release, for a test client that bound wl_shm 2 with `tactile_wl_shm_interface`.
static inline void tactile_client_shm_release(struct wl_proxy *shm) {
    wl_proxy_marshal_flags(shm, 1, NULL, wl_proxy_get_version(shm), WL_MARSHAL_FLAG_DESTROY);
}

static inline struct wl_proxy *tactile_client_get_pointer_v9(struct wl_proxy *seat) {
    return wl_proxy_marshal_flags(seat, 0, &tactile_core_wl_pointer_interface,
                                  wl_proxy_get_version(seat), 0, NULL);
}

struct tactile_client_surface_listener_v6 {
    void (*enter)(void *data, struct wl_proxy *surface, struct wl_proxy *output);
    void (*leave)(void *data, struct wl_proxy *surface, struct wl_proxy *output);
    void (*preferred_buffer_scale)(void *data, struct wl_proxy *surface, int32_t factor);
    void (*preferred_buffer_transform)(void *data, struct wl_proxy *surface, uint32_t transform);
};

struct tactile_client_pointer_listener_v9 {
    void (*enter)(void *data, struct wl_proxy *pointer, uint32_t serial, struct wl_proxy *surface, wl_fixed_t x, wl_fixed_t y);
    void (*leave)(void *data, struct wl_proxy *pointer, uint32_t serial, struct wl_proxy *surface);
    void (*motion)(void *data, struct wl_proxy *pointer, uint32_t time, wl_fixed_t x, wl_fixed_t y);
    void (*button)(void *data, struct wl_proxy *pointer, uint32_t serial, uint32_t time, uint32_t button, uint32_t state);
    void (*axis)(void *data, struct wl_proxy *pointer, uint32_t time, uint32_t axis, wl_fixed_t value);
    void (*frame)(void *data, struct wl_proxy *pointer);
    void (*axis_source)(void *data, struct wl_proxy *pointer, uint32_t source);
    void (*axis_stop)(void *data, struct wl_proxy *pointer, uint32_t time, uint32_t axis);
    void (*axis_discrete)(void *data, struct wl_proxy *pointer, uint32_t axis, int32_t discrete);
    void (*axis_value120)(void *data, struct wl_proxy *pointer, uint32_t axis, int32_t value120);
    void (*axis_relative_direction)(void *data, struct wl_proxy *pointer, uint32_t axis, uint32_t direction);
};

static inline int tactile_client_surface_add_listener_v6(struct wl_proxy *surface, const struct tactile_client_surface_listener_v6 *listener, void *data) {
    return wl_proxy_add_listener(surface, (void (**)(void))listener, data);
}

static inline int tactile_client_pointer_add_listener_v9(struct wl_proxy *pointer, const struct tactile_client_pointer_listener_v9 *listener, void *data) {
    return wl_proxy_add_listener(pointer, (void (**)(void))listener, data);
}

#endif
