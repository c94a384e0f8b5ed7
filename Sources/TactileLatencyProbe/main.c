// tactile-latency-probe: a Wayland client that measures touch-to-present latency on any
// compositor offering wp_presentation and zwp_input_timestamps_manager_v1 (Tactile, weston).
// It shows one window and redraws a square under the finger, and prints, for every touch
// event (down or motion), the time from the event (the device's timestamp, in ns) to the
// presentation of the first frame showing it, with the event's place in its stroke (0: the
// down); and for every frame shown that carried events, the latency of its newest and of
// its oldest event, and how many it carried:
//
//     latency_us 8123 stroke_event 4
//     frame_us 8123 16456 2
//
// and for every frame it drew on a frame callback, the time from the callback's `done` to
// its commit and from the commit to the frame's presentation:
//
//     commit_us 310 7920
//
// By default it redraws at every touch frame while it has a free buffer; with
// --frame-callbacks it redraws only once the last frame's callback came, as toolkits do, so
// the compositor's frame clock decides how many frames it draws.
// Events whose commit was replaced before it was shown count with the next frame shown.
// Every line is flushed as it is known, so a signal may end it at any time.
// Usage: tactile-latency-probe [--frame-callbacks] (WAYLAND_DISPLAY names the server).
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

#include "input-timestamps-unstable-v1-client-protocol.h"
#include "probe_client.h"
#include "presentation-time-client-protocol.h"
#include "xdg-shell-client-protocol.h"

enum { BUFFERS = 3, SQUARE = 32, MAX_EVENTS = 1 << 16, COMMITS = 256 };
static const uint32_t BACKGROUND = 0xff202020;

static struct {
    struct probe_globals globals;
    struct wl_seat *seat;
    struct wp_presentation *presentation;
    struct zwp_input_timestamps_manager_v1 *timestamps;
    struct wl_surface *surface;
    struct probe_buffer buffers[BUFFERS];
    int width, height;
    bool configured;
    uint32_t clock;
    // The touch: the latest point and the pending event's time.
    double x, y;
    uint64_t stamp_ns;
    bool dirty;
    // Every event's time and place in its stroke, in order; `reported` of them have a
    // latency printed, `committed` are in a commit.
    uint64_t events[MAX_EVENTS];
    unsigned stroke_events[MAX_EVENTS];
    unsigned count, committed, reported, in_stroke;
    // --frame-callbacks: draw only once the last frame's callback came.
    bool on_frame_callbacks, awaiting_frame;
    uint32_t colour;
    // Where each buffer has its square, and where the last commit's is (x < 0: none), so each
    // buffer holds the whole picture (the background and one square) and the damage says
    // what changed since the last commit.
    int square_x[BUFFERS], square_y[BUFFERS], shown_x, shown_y;
    // When the last frame callback came (0: the next draw is not on one), and each recent
    // commit's events, callback and time, by its number.
    uint64_t callback_ns;
    struct { unsigned events; uint64_t callback_ns, commit_ns; } commits[COMMITS];
    unsigned commit_count;
} app;

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/// The compositor asked the window to close.
static bool stopping;

static unsigned long long since(uint64_t event, uint64_t presented_ns) {
    return (unsigned long long)(presented_ns > event ? (presented_ns - event) / 1000 : 0);
}

static void report(unsigned upto, uint64_t presented_ns) {
    if (upto <= app.reported) return;
    uint64_t oldest = app.events[app.reported % MAX_EVENTS], newest = app.events[(upto - 1) % MAX_EVENTS];
    unsigned carried = upto - app.reported;
    for (; app.reported < upto; app.reported++) {
        unsigned k = app.reported % MAX_EVENTS;
        printf("latency_us %llu stroke_event %u\n", since(app.events[k], presented_ns), app.stroke_events[k]);
    }
    printf("frame_us %llu %llu %u\n", since(newest, presented_ns), since(oldest, presented_ns), carried);
    fflush(stdout);
}

