// tactile-frame-probe: a full-screen wl_shm client that animates on frame callbacks, for
// comparing what compositors spend per frame (scripts/peer-bench). Each frame redraws, in a
// free buffer of its own size, either every pixel (one colour that changes each frame) or a
// 64x64 square in the middle (the rest a fixed background), and damages exactly that.
// After the warm-up it prints `measuring`, after the measured time
// `frames N seconds S` (frame callbacks completed then), and goes on animating until the
// compositor closes it or a signal ends it.
//
// Usage: tactile-frame-probe [--size WxH] [--damage full|64] [--translucent]
//                            [--warmup SECONDS] [--seconds SECONDS]
// --size: the buffers' size (default: the size the compositor configures, else 1280x720);
// --translucent: ARGB8888 at half alpha, which the compositor must blend (default: XRGB8888).
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

#include "probe_client.h"

enum { BUFFERS = 3, SQUARE = 64 };
/// What a compositor's screenshot finds outside the square (0x3080c0), and the full-damage
/// colours (its blue channel counts frames from 0xc0 to 0xdf).
static const uint32_t BACKGROUND = 0xff3080c0;

static struct {
    struct probe_globals globals;
    struct wl_surface *surface;
    struct probe_buffer buffers[BUFFERS];
    int width, height;
    bool sized, configured, full, translucent, waiting;
    double warmup, seconds;
    uint64_t frames, start_ns, counted_from;
    bool measuring, reported;
} app;

static bool stopping;

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/// A colour as the buffer holds it: premultiplied at half alpha when translucent.
static uint32_t pixel(uint32_t colour) {
    if (!app.translucent) return colour;
    uint32_t r = (colour >> 16 & 0xff) / 2, g = (colour >> 8 & 0xff) / 2, b = (colour & 0xff) / 2;
    return 0x80000000u | r << 16 | g << 8 | b;
}

static void redraw(void);

static void frame_done(void *data, struct wl_callback *callback, uint32_t time) {
    (void)data, (void)time;
    wl_callback_destroy(callback);
    uint64_t now = now_ns();
    if (!app.measuring && now - app.start_ns >= (uint64_t)(app.warmup * 1e9)) {
        app.measuring = true;
        app.counted_from = now;
        app.frames = 0;
        printf("measuring\n");
        fflush(stdout);
    } else if (app.measuring && !app.reported) {
        app.frames++;
        if (now - app.counted_from >= (uint64_t)(app.seconds * 1e9)) {
            app.reported = true;
            printf("frames %llu seconds %.3f\n", (unsigned long long)app.frames, (double)(now - app.counted_from) / 1e9);
            fflush(stdout);
        }
    }
    redraw();
}

static const struct wl_callback_listener frame_listener = { frame_done };

/// The next frame in a free buffer, committed with a frame callback that draws the one after.
/// With every buffer still the compositor's, it waits for a release (polled at the next
/// dispatch).
static void redraw(void) {
    struct probe_buffer *free_buffer = probe_free_buffer(app.buffers, BUFFERS);
    if (!free_buffer) {
        app.waiting = true;
        return;
    }
    app.waiting = false;
    static uint32_t step;
    step++;
    uint32_t *p = free_buffer->pixels;
    if (app.full) {
        uint32_t colour = pixel((BACKGROUND & 0xffffff00u) | (0xc0 + step % 32));
        size_t count = (size_t)app.width * (size_t)app.height;
        for (size_t k = 0; k < count; k++) p[k] = colour;
    } else {
        uint32_t colour = pixel(0xff000000u | (step * 0x050301u & 0xffffff));
        int x0 = (app.width - SQUARE) / 2, y0 = (app.height - SQUARE) / 2;
        for (int y = y0; y < y0 + SQUARE; y++)
            for (int x = x0; x < x0 + SQUARE; x++) p[y * app.width + x] = colour;
    }
    wl_callback_add_listener(wl_surface_frame(app.surface), &frame_listener, NULL);
    wl_surface_attach(app.surface, free_buffer->proxy, 0, 0);
    if (app.full) {
        wl_surface_damage_buffer(app.surface, 0, 0, app.width, app.height);
    } else {
        wl_surface_damage_buffer(app.surface, (app.width - SQUARE) / 2, (app.height - SQUARE) / 2, SQUARE, SQUARE);
    }
    wl_surface_commit(app.surface);
    free_buffer->busy = true;
}

