// Scripts: short request sequences a real client would send (map a window, add a subsurface,
// open a popup, touch it), with random sizes and edge values, so that requests reach the
// server's deeper code instead of stopping at its first check. Each script draws from the
// connection's PRNG the same way whatever the server answers, and every request goes
// through call(), which skips it when its target or a required object is missing.
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

enum { BTN_LEFT = 0x110, KEY_A = 30 };

/// The two xdg shells share their request names; a flavour says which interfaces to use.
struct xdg_flavour {
    const struct wl_interface *wm_base, *surface, *toplevel;
};

static const struct xdg_flavour stable = { &xdg_wm_base_interface, &xdg_surface_interface, &xdg_toplevel_interface };
static const struct xdg_flavour unstable_v6 = { &zxdg_shell_v6_interface, &zxdg_surface_v6_interface,
                                                &zxdg_toplevel_v6_interface };

// ---- values that make sense to the server, most of the time ------------------------------

/// A window dimension: mostly plausible, sometimes an edge value.
static int32_t window_size(struct conn *c) {
    return rng_chance(&c->rng, 85) ? (int32_t)(1 + rng_below(&c->rng, 400)) : edge_int(c);
}

/// A position relative to something: mostly near it, sometimes an edge value.
static int32_t nearby(struct conn *c) {
    return rng_chance(&c->rng, 85) ? (int32_t)rng_below(&c->rng, 300) - 50 : edge_int(c);
}

/// A coordinate whose sums with plausible sizes leave int32: the server's arithmetic on
/// client geometry must saturate or refuse, never trap.
static int32_t near_int32_limit(struct conn *c) {
    switch (rng_below(&c->rng, 4)) {
    case 0: return INT32_MAX - (int32_t)rng_below(&c->rng, 4096);
    case 1: return 2147483000 + (int32_t)rng_below(&c->rng, 600);
    case 2: return INT32_MIN + (int32_t)rng_below(&c->rng, 4096);
    default: return -2147483000 - (int32_t)rng_below(&c->rng, 600);
    }
}

/// A point on the output where windows are: toplevels cascade from the origin by 32 pixels.
static wl_fixed_t on_windows(struct conn *c) {
    if (!rng_chance(&c->rng, 90)) return edge_fixed(c);
    return wl_fixed_from_int((int)rng_below(&c->rng, 720)) + (wl_fixed_t)rng_below(&c->rng, 256);
}

// ---- building blocks ----------------------------------------------------------------------

static void script_wait_a_frame(struct conn *c);

static struct object *new_surface(struct conn *c) {
    return call(c, object_any(c, &wl_compositor_interface), "create_surface");
}

/// A real shm buffer: memfd, pool, buffer. Sometimes the file is shorter than the pool
/// claims, which the server must survive when it reads the buffer.
static struct object *shm_buffer(struct conn *c, int32_t width, int32_t height) {
    struct object *shm = object_any(c, &wl_shm_interface);
    bool truncated = rng_chance(&c->rng, 10);
    uint32_t format = rng_below(&c->rng, 2); // argb8888 or xrgb8888
    bool keep_pool = rng_chance(&c->rng, 50);
    if (!shm || width <= 0 || height <= 0 || width > 2048 || height > 2048) return NULL;
    size_t size = (size_t)width * (size_t)height * 4;
    int fd = make_memfd(truncated ? size / 2 : size);
    struct object *pool = call(c, shm, "create_pool", fd, (int32_t)size);
    if (fd >= 0) close(fd);
    struct object *buffer = call(c, pool, "create_buffer", 0, width, height, width * 4, format);
    if (!keep_pool) call(c, pool, "destroy");
    return buffer;
}

static void attach_buffer(struct conn *c, struct object *surface, int32_t width, int32_t height) {
    if (!surface) return;
    struct object *buffer = shm_buffer(c, width, height);
    call(c, surface, "attach", buffer, 0, 0);
    call(c, surface, "damage_buffer", 0, 0, width, height);
}

/// Waits for the server's answer to what was sent so far; false ends the connection.
static bool settle(struct conn *c) {
    if (c->broken) return false;
    if (wire_roundtrip(c->display, 2000) != 1) c->broken = true;
    return !c->broken;
}

