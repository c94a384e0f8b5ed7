// tactile-tablet-probe: a full-screen client with a tablet seat (zwp_tablet_manager_v2) that
// prints, one line each, what its tablets, tools and the pens over its window tell it, as
// the guest's kiosk scenario checks a real pen end to end. It runs until the compositor
// closes it or a signal ends it.
//
// Lines: `tablet name NAME`, `tablet id VID PID`, `tablet path PATH`, `tablet done`,
// `tool type T`, `tool serial HI LO`, `tool capability C`, `tool done`, `proximity_in T` (T:
// the tool's type), `proximity_out`, `down`, `up`, `motion X Y`, `pressure P`, `distance D`,
// `tilt X Y`, `button B S`, `frame`; for a pad: `pad`, `pad path PATH`, `pad buttons N`,
// `group buttons N`, `group ring`, `group strip`, `group modes N`, `pad done`, `pad enter`,
// `pad leave`, `pad button B S`, `ring angle D`, `ring stop`, `strip position P`,
// `strip stop`, `group mode M`, `pad removed`; and `pointer button B S` for anything its
// wl_pointer hears.
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>

#include "probe_client.h"
#include "tablet-unstable-v2-client-protocol.h"

static struct {
    struct probe_globals globals;
    struct wl_seat *seat;
    struct zwp_tablet_manager_v2 *tablets;
    struct probe_buffer buffer;
    int width, height;
    bool configured, closed;
} app = { .width = 640, .height = 480 };

static void say(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *format, ...) {
    va_list args;
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
    putchar('\n');
    fflush(stdout);
}

static void tablet_name(void *data, struct zwp_tablet_v2 *tablet, const char *name) { (void)data, (void)tablet; say("tablet name %s", name); }
static void tablet_id(void *data, struct zwp_tablet_v2 *tablet, uint32_t vid, uint32_t pid) { (void)data, (void)tablet; say("tablet id %u %u", vid, pid); }
static void tablet_path(void *data, struct zwp_tablet_v2 *tablet, const char *path) { (void)data, (void)tablet; say("tablet path %s", path); }
static void tablet_done(void *data, struct zwp_tablet_v2 *tablet) { (void)data, (void)tablet; say("tablet done"); }
static void tablet_removed(void *data, struct zwp_tablet_v2 *tablet) { (void)data; say("tablet removed"); zwp_tablet_v2_destroy(tablet); }
static const struct zwp_tablet_v2_listener tablet_listener = { tablet_name, tablet_id, tablet_path, tablet_done, tablet_removed };

