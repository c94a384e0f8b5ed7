// What the measuring clients (tactile-latency-probe, tactile-frame-probe) share: shm buffers
// that know whether the compositor holds them, and the xdg_wm_base ping answer.
#ifndef TACTILE_PROBE_CLIENT_H
#define TACTILE_PROBE_CLIENT_H

#include <stdbool.h>
#include <stdint.h>
#include <wayland-client.h>

#include "xdg-shell-client-protocol.h"

struct probe_buffer {
    struct wl_buffer *proxy;
    uint32_t *pixels;
    /// Attached and committed, not released yet: not to be drawn into.
    bool busy;
};

/// The globals every probe draws with.
struct probe_globals {
    struct wl_compositor *compositor;
    struct wl_shm *shm;
    struct xdg_wm_base *wm_base;
};

/// Binds the announced global into `globals` when it is one of them (wl_compositor from
/// version 4, for damage_buffer); true when it was.
bool probe_bind(struct probe_globals *globals, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version);

/// `count` buffers of `width` x `height` in `format` (XRGB8888 or ARGB8888) from one memfd,
/// every pixel `fill`; false when memory runs out.
bool probe_make_buffers(struct wl_shm *shm, int width, int height, uint32_t format, uint32_t fill, struct probe_buffer *buffers, int count);

/// The first buffer the compositor does not hold, or NULL.
struct probe_buffer *probe_free_buffer(struct probe_buffer *buffers, int count);

/// A window asking to be fullscreen, titled `title`, its first commit made (the compositor
/// answers with a configure); its surface.
struct wl_surface *probe_fullscreen_window(struct wl_compositor *compositor, struct xdg_wm_base *wm_base, const char *title,
                                           const struct xdg_surface_listener *surface_listener,
                                           const struct xdg_toplevel_listener *toplevel_listener);

/// Answers the compositor's pings.
extern const struct xdg_wm_base_listener probe_wm_base_listener;

#endif