/// After the initial commit: ack the configure (usually with its serial), attach a
/// buffer and commit, which maps the window.
static void map_after_configure(struct conn *c, struct object *surface, struct object *xdg_surface) {
    bool ack = rng_chance(&c->rng, 90), right_serial = rng_chance(&c->rng, 85);
    bool geometry = rng_chance(&c->rng, 20), frame = rng_chance(&c->rng, 50);
    int32_t width = window_size(c), height = window_size(c);
    if (!surface || !xdg_surface || !settle(c)) return;
    if (ack) call(c, xdg_surface, "ack_configure", right_serial ? xdg_surface->configure_serial : edge_uint(c));
    if (geometry) call(c, xdg_surface, "set_window_geometry", edge_int(c), edge_int(c), window_size(c), window_size(c));
    attach_buffer(c, surface, width, height);
    if (frame) call(c, surface, "frame");
    call(c, surface, "commit");
}

static void decorate_toplevel(struct conn *c, struct object *toplevel) {
    static const char *const states[] = { "set_maximized", "unset_maximized", "set_minimized", "unset_fullscreen" };
    if (!toplevel) return;
    if (rng_chance(&c->rng, 50)) call(c, toplevel, "set_title", "tactile fuzz");
    if (rng_chance(&c->rng, 30)) call(c, toplevel, "set_app_id", "org.tactile.fuzz");
    if (rng_chance(&c->rng, 20)) call(c, toplevel, "set_min_size", edge_int(c), edge_int(c));
    if (rng_chance(&c->rng, 20)) call(c, toplevel, "set_max_size", window_size(c), window_size(c));
    if (rng_chance(&c->rng, 15)) call(c, toplevel, "set_parent", object_any(c, toplevel->iface));
    if (rng_chance(&c->rng, 10)) call(c, toplevel, states[rng_below(&c->rng, 4)]);
    if (rng_chance(&c->rng, 10)) call(c, toplevel, "set_fullscreen", object_any(c, &wl_output_interface));
}

struct window {
    struct object *surface, *xdg_surface, *toplevel;
};

/// A toplevel window, mapped (any of its objects may be NULL when a request was skipped).
static struct window xdg_window(struct conn *c, const struct xdg_flavour *flavour) {
    struct window w = { .surface = new_surface(c) };
    w.xdg_surface = call(c, object_any(c, flavour->wm_base), "get_xdg_surface", w.surface);
    w.toplevel = call(c, w.xdg_surface, "get_toplevel");
    decorate_toplevel(c, w.toplevel);
    call(c, w.surface, "commit");
    map_after_configure(c, w.surface, w.xdg_surface);
    return w;
}

/// A mapped toplevel's wl_surface.
static struct object *xdg_toplevel(struct conn *c, const struct xdg_flavour *flavour) {
    return xdg_window(c, flavour).surface;
}

static void configure_positioner(struct conn *c, struct object *positioner) {
    uint32_t roll = rng_below(&c->rng, 100);
    call(c, positioner, "set_size", window_size(c), window_size(c));
    if (roll < 75) call(c, positioner, "set_anchor_rect", nearby(c), nearby(c), window_size(c), window_size(c));
    else if (roll < 90) call(c, positioner, "set_anchor_rect", near_int32_limit(c), near_int32_limit(c), window_size(c), window_size(c));
    else call(c, positioner, "set_anchor_rect", edge_int(c), edge_int(c), edge_int(c), edge_int(c));
    // Stable xdg-shell takes enums 0-8 here, v6 takes bit sets: 0-15 covers both and more.
    call(c, positioner, "set_anchor", rng_below(&c->rng, 16));
    call(c, positioner, "set_gravity", rng_below(&c->rng, 16));
    call(c, positioner, "set_constraint_adjustment", rng_below(&c->rng, 64));
    if (rng_chance(&c->rng, 40)) call(c, positioner, "set_offset", nearby(c), nearby(c));
    else if (rng_chance(&c->rng, 15)) call(c, positioner, "set_offset", near_int32_limit(c), near_int32_limit(c));
    if (rng_chance(&c->rng, 20)) {
        call(c, positioner, "set_reactive");
        call(c, positioner, "set_parent_size", window_size(c), window_size(c));
        call(c, positioner, "set_parent_configure", recent_serial(c));
    }
}