// A tool's type is kept as its user data, so that its proximity_in says which end of a pen
// (or which pen) came near.
static void tool_type(void *data, struct zwp_tablet_tool_v2 *tool, uint32_t type) {
    (void)data;
    zwp_tablet_tool_v2_set_user_data(tool, (void *)(uintptr_t)type);
    say("tool type %u", type);
}
static void tool_serial(void *data, struct zwp_tablet_tool_v2 *tool, uint32_t hi, uint32_t lo) { (void)data, (void)tool; say("tool serial %u %u", hi, lo); }
static void tool_wacom(void *data, struct zwp_tablet_tool_v2 *tool, uint32_t hi, uint32_t lo) { (void)data, (void)tool; say("tool wacom %u %u", hi, lo); }
static void tool_capability(void *data, struct zwp_tablet_tool_v2 *tool, uint32_t capability) { (void)data, (void)tool; say("tool capability %u", capability); }
static void tool_done(void *data, struct zwp_tablet_tool_v2 *tool) { (void)data, (void)tool; say("tool done"); }
static void tool_removed(void *data, struct zwp_tablet_tool_v2 *tool) { (void)data; say("tool removed"); zwp_tablet_tool_v2_destroy(tool); }
static void tool_proximity_in(void *data, struct zwp_tablet_tool_v2 *tool, uint32_t serial, struct zwp_tablet_v2 *tablet, struct wl_surface *surface) {
    (void)data, (void)serial, (void)tablet, (void)surface;
    say("proximity_in %u", (unsigned)(uintptr_t)zwp_tablet_tool_v2_get_user_data(tool));
}
static void tool_proximity_out(void *data, struct zwp_tablet_tool_v2 *tool) { (void)data, (void)tool; say("proximity_out"); }
static void tool_down(void *data, struct zwp_tablet_tool_v2 *tool, uint32_t serial) { (void)data, (void)tool, (void)serial; say("down"); }
static void tool_up(void *data, struct zwp_tablet_tool_v2 *tool) { (void)data, (void)tool; say("up"); }
static void tool_motion(void *data, struct zwp_tablet_tool_v2 *tool, wl_fixed_t x, wl_fixed_t y) {
    (void)data, (void)tool;
    say("motion %.2f %.2f", wl_fixed_to_double(x), wl_fixed_to_double(y));
}
static void tool_pressure(void *data, struct zwp_tablet_tool_v2 *tool, uint32_t pressure) { (void)data, (void)tool; say("pressure %u", pressure); }
static void tool_distance(void *data, struct zwp_tablet_tool_v2 *tool, uint32_t distance) { (void)data, (void)tool; say("distance %u", distance); }
static void tool_tilt(void *data, struct zwp_tablet_tool_v2 *tool, wl_fixed_t x, wl_fixed_t y) {
    (void)data, (void)tool;
    say("tilt %.2f %.2f", wl_fixed_to_double(x), wl_fixed_to_double(y));
}
static void tool_rotation(void *data, struct zwp_tablet_tool_v2 *tool, wl_fixed_t degrees) { (void)data, (void)tool, (void)degrees; say("rotation"); }
static void tool_slider(void *data, struct zwp_tablet_tool_v2 *tool, int32_t position) { (void)data, (void)tool, (void)position; say("slider"); }
static void tool_wheel(void *data, struct zwp_tablet_tool_v2 *tool, wl_fixed_t degrees, int32_t clicks) { (void)data, (void)tool, (void)degrees, (void)clicks; say("wheel"); }
static void tool_button(void *data, struct zwp_tablet_tool_v2 *tool, uint32_t serial, uint32_t button, uint32_t state) {
    (void)data, (void)tool, (void)serial;
    say("button %u %u", button, state);
}
static void tool_frame(void *data, struct zwp_tablet_tool_v2 *tool, uint32_t time) { (void)data, (void)tool, (void)time; say("frame"); }
static const struct zwp_tablet_tool_v2_listener tool_listener = {
    tool_type, tool_serial, tool_wacom, tool_capability, tool_done, tool_removed, tool_proximity_in, tool_proximity_out,
    tool_down, tool_up, tool_motion, tool_pressure, tool_distance, tool_tilt, tool_rotation, tool_slider, tool_wheel,
    tool_button, tool_frame,
};

static void seat_tablet_added(void *data, struct zwp_tablet_seat_v2 *seat, struct zwp_tablet_v2 *tablet) {
    (void)data, (void)seat;
    zwp_tablet_v2_add_listener(tablet, &tablet_listener, NULL);
}
static void seat_tool_added(void *data, struct zwp_tablet_seat_v2 *seat, struct zwp_tablet_tool_v2 *tool) {
    (void)data, (void)seat;
    zwp_tablet_tool_v2_add_listener(tool, &tool_listener, NULL);
}
static void ring_source(void *data, struct zwp_tablet_pad_ring_v2 *ring, uint32_t source) { (void)data, (void)ring, (void)source; }
static void ring_angle(void *data, struct zwp_tablet_pad_ring_v2 *ring, wl_fixed_t degrees) {
    (void)data, (void)ring;
    say("ring angle %.2f", wl_fixed_to_double(degrees));
}
static void ring_stop(void *data, struct zwp_tablet_pad_ring_v2 *ring) { (void)data, (void)ring; say("ring stop"); }
static void ring_frame(void *data, struct zwp_tablet_pad_ring_v2 *ring, uint32_t time) { (void)data, (void)ring, (void)time; }
static const struct zwp_tablet_pad_ring_v2_listener ring_listener = { ring_source, ring_angle, ring_stop, ring_frame };