static void feedback_sync_output(void *data, struct wp_presentation_feedback *feedback, struct wl_output *output) {
    (void)data, (void)feedback, (void)output;
}

static void feedback_presented(void *data, struct wp_presentation_feedback *feedback, uint32_t sec_hi, uint32_t sec_lo, uint32_t nsec,
                               uint32_t refresh, uint32_t seq_hi, uint32_t seq_lo, uint32_t flags) {
    (void)refresh, (void)seq_hi, (void)seq_lo, (void)flags;
    uint64_t seconds = (uint64_t)sec_hi << 32 | sec_lo, presented_ns = seconds * 1000000000ull + nsec;
    unsigned commit = (unsigned)(uintptr_t)data % COMMITS;
    report(app.commits[commit].events, presented_ns);
    if (app.commits[commit].callback_ns) {
        printf("commit_us %llu %llu\n", since(app.commits[commit].callback_ns, app.commits[commit].commit_ns),
               since(app.commits[commit].commit_ns, presented_ns));
        fflush(stdout);
    }
    wp_presentation_feedback_destroy(feedback);
}

static void feedback_discarded(void *data, struct wp_presentation_feedback *feedback) {
    (void)data;
    wp_presentation_feedback_destroy(feedback);
}

static const struct wp_presentation_feedback_listener feedback_listener = { feedback_sync_output, feedback_presented, feedback_discarded };

static void fill(struct probe_buffer *buffer, int x0, int y0, uint32_t colour) {
    for (int y = y0; y < y0 + SQUARE; y++)
        for (int x = x0; x < x0 + SQUARE; x++) buffer->pixels[y * app.width + x] = colour;
}

static void redraw(void);

static void frame_done(void *data, struct wl_callback *callback, uint32_t time) {
    (void)data, (void)time;
    wl_callback_destroy(callback);
    app.awaiting_frame = false;
    app.callback_ns = now_ns();
    if (app.dirty) redraw();
}

static const struct wl_callback_listener frame_listener = { frame_done };

/// Draws a square under the finger in a free buffer and commits it with a feedback that
/// reports every event up to now.
static void redraw(void) {
    struct probe_buffer *free_buffer = probe_free_buffer(app.buffers, BUFFERS);
    if (!free_buffer || !app.configured || app.awaiting_frame) return;  // drawn at the next touch frame or frame callback
    int x0 = (int)app.x - SQUARE / 2, y0 = (int)app.y - SQUARE / 2;
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x0 > app.width - SQUARE) x0 = app.width - SQUARE;
    if (y0 > app.height - SQUARE) y0 = app.height - SQUARE;
    int k = (int)(free_buffer - app.buffers);
    if (app.square_x[k] >= 0) fill(free_buffer, app.square_x[k], app.square_y[k], BACKGROUND);
    app.colour = app.colour == 0xffff0000 ? 0xff00ff00 : 0xffff0000;
    fill(free_buffer, x0, y0, app.colour);
    app.square_x[k] = x0, app.square_y[k] = y0;
    struct wp_presentation_feedback *feedback = wp_presentation_feedback(app.presentation, app.surface);
    unsigned commit = app.commit_count++ % COMMITS;
    app.commits[commit].events = app.count;
    app.commits[commit].callback_ns = app.callback_ns;
    app.callback_ns = 0;
    wp_presentation_feedback_add_listener(feedback, &feedback_listener, (void *)(uintptr_t)commit);
    app.committed = app.count;
    wl_surface_attach(app.surface, free_buffer->proxy, 0, 0);
    wl_surface_damage_buffer(app.surface, x0, y0, SQUARE, SQUARE);
    if (app.shown_x >= 0) wl_surface_damage_buffer(app.surface, app.shown_x, app.shown_y, SQUARE, SQUARE);
    app.shown_x = x0, app.shown_y = y0;
    if (app.on_frame_callbacks) {
        wl_callback_add_listener(wl_surface_frame(app.surface), &frame_listener, NULL);
        app.awaiting_frame = true;
    }
    app.commits[commit].commit_ns = now_ns();
    wl_surface_commit(app.surface);
    free_buffer->busy = true;
    app.dirty = false;
}