// ---- scripts ------------------------------------------------------------------------------

static void script_toplevel(struct conn *c) {
    xdg_toplevel(c, &stable);
}

static void script_toplevel_v6(struct conn *c) {
    xdg_toplevel(c, &unstable_v6);
}

/// A popup on some xdg surface (often a toplevel made for it); sometimes with a grab,
/// repositioned, or left behind by its parent's toplevel.
static void popup(struct conn *c, const struct xdg_flavour *flavour) {
    if (object_count(c, flavour->surface) == 0 || rng_chance(&c->rng, 30)) xdg_toplevel(c, flavour);
    struct object *wm_base = object_any(c, flavour->wm_base);
    struct object *parent = rng_chance(&c->rng, 10) ? NULL : object_any(c, flavour->surface);
    struct object *positioner = call(c, wm_base, "create_positioner");
    configure_positioner(c, positioner);
    struct object *surface = new_surface(c);
    struct object *xdg_surface = call(c, wm_base, "get_xdg_surface", surface);
    struct object *popup = call(c, xdg_surface, "get_popup", parent, positioner);
    bool button_serial = rng_chance(&c->rng, 50);
    if (rng_chance(&c->rng, 30))
        call(c, popup, "grab", object_any(c, &wl_seat_interface), button_serial ? c->button_serial : recent_serial(c));
    call(c, surface, "commit");
    map_after_configure(c, surface, xdg_surface);
    if (rng_chance(&c->rng, 20)) call(c, popup, "reposition", positioner, edge_uint(c));
    if (rng_chance(&c->rng, 50)) call(c, positioner, "destroy");
    // Usually the parent's toplevel when there are few: the popup outlives it.
    if (rng_chance(&c->rng, 20)) call(c, object_any(c, flavour->toplevel), "destroy");
}

static void script_popup(struct conn *c) {
    popup(c, &stable);
}

static void script_popup_v6(struct conn *c) {
    popup(c, &unstable_v6);
}

/// A subsurface (sometimes with its own child) on an existing surface or a new window;
/// sometimes the parent is destroyed before its children.
static void script_subsurface(struct conn *c) {
    struct object *subcompositor = object_any(c, &wl_subcompositor_interface);
    struct object *parent = rng_chance(&c->rng, 50) ? object_any(c, &wl_surface_interface) : NULL;
    if (!parent) parent = xdg_toplevel(c, &stable);
    struct object *child = new_surface(c);
    struct object *subsurface = call(c, subcompositor, "get_subsurface", child, parent);
    call(c, subsurface, "set_position", nearby(c), nearby(c));
    if (rng_chance(&c->rng, 30))
        call(c, subsurface, rng_chance(&c->rng, 50) ? "place_above" : "place_below", object_any(c, &wl_surface_interface));
    if (rng_chance(&c->rng, 50)) call(c, subsurface, rng_chance(&c->rng, 50) ? "set_sync" : "set_desync");
    attach_buffer(c, child, window_size(c), window_size(c));
    if (rng_chance(&c->rng, 40)) call(c, child, "frame");
    call(c, child, "commit");
    if (rng_chance(&c->rng, 30)) {
        struct object *grandchild = new_surface(c);
        call(c, subcompositor, "get_subsurface", grandchild, child);
        attach_buffer(c, grandchild, window_size(c), window_size(c));
        call(c, grandchild, "commit");
        call(c, child, "commit");
    }
    call(c, parent, "commit");
    if (rng_chance(&c->rng, 15)) call(c, parent, "destroy");
}

/// A region with a few rectangles, set as input or opaque region, sometimes destroyed
/// before the commit that applies it.
static void script_region(struct conn *c) {
    struct object *region = call(c, object_any(c, &wl_compositor_interface), "create_region");
    for (uint32_t n = 1 + rng_below(&c->rng, 4); n > 0; n--) {
        const char *operation = rng_chance(&c->rng, 70) ? "add" : "subtract";
        if (rng_chance(&c->rng, 85)) call(c, region, operation, nearby(c), nearby(c), window_size(c), window_size(c));
        else call(c, region, operation, edge_int(c), edge_int(c), edge_int(c), edge_int(c));
    }
    struct object *surface = object_any(c, &wl_surface_interface);
    bool input = rng_chance(&c->rng, 60), none = rng_chance(&c->rng, 15);
    call(c, surface, input ? "set_input_region" : "set_opaque_region", none ? NULL : region);
    if (rng_chance(&c->rng, 50)) call(c, region, "destroy");
    call(c, surface, "commit");
}