static void strip_source(void *data, struct zwp_tablet_pad_strip_v2 *strip, uint32_t source) { (void)data, (void)strip, (void)source; }
static void strip_position(void *data, struct zwp_tablet_pad_strip_v2 *strip, uint32_t position) {
    (void)data, (void)strip;
    say("strip position %u", position);
}
static void strip_stop(void *data, struct zwp_tablet_pad_strip_v2 *strip) { (void)data, (void)strip; say("strip stop"); }
static void strip_frame(void *data, struct zwp_tablet_pad_strip_v2 *strip, uint32_t time) { (void)data, (void)strip, (void)time; }
static const struct zwp_tablet_pad_strip_v2_listener strip_listener = { strip_source, strip_position, strip_stop, strip_frame };

static void group_buttons(void *data, struct zwp_tablet_pad_group_v2 *group, struct wl_array *buttons) {
    (void)data, (void)group;
    say("group buttons %zu", buttons->size / sizeof(uint32_t));
}
static void group_ring(void *data, struct zwp_tablet_pad_group_v2 *group, struct zwp_tablet_pad_ring_v2 *ring) {
    (void)data, (void)group;
    say("group ring");
    zwp_tablet_pad_ring_v2_add_listener(ring, &ring_listener, NULL);
}
static void group_strip(void *data, struct zwp_tablet_pad_group_v2 *group, struct zwp_tablet_pad_strip_v2 *strip) {
    (void)data, (void)group;
    say("group strip");
    zwp_tablet_pad_strip_v2_add_listener(strip, &strip_listener, NULL);
}
static void group_modes(void *data, struct zwp_tablet_pad_group_v2 *group, uint32_t modes) { (void)data, (void)group; say("group modes %u", modes); }
static void group_done(void *data, struct zwp_tablet_pad_group_v2 *group) { (void)data, (void)group; }
static void group_mode_switch(void *data, struct zwp_tablet_pad_group_v2 *group, uint32_t time, uint32_t serial, uint32_t mode) {
    (void)data, (void)group, (void)time, (void)serial;
    say("group mode %u", mode);
}
static const struct zwp_tablet_pad_group_v2_listener group_listener = {
    group_buttons, group_ring, group_strip, group_modes, group_done, group_mode_switch,
};

static void pad_group(void *data, struct zwp_tablet_pad_v2 *pad, struct zwp_tablet_pad_group_v2 *group) {
    (void)data, (void)pad;
    zwp_tablet_pad_group_v2_add_listener(group, &group_listener, NULL);
}
static void pad_path(void *data, struct zwp_tablet_pad_v2 *pad, const char *path) { (void)data, (void)pad; say("pad path %s", path); }
static void pad_buttons(void *data, struct zwp_tablet_pad_v2 *pad, uint32_t buttons) { (void)data, (void)pad; say("pad buttons %u", buttons); }
static void pad_done(void *data, struct zwp_tablet_pad_v2 *pad) { (void)data, (void)pad; say("pad done"); }
static void pad_button(void *data, struct zwp_tablet_pad_v2 *pad, uint32_t time, uint32_t button, uint32_t state) {
    (void)data, (void)pad, (void)time;
    say("pad button %u %u", button, state);
}
static void pad_enter(void *data, struct zwp_tablet_pad_v2 *pad, uint32_t serial, struct zwp_tablet_v2 *tablet, struct wl_surface *surface) {
    (void)data, (void)pad, (void)serial, (void)tablet, (void)surface;
    say("pad enter");
}
static void pad_leave(void *data, struct zwp_tablet_pad_v2 *pad, uint32_t serial, struct wl_surface *surface) {
    (void)data, (void)pad, (void)serial, (void)surface;
    say("pad leave");
}
static void pad_removed(void *data, struct zwp_tablet_pad_v2 *pad) { (void)data; say("pad removed"); zwp_tablet_pad_v2_destroy(pad); }
static const struct zwp_tablet_pad_v2_listener pad_listener = {
    pad_group, pad_path, pad_buttons, pad_done, pad_button, pad_enter, pad_leave, pad_removed,
};

static void seat_pad_added(void *data, struct zwp_tablet_seat_v2 *seat, struct zwp_tablet_pad_v2 *pad) {
    (void)data, (void)seat;
    say("pad");
    zwp_tablet_pad_v2_add_listener(pad, &pad_listener, NULL);
}
static const struct zwp_tablet_seat_v2_listener tablet_seat_listener = { seat_tablet_added, seat_tool_added, seat_pad_added };