static void event_at(uint32_t milliseconds, wl_fixed_t x, wl_fixed_t y) {
    app.x = wl_fixed_to_double(x);
    app.y = wl_fixed_to_double(y);
    // The nanosecond timestamp came just before the event; the milliseconds otherwise.
    uint64_t ns = app.stamp_ns ? app.stamp_ns : (uint64_t)milliseconds * 1000000ull;
    app.stamp_ns = 0;
    if (app.count - app.reported < MAX_EVENTS) {
        app.stroke_events[app.count % MAX_EVENTS] = app.in_stroke++;
        app.events[app.count++ % MAX_EVENTS] = ns;
    }
    app.dirty = true;
}

static void touch_down(void *data, struct wl_touch *touch, uint32_t serial, uint32_t time, struct wl_surface *surface, int32_t id, wl_fixed_t x,
                       wl_fixed_t y) {
    (void)data, (void)touch, (void)serial, (void)surface, (void)id;
    app.in_stroke = 0;
    event_at(time, x, y);
}

static void touch_up(void *data, struct wl_touch *touch, uint32_t serial, uint32_t time, int32_t id) {
    (void)data, (void)touch, (void)serial, (void)time, (void)id;
    app.stamp_ns = 0;
}

static void touch_motion(void *data, struct wl_touch *touch, uint32_t time, int32_t id, wl_fixed_t x, wl_fixed_t y) {
    (void)data, (void)touch, (void)id;
    event_at(time, x, y);
}

static void touch_frame(void *data, struct wl_touch *touch) {
    (void)data, (void)touch;
    if (app.dirty) redraw();
}

static void touch_cancel(void *data, struct wl_touch *touch) { (void)data, (void)touch; }

static void touch_shape(void *data, struct wl_touch *touch, int32_t id, wl_fixed_t major, wl_fixed_t minor) {
    (void)data, (void)touch, (void)id, (void)major, (void)minor;
}

static void touch_orientation(void *data, struct wl_touch *touch, int32_t id, wl_fixed_t orientation) {
    (void)data, (void)touch, (void)id, (void)orientation;
}

static const struct wl_touch_listener touch_listener = { touch_down, touch_up, touch_motion, touch_frame, touch_cancel, touch_shape, touch_orientation };

static void timestamp(void *data, struct zwp_input_timestamps_v1 *timestamps, uint32_t sec_hi, uint32_t sec_lo, uint32_t nsec) {
    (void)data, (void)timestamps;
    app.stamp_ns = ((uint64_t)sec_hi << 32 | sec_lo) * 1000000000ull + nsec;
}

static const struct zwp_input_timestamps_v1_listener timestamps_listener = { timestamp };

static void seat_capabilities(void *data, struct wl_seat *seat, uint32_t capabilities) {
    (void)data;
    static struct wl_touch *touch;
    if (!(capabilities & WL_SEAT_CAPABILITY_TOUCH) || touch || !app.timestamps) return;
    touch = wl_seat_get_touch(seat);
    wl_touch_add_listener(touch, &touch_listener, NULL);
    struct zwp_input_timestamps_v1 *timestamps = zwp_input_timestamps_manager_v1_get_touch_timestamps(app.timestamps, touch);
    zwp_input_timestamps_v1_add_listener(timestamps, &timestamps_listener, NULL);
}

static void seat_name(void *data, struct wl_seat *seat, const char *name) { (void)data, (void)seat, (void)name; }

static const struct wl_seat_listener seat_listener = { seat_capabilities, seat_name };