/// Frame callbacks, sometimes with an id lower than their surface's (a destroyed object's id
/// comes back once the server confirms it), sometimes on a surface destroyed at once.
static void script_frames(struct conn *c) {
    bool low_id = rng_chance(&c->rng, 30);
    struct object *early = low_id ? call(c, object_any(c, &wl_compositor_interface), "create_region") : NULL;
    struct object *surface = rng_chance(&c->rng, 60) ? object_any(c, &wl_surface_interface) : NULL;
    if (!surface) surface = xdg_toplevel(c, &stable);
    if (early) {
        call(c, early, "destroy");
        settle(c); // the server's delete_id frees the id for the next new object
    }
    for (uint32_t n = 1 + rng_below(&c->rng, 4); n > 0; n--) call(c, surface, "frame");
    if (rng_chance(&c->rng, 50)) attach_buffer(c, surface, window_size(c), window_size(c));
    call(c, surface, "commit");
    if (rng_chance(&c->rng, 25)) call(c, surface, "destroy");
}

static void script_wl_shell(struct conn *c) {
    struct object *seat = object_any(c, &wl_seat_interface);
    struct object *output = object_any(c, &wl_output_interface);
    struct object *surface = new_surface(c);
    struct object *shell_surface = call(c, object_any(c, &wl_shell_interface), "get_shell_surface", surface);
    switch (rng_below(&c->rng, 5)) {
    case 0: call(c, shell_surface, "set_toplevel"); break;
    case 1:
        call(c, shell_surface, "set_transient", object_any(c, &wl_surface_interface), nearby(c), nearby(c),
             rng_below(&c->rng, 2));
        break;
    case 2:
        call(c, shell_surface, "set_popup", seat, recent_serial(c), object_any(c, &wl_surface_interface), nearby(c),
             nearby(c), rng_below(&c->rng, 2));
        break;
    case 3: call(c, shell_surface, "set_fullscreen", rng_below(&c->rng, 4), edge_uint(c), output); break;
    default: call(c, shell_surface, "set_maximized", output); break;
    }
    if (rng_chance(&c->rng, 30)) call(c, shell_surface, "set_title", "tactile fuzz");
    attach_buffer(c, surface, window_size(c), window_size(c));
    call(c, surface, "commit");
    if (rng_chance(&c->rng, 15)) call(c, shell_surface, "move", seat, recent_serial(c));
    if (rng_chance(&c->rng, 15)) call(c, shell_surface, "resize", seat, recent_serial(c), rng_below(&c->rng, 16));
    if (rng_chance(&c->rng, 20)) call(c, shell_surface, "pong", recent_serial(c));
}

/// Injected touches: a few fingers down on the windows, some motion, then each finger up,
/// cancelled, or left down for the disconnect to deal with.
static void script_touch(struct conn *c) {
    struct object *input = object_any(c, &tactile_test_input_v1_interface);
    uint32_t fingers = 1 + rng_below(&c->rng, 4);
    uint32_t first = rng_chance(&c->rng, 90) ? rng_below(&c->rng, 10) : (uint32_t)edge_int(c);
    for (uint32_t i = 0; i < fingers; i++) call(c, input, "touch_down", (int32_t)(first + i), on_windows(c), on_windows(c));
    call(c, input, "touch_frame");
    for (uint32_t moves = rng_below(&c->rng, 6); moves > 0; moves--) {
        for (uint32_t i = 0; i < fingers; i++)
            call(c, input, "touch_motion", (int32_t)(first + i), on_windows(c), on_windows(c));
        call(c, input, "touch_frame");
    }
    for (uint32_t i = 0; i < fingers; i++) {
        uint32_t roll = rng_below(&c->rng, 100);
        if (roll < 70) call(c, input, "touch_up", (int32_t)(first + i));
        else if (roll < 80) call(c, input, "touch_cancel", (int32_t)(first + i));
    }
    call(c, input, "touch_frame");
}

