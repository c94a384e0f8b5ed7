#define _GNU_SOURCE
#include "probe_client.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void ping(void *data, struct xdg_wm_base *wm_base, uint32_t serial) {
    (void)data;
    xdg_wm_base_pong(wm_base, serial);
}

const struct xdg_wm_base_listener probe_wm_base_listener = { ping };

static void buffer_release(void *data, struct wl_buffer *proxy) {
    (void)proxy;
    ((struct probe_buffer *)data)->busy = false;
}

static const struct wl_buffer_listener buffer_listener = { buffer_release };

bool probe_make_buffers(struct wl_shm *shm, int width, int height, uint32_t format, uint32_t fill, struct probe_buffer *buffers, int count) {
    size_t stride = (size_t)width * 4, size = stride * (size_t)height;
    int fd = memfd_create("tactile-probe", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)(size * (size_t)count)) < 0) return false;
    uint8_t *memory = mmap(NULL, size * (size_t)count, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (memory == MAP_FAILED) {
        close(fd);
        return false;
    }
    struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, (int32_t)(size * (size_t)count));
    for (int k = 0; k < count; k++) {
        struct probe_buffer *b = &buffers[k];
        b->pixels = (uint32_t *)(memory + size * (size_t)k);
        for (size_t p = 0; p < (size_t)width * (size_t)height; p++) b->pixels[p] = fill;
        b->proxy = wl_shm_pool_create_buffer(pool, (int32_t)(size * (size_t)k), width, height, (int32_t)stride, format);
        b->busy = false;
        wl_buffer_add_listener(b->proxy, &buffer_listener, b);
    }
    wl_shm_pool_destroy(pool);
    close(fd);
    return true;
}

bool probe_bind(struct probe_globals *globals, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    if (strcmp(interface, "wl_compositor") == 0 && version >= 4 && !globals->compositor) {
        globals->compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 4);
    } else if (strcmp(interface, "wl_shm") == 0 && !globals->shm) {
        globals->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
    } else if (strcmp(interface, "xdg_wm_base") == 0 && !globals->wm_base) {
        globals->wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
        xdg_wm_base_add_listener(globals->wm_base, &probe_wm_base_listener, NULL);
    } else {
        return false;
    }
    return true;
}

struct probe_buffer *probe_free_buffer(struct probe_buffer *buffers, int count) {
    for (int k = 0; k < count; k++)
        if (!buffers[k].busy) return &buffers[k];
    return NULL;
}

struct wl_surface *probe_fullscreen_window(struct wl_compositor *compositor, struct xdg_wm_base *wm_base, const char *title,
                                           const struct xdg_surface_listener *surface_listener,
                                           const struct xdg_toplevel_listener *toplevel_listener) {
    struct wl_surface *surface = wl_compositor_create_surface(compositor);
    struct xdg_surface *xdg_surface = xdg_wm_base_get_xdg_surface(wm_base, surface);
    xdg_surface_add_listener(xdg_surface, surface_listener, NULL);
    struct xdg_toplevel *toplevel = xdg_surface_get_toplevel(xdg_surface);
    xdg_toplevel_add_listener(toplevel, toplevel_listener, NULL);
    xdg_toplevel_set_title(toplevel, title);
    xdg_toplevel_set_fullscreen(toplevel, NULL);
    wl_surface_commit(surface);
    return surface;
}