static void toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t width, int32_t height, struct wl_array *states) {
    (void)data, (void)toplevel, (void)states;
    if (!app.configured && width > SQUARE && height > SQUARE) app.width = width, app.height = height;
}

static void toplevel_close(void *data, struct xdg_toplevel *toplevel) {
    (void)data, (void)toplevel;
    stopping = 1;
}

static const struct xdg_toplevel_listener toplevel_listener = { toplevel_configure, toplevel_close };

static void surface_configure(void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
    (void)data;
    xdg_surface_ack_configure(xdg_surface, serial);
    if (app.configured) return;
    if (!probe_make_buffers(app.globals.shm, app.width, app.height, WL_SHM_FORMAT_XRGB8888, BACKGROUND, app.buffers, BUFFERS)) {
        fprintf(stderr, "tactile-latency-probe: no buffers: %s\n", strerror(errno));
        exit(1);
    }
    app.configured = true;
    wl_surface_attach(app.surface, app.buffers[0].proxy, 0, 0);
    wl_surface_damage_buffer(app.surface, 0, 0, app.width, app.height);
    wl_surface_commit(app.surface);
    app.buffers[0].busy = true;
    fprintf(stderr, "tactile-latency-probe: %dx%d window, presentation clock %u\n", app.width, app.height, app.clock);
}

static const struct xdg_surface_listener surface_listener = { surface_configure };

static void clock_id(void *data, struct wp_presentation *presentation, uint32_t clock) {
    (void)data, (void)presentation;
    app.clock = clock;
}

static const struct wp_presentation_listener presentation_listener = { clock_id };

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)data;
    if (probe_bind(&app.globals, registry, name, interface, version)) {
        return;
    } else if (strcmp(interface, "wl_seat") == 0 && !app.seat) {
        app.seat = wl_registry_bind(registry, name, &wl_seat_interface, version < 5 ? version : 5);
        wl_seat_add_listener(app.seat, &seat_listener, NULL);
    } else if (strcmp(interface, "wp_presentation") == 0) {
        app.presentation = wl_registry_bind(registry, name, &wp_presentation_interface, 1);
        wp_presentation_add_listener(app.presentation, &presentation_listener, NULL);
    } else if (strcmp(interface, "zwp_input_timestamps_manager_v1") == 0) {
        app.timestamps = wl_registry_bind(registry, name, &zwp_input_timestamps_manager_v1_interface, 1);
    }
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) { (void)data, (void)registry, (void)name; }

static const struct wl_registry_listener registry_listener = { global, global_remove };

int main(int argc, char **argv) {
    for (int k = 1; k < argc; k++) {
        if (strcmp(argv[k], "--frame-callbacks") == 0) {
            app.on_frame_callbacks = true;
        } else {
            fprintf(stderr, "usage: tactile-latency-probe [--frame-callbacks]\n");
            return 2;
        }
    }
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) {
        fprintf(stderr, "tactile-latency-probe: cannot connect to the Wayland display\n");
        return 1;
    }
    app.width = 640, app.height = 480;
    app.shown_x = -1;
    for (int k = 0; k < BUFFERS; k++) app.square_x[k] = -1;
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!app.globals.compositor || !app.globals.shm || !app.globals.wm_base || !app.seat || !app.presentation || !app.timestamps) {
        fprintf(stderr, "tactile-latency-probe: the compositor lacks wl_compositor 4, wl_shm, xdg_wm_base, wl_seat, wp_presentation or "
                        "zwp_input_timestamps_manager_v1\n");
        return 1;
    }
    wl_display_roundtrip(display);
    app.surface = probe_fullscreen_window(app.globals.compositor, app.globals.wm_base, "tactile-latency-probe", &surface_listener, &toplevel_listener);
    while (!stopping && wl_display_dispatch(display) >= 0) {}
    fprintf(stderr, "tactile-latency-probe: %u touch events, %u reported\n", app.count, app.reported);
    wl_display_disconnect(display);
    return 0;
}