/// Injected pointer and keyboard input: motion, a click, a wheel step, a key, a window move;
/// sometimes with a state other than 0 or 1, which the server must refuse.
static void script_pointer_and_keys(struct conn *c) {
    struct object *input = object_any(c, &tactile_test_input_v1_interface);
    uint32_t button = rng_chance(&c->rng, 80) ? BTN_LEFT + rng_below(&c->rng, 3) : edge_uint(c);
    uint32_t key = rng_chance(&c->rng, 80) ? KEY_A + rng_below(&c->rng, 30) : edge_uint(c);
    uint32_t state = rng_chance(&c->rng, 95) ? 1 : edge_uint(c);
    call(c, input, "pointer_motion", on_windows(c), on_windows(c));
    if (rng_chance(&c->rng, 60)) {
        call(c, input, "pointer_button", button, state);
        call(c, input, "pointer_motion", on_windows(c), on_windows(c));
        if (rng_chance(&c->rng, 80)) call(c, input, "pointer_button", button, 0);
    }
    if (rng_chance(&c->rng, 40))
        call(c, input, "pointer_axis", edge_fixed(c), wl_fixed_from_int(15), edge_int(c), rng_chance(&c->rng, 50) ? 120 : 0);
    if (rng_chance(&c->rng, 40)) {
        call(c, input, "key", key, state);
        if (rng_chance(&c->rng, 80)) call(c, input, "key", key, 0);
    }
    if (rng_chance(&c->rng, 30)) call(c, input, "move_toplevel", object_any(c, &wl_surface_interface), nearby(c), nearby(c));
}

/// Touchpad gestures over the windows: a client listening for some kinds, then a begin
/// (now and then of no kind, or of no or countless fingers), updates with edge values, and an
/// end, a second begin, or nothing; sometimes the listener goes mid-gesture.
static void script_touchpad_gesture(struct conn *c) {
    struct object *input = object_any(c, &tactile_test_input_v1_interface);
    struct object *gestures = object_any(c, &zwp_pointer_gestures_v1_interface);
    struct object *pointer = call(c, object_any(c, &wl_seat_interface), "get_pointer");
    static const char *const kinds[] = { "get_swipe_gesture", "get_pinch_gesture", "get_hold_gesture" };
    struct object *listener = call(c, gestures, kinds[rng_below(&c->rng, 3)], pointer);
    call(c, input, "pointer_motion", on_windows(c), on_windows(c));
    uint32_t kind = rng_chance(&c->rng, 95) ? rng_below(&c->rng, 3) : edge_uint(c);
    uint32_t fingers = rng_chance(&c->rng, 90) ? 2 + rng_below(&c->rng, 3) : edge_uint(c);
    call(c, input, "touchpad_gesture_begin", kind, fingers);
    for (uint32_t moves = rng_below(&c->rng, 6); moves > 0; moves--) {
        wl_fixed_t scale = rng_chance(&c->rng, 90) ? wl_fixed_from_double(0.5 + rng_below(&c->rng, 100) / 50.0) : edge_fixed(c);
        call(c, input, "touchpad_gesture_update", nearby(c), nearby(c), scale, edge_fixed(c));
        if (listener && rng_chance(&c->rng, 5)) {
            call(c, listener, "destroy");
            listener = NULL;
        }
    }
    uint32_t roll = rng_below(&c->rng, 100);
    if (roll < 80) call(c, input, "touchpad_gesture_end", rng_chance(&c->rng, 80) ? 0 : edge_uint(c));
    else if (roll < 90) call(c, input, "touchpad_gesture_begin", rng_below(&c->rng, 3), 3);
}

/// Seat devices, a cursor surface, and a release now and then.
static void script_seat(struct conn *c) {
    struct object *seat = object_any(c, &wl_seat_interface);
    struct object *pointer = call(c, seat, "get_pointer");
    if (rng_chance(&c->rng, 50)) call(c, seat, "get_keyboard");
    if (rng_chance(&c->rng, 50)) call(c, seat, "get_touch");
    script_pointer_and_keys(c);
    if (rng_chance(&c->rng, 50)) {
        struct object *cursor = new_surface(c);
        attach_buffer(c, cursor, 1 + (int32_t)rng_below(&c->rng, 64), 1 + (int32_t)rng_below(&c->rng, 64));
        call(c, cursor, "commit");
        call(c, pointer, "set_cursor", recent_serial(c), cursor, nearby(c), nearby(c));
    }
    if (rng_chance(&c->rng, 20)) call(c, pointer, "release");
}