static void pointer_enter(void *d, struct wl_pointer *p, uint32_t s, struct wl_surface *f, wl_fixed_t x, wl_fixed_t y) { (void)d, (void)p, (void)s, (void)f, (void)x, (void)y; }
static void pointer_leave(void *d, struct wl_pointer *p, uint32_t s, struct wl_surface *f) { (void)d, (void)p, (void)s, (void)f; }
static void pointer_motion(void *d, struct wl_pointer *p, uint32_t t, wl_fixed_t x, wl_fixed_t y) { (void)d, (void)p, (void)t, (void)x, (void)y; }
static void pointer_button(void *d, struct wl_pointer *p, uint32_t s, uint32_t t, uint32_t button, uint32_t state) {
    (void)d, (void)p, (void)s, (void)t;
    say("pointer button %u %u", button, state);
}
static void pointer_axis(void *d, struct wl_pointer *p, uint32_t t, uint32_t a, wl_fixed_t v) { (void)d, (void)p, (void)t, (void)a, (void)v; }
static const struct wl_pointer_listener pointer_listener = { pointer_enter, pointer_leave, pointer_motion, pointer_button, pointer_axis };

static void toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t width, int32_t height, struct wl_array *states) {
    (void)data, (void)toplevel, (void)states;
    if (!app.configured && width > 0 && height > 0 && width <= 8192 && height <= 8192) app.width = width, app.height = height;
}
static void toplevel_close(void *data, struct xdg_toplevel *toplevel) { (void)data, (void)toplevel; app.closed = true; }
static const struct xdg_toplevel_listener toplevel_listener = { toplevel_configure, toplevel_close };

static struct wl_surface *surface;

static void surface_configure(void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
    (void)data;
    xdg_surface_ack_configure(xdg_surface, serial);
    if (app.configured) return;
    if (!probe_make_buffers(app.globals.shm, app.width, app.height, WL_SHM_FORMAT_XRGB8888, 0xff205030, &app.buffer, 1)) {
        fprintf(stderr, "tactile-tablet-probe: no buffer: %s\n", strerror(errno));
        exit(1);
    }
    app.configured = true;
    wl_surface_attach(surface, app.buffer.proxy, 0, 0);
    wl_surface_damage_buffer(surface, 0, 0, app.width, app.height);
    wl_surface_commit(surface);
    say("mapped %dx%d", app.width, app.height);
}
static const struct xdg_surface_listener surface_listener = { surface_configure };

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)data, (void)version;
    if (probe_bind(&app.globals, registry, name, interface, version)) return;
    if (strcmp(interface, "wl_seat") == 0 && !app.seat) app.seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
    if (strcmp(interface, "zwp_tablet_manager_v2") == 0) app.tablets = wl_registry_bind(registry, name, &zwp_tablet_manager_v2_interface, 1);
}
static void global_remove(void *data, struct wl_registry *registry, uint32_t name) { (void)data, (void)registry, (void)name; }
static const struct wl_registry_listener registry_listener = { global, global_remove };

int main(void) {
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) {
        fprintf(stderr, "tactile-tablet-probe: no compositor at WAYLAND_DISPLAY\n");
        return 1;
    }
    wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!app.globals.compositor || !app.globals.shm || !app.globals.wm_base || !app.seat || !app.tablets) {
        fprintf(stderr, "tactile-tablet-probe: the compositor lacks wl_compositor, wl_shm, xdg_wm_base, wl_seat or zwp_tablet_manager_v2\n");
        return 1;
    }
    wl_pointer_add_listener(wl_seat_get_pointer(app.seat), &pointer_listener, NULL);
    zwp_tablet_seat_v2_add_listener(zwp_tablet_manager_v2_get_tablet_seat(app.tablets, app.seat), &tablet_seat_listener, NULL);
    surface = probe_fullscreen_window(app.globals.compositor, app.globals.wm_base, "tactile-tablet-probe", &surface_listener, &toplevel_listener);
    while (!app.closed && wl_display_dispatch(display) >= 0) {}
    wl_display_disconnect(display);
    return 0;
}