static void toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t width, int32_t height, struct wl_array *states) {
    (void)data, (void)toplevel, (void)states;
    if (!app.configured && !app.sized && width > SQUARE && height > SQUARE) app.width = width, app.height = height;
}

static void toplevel_close(void *data, struct xdg_toplevel *toplevel) {
    (void)data, (void)toplevel;
    stopping = true;
}

static const struct xdg_toplevel_listener toplevel_listener = { toplevel_configure, toplevel_close };

static void surface_configure(void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
    (void)data;
    xdg_surface_ack_configure(xdg_surface, serial);
    if (app.configured) return;
    uint32_t format = app.translucent ? WL_SHM_FORMAT_ARGB8888 : WL_SHM_FORMAT_XRGB8888;
    if (!probe_make_buffers(app.globals.shm, app.width, app.height, format, pixel(BACKGROUND), app.buffers, BUFFERS)) {
        fprintf(stderr, "tactile-frame-probe: no buffers: %s\n", strerror(errno));
        exit(1);
    }
    app.configured = true;
    app.start_ns = now_ns();
    fprintf(stderr, "tactile-frame-probe: %dx%d %s, %s damage\n", app.width, app.height, app.translucent ? "ARGB8888 at half alpha" : "XRGB8888",
            app.full ? "full" : "64x64");
    redraw();
}

static const struct xdg_surface_listener surface_listener = { surface_configure };

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)data;
    probe_bind(&app.globals, registry, name, interface, version);
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) { (void)data, (void)registry, (void)name; }

static const struct wl_registry_listener registry_listener = { global, global_remove };

static bool parse(int argc, char **argv) {
    app.full = true;
    app.warmup = 1;
    app.seconds = 10;
    app.width = 1280, app.height = 720;
    for (int k = 1; k < argc; k++) {
        const char *value = k + 1 < argc ? argv[k + 1] : NULL;
        if (strcmp(argv[k], "--translucent") == 0) {
            app.translucent = true;
        } else if (strcmp(argv[k], "--size") == 0 && value && sscanf(value, "%dx%d", &app.width, &app.height) == 2 && app.width > SQUARE &&
                   app.height > SQUARE && app.width <= 8192 && app.height <= 8192) {
            app.sized = true, k++;
        } else if (strcmp(argv[k], "--damage") == 0 && value && (strcmp(value, "full") == 0 || strcmp(value, "64") == 0)) {
            app.full = strcmp(value, "full") == 0, k++;
        } else if (strcmp(argv[k], "--warmup") == 0 && value && (app.warmup = atof(value)) >= 0) {
            k++;
        } else if (strcmp(argv[k], "--seconds") == 0 && value && (app.seconds = atof(value)) > 0) {
            k++;
        } else {
            fprintf(stderr, "tactile-frame-probe: bad argument '%s'\n"
                            "usage: tactile-frame-probe [--size WxH] [--damage full|64] [--translucent] [--warmup S] [--seconds S]\n",
                    argv[k]);
            return false;
        }
    }
    return true;
}

int main(int argc, char **argv) {
    if (!parse(argc, argv)) return 2;
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) {
        fprintf(stderr, "tactile-frame-probe: cannot connect to the Wayland display\n");
        return 1;
    }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!app.globals.compositor || !app.globals.shm || !app.globals.wm_base) {
        fprintf(stderr, "tactile-frame-probe: the compositor lacks wl_compositor 4, wl_shm or xdg_wm_base\n");
        return 1;
    }
    app.surface = probe_fullscreen_window(app.globals.compositor, app.globals.wm_base, "tactile-frame-probe", &surface_listener, &toplevel_listener);
    while (!stopping && wl_display_dispatch(display) >= 0) {
        if (app.waiting) redraw();
    }
    wl_display_disconnect(display);
    return 0;
}