/// An interactive move or resize, as a desktop client starts one: a window placed at the
/// origin, sometimes with a window geometry near the int32 limit, a button pressed on it,
/// then xdg_toplevel.move or resize with that press's serial, and pointer motion.
static void script_move_or_resize(struct conn *c) {
    struct object *input = object_any(c, &tactile_test_input_v1_interface);
    struct object *seat = object_any(c, &wl_seat_interface);
    call(c, seat, "get_pointer"); // button events, and their serials, go to wl_pointer objects
    struct window w = xdg_window(c, rng_chance(&c->rng, 80) ? &stable : &unstable_v6);
    if (rng_chance(&c->rng, 40)) {
        bool huge = rng_chance(&c->rng, 50);
        call(c, w.xdg_surface, "set_window_geometry", 0, 0, huge ? near_int32_limit(c) : window_size(c),
             huge ? near_int32_limit(c) : window_size(c));
        call(c, w.surface, "commit");
    }
    call(c, input, "move_toplevel", w.surface, 0, 0);
    call(c, input, "pointer_motion", wl_fixed_from_int(1 + (int)rng_below(&c->rng, 8)), wl_fixed_from_int(1 + (int)rng_below(&c->rng, 8)));
    call(c, input, "pointer_button", BTN_LEFT, 1);
    if (!settle(c)) return;
    bool resize = rng_chance(&c->rng, 60);
    if (resize) call(c, w.toplevel, "resize", seat, c->button_serial, rng_below(&c->rng, 16));
    else call(c, w.toplevel, "move", seat, c->button_serial);
    for (uint32_t n = 1 + rng_below(&c->rng, 4); n > 0; n--) call(c, input, "pointer_motion", on_windows(c), on_windows(c));
    if (rng_chance(&c->rng, 80)) call(c, input, "pointer_button", BTN_LEFT, 0);
}

/// A data source offered as the selection, or dragged (which a headless server cancels).
static void script_data_device(struct conn *c) {
    struct object *manager = object_any(c, &wl_data_device_manager_interface);
    struct object *source = call(c, manager, "create_data_source");
    call(c, source, "offer", "text/plain;charset=utf-8");
    if (rng_chance(&c->rng, 40)) call(c, source, "set_actions", rng_below(&c->rng, 8));
    struct object *device = call(c, manager, "get_data_device", object_any(c, &wl_seat_interface));
    bool no_source = rng_chance(&c->rng, 15);
    if (rng_chance(&c->rng, 60)) {
        call(c, device, "set_selection", no_source ? NULL : source, recent_serial(c));
    } else {
        struct object *icon = rng_chance(&c->rng, 50) ? new_surface(c) : NULL;
        call(c, device, "start_drag", no_source ? NULL : source, object_any(c, &wl_surface_interface), icon,
             recent_serial(c));
    }
    if (rng_chance(&c->rng, 30)) call(c, source, "destroy");
}

/// Reads the newest offer the server made us (a selection, a drag), whose source may belong to
/// a client that has gone or is going: the server must answer with a closed pipe, not a crash.
static void script_receive_offer(struct conn *c) {
    bool destroy = rng_chance(&c->rng, 30);
    struct wl_proxy *offer = NULL;
    for (size_t i = c->orphan_count; i > 0 && !offer; i--)
        if (strcmp(wl_proxy_get_class(c->orphans[i - 1]), wl_data_offer_interface.name) == 0) offer = c->orphans[i - 1];
    int fds[2];
    if (!offer || c->broken || c->requests >= c->budget || pipe(fds) < 0) return;
    wl_data_offer_receive((struct wl_data_offer *)offer, "text/plain;charset=utf-8", fds[1]);
    c->requests++;
    c->stats->requests++;
    close(fds[1]);
    close(fds[0]);
    if (destroy) {
        // Still counted among the orphans, which are destroyed locally at disconnect.
        wl_proxy_marshal_flags(offer, WL_DATA_OFFER_DESTROY, NULL, wl_proxy_get_version(offer), 0);
        c->requests++;
        c->stats->requests++;
    }
}

/// xdg_activation_v1: a token asked for with or without a serial, surface and app id, then a
/// surface activated with a token: the one we got, another client's (when clients run at
/// once), or one the server never made.
static void script_activation(struct conn *c) {
    struct object *activation = object_any(c, &xdg_activation_v1_interface);
    struct object *token = call(c, activation, "get_activation_token");
    if (rng_chance(&c->rng, 70)) call(c, token, "set_serial", recent_serial(c), object_any(c, &wl_seat_interface));
    if (rng_chance(&c->rng, 50)) call(c, token, "set_surface", object_any(c, &wl_surface_interface));
    if (rng_chance(&c->rng, 30)) call(c, token, "set_app_id", "org.tactile.fuzz");
    call(c, token, "commit");
    if (rng_chance(&c->rng, 20)) call(c, token, "commit");
    uint32_t which = rng_below(&c->rng, 3);
    struct object *surface = rng_chance(&c->rng, 60) ? xdg_toplevel(c, &stable) : object_any(c, &wl_surface_interface);
    if (!settle(c)) return;
    char text[80];
    snprintf(text, sizeof text, "%s", c->token);
    if (which == 1) shared_token_any(&c->rng, text, sizeof text);
    if (which == 2) snprintf(text, sizeof text, "not-a-token-%u", edge_uint(c));
    call(c, activation, "activate", text, surface);
}

/// A buffer far larger than any screen, from a pool whose file was only sized: it costs the
/// client nothing, so the server must neither copy it nor keep what reading it would fault in.
static void script_huge_buffer(struct conn *c) {
    static const int32_t sizes[][2] = { { 4096, 4096 }, { 8192, 8192 }, { 16384, 16384 }, { 13818, 12425 }, { 16384, 1 } };
    const int32_t *size = sizes[rng_below(&c->rng, sizeof sizes / sizeof sizes[0])];
    struct object *surface = xdg_toplevel(c, &stable);
    struct object *shm = object_any(c, &wl_shm_interface);
    if (!surface || !shm) return;
    int32_t stride = size[0] * 4, bytes = stride * size[1];
    int fd = make_memfd((size_t)bytes);
    struct object *pool = call(c, shm, "create_pool", fd, bytes);
    if (fd >= 0) close(fd);
    struct object *buffer = call(c, pool, "create_buffer", 0, size[0], size[1], stride, 1);
    call(c, pool, "destroy");
    call(c, surface, "attach", buffer, 0, 0);
    call(c, surface, "damage_buffer", 0, 0, INT32_MAX, INT32_MAX);
    call(c, surface, "commit");
    script_wait_a_frame(c); // the repaint reads it
}

/// linux-dmabuf's params, where the server offers it (a GPU, or the QEMU guest's llvmpipe):
/// memfds as planes with hostile indices, offsets, strides and modifiers, then create or
/// create_immed with hostile sizes, formats and flags. A generic request reaches params too
/// rarely to count on.
static void script_dmabuf_params(struct conn *c) {
    struct object *dmabuf = object_any(c, &zwp_linux_dmabuf_v1_interface);
    if (!dmabuf) return;
    struct object *params = call(c, dmabuf, "create_params");
    if (!params) return;
    for (uint32_t plane = 0, planes = 1 + rng_below(&c->rng, 3); plane < planes; plane++) {
        int fd = make_memfd(4096);
        call(c, params, "add", fd, rng_chance(&c->rng, 80) ? plane : rng_below(&c->rng, 8), rng_chance(&c->rng, 70) ? 0u : rng_next(&c->rng),
             rng_chance(&c->rng, 70) ? 256u : rng_next(&c->rng), rng_chance(&c->rng, 80) ? 0x00ffffffu : rng_next(&c->rng),
             rng_chance(&c->rng, 80) ? 0xffffffffu : rng_next(&c->rng));
        if (fd >= 0) close(fd);
    }
    int32_t width = rng_chance(&c->rng, 60) ? 64 : (int32_t)rng_next(&c->rng), height = rng_chance(&c->rng, 60) ? 16 : (int32_t)rng_next(&c->rng);
    uint32_t format = rng_chance(&c->rng, 70) ? 0x34325258u /* XR24 */ : rng_next(&c->rng), flags = rng_chance(&c->rng, 80) ? 0 : rng_below(&c->rng, 16);
    if (rng_chance(&c->rng, 50)) call(c, params, "create", width, height, format, flags);
    else call(c, params, "create_immed", width, height, format, flags);
}

/// Our edge deferral protocol: a region kept off edge gestures, then destroyed in any order.
static void script_edge_deferral(struct conn *c) {
    struct object *manager = object_any(c, &tactile_edge_deferral_manager_v1_interface);
    struct object *surface = object_any(c, &wl_surface_interface);
    if (!surface) surface = xdg_toplevel(c, &stable);
    struct object *deferral = call(c, manager, "get_edge_deferral", surface);
    struct object *region = rng_chance(&c->rng, 80) ? call(c, object_any(c, &wl_compositor_interface), "create_region") : NULL;
    call(c, region, "add", nearby(c), nearby(c), window_size(c), window_size(c));
    uint32_t edges = rng_chance(&c->rng, 85) ? rng_below(&c->rng, 16) : edge_uint(c);
    uint32_t pixels = rng_chance(&c->rng, 85) ? rng_below(&c->rng, 400) : edge_uint(c);
    call(c, deferral, "set_region", edges, region, pixels);
    call(c, surface, "commit");
    if (rng_chance(&c->rng, 40)) call(c, region, "destroy");
    if (rng_chance(&c->rng, 30)) call(c, deferral, "destroy");
    if (rng_chance(&c->rng, 20)) call(c, surface, "destroy");
}

/// wl_display.sync: the only wl_display request worth fuzzing; its callback is ours to keep.
static void script_sync(struct conn *c) {
    if (c->broken || c->requests >= c->budget) return;
    struct wl_callback *callback = wl_display_sync(c->display);
    c->requests++;
    c->stats->requests++;
    object_add(c, (struct wl_proxy *)callback, &wl_callback_interface, 1);
    if (c->verbose)
        fprintf(stderr, "c%u #%u wl_display@1.sync(new wl_callback@%u)\n", c->index, c->requests,
                wl_proxy_get_id((struct wl_proxy *)callback));
}

/// Lets the server's 16 ms frame timer fire while the connection's objects are alive.
static void script_wait_a_frame(struct conn *c) {
    if (!wire_flush(c->display, 2000)) c->broken = true;
    sleep_ms(17 + (int)rng_below(&c->rng, 8));
    if (wire_pump(c->display, 0, false) < 0) c->broken = true;
}

static const struct script {
    const char *name;
    void (*run)(struct conn *c);
    uint32_t weight;
} scripts[] = {
    { "toplevel", script_toplevel, 10 },
    { "toplevel (xdg-shell v6)", script_toplevel_v6, 4 },
    { "popup", script_popup, 8 },
    { "popup (xdg-shell v6)", script_popup_v6, 3 },
    { "subsurface", script_subsurface, 8 },
    { "region", script_region, 5 },
    { "frame callbacks", script_frames, 8 },
    { "wl_shell surface", script_wl_shell, 4 },
    { "touch", script_touch, 10 },
    { "pointer and keys", script_pointer_and_keys, 6 },
    { "seat devices", script_seat, 5 },
    { "touchpad gesture", script_touchpad_gesture, 4 },
    { "move or resize", script_move_or_resize, 5 },
    { "data device", script_data_device, 4 },
    { "receive an offer", script_receive_offer, 2 },
    { "activation", script_activation, 3 },
    { "huge buffer", script_huge_buffer, 1 },
    { "edge deferral", script_edge_deferral, 4 },
    { "dmabuf params", script_dmabuf_params, 3 },
    { "sync", script_sync, 2 },
    { "wait a frame", script_wait_a_frame, 1 },
};

void run_random_script(struct conn *c) {
    uint32_t total = 0;
    for (size_t i = 0; i < sizeof scripts / sizeof scripts[0]; i++) total += scripts[i].weight;
    uint32_t pick = rng_below(&c->rng, total);
    size_t i = 0;
    while (pick >= scripts[i].weight) pick -= scripts[i++].weight;
    if (c->verbose) fprintf(stderr, "c%u script: %s\n", c->index, scripts[i].name);
    scripts[i].run(c);
}
