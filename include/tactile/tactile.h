/*
 * libtactile: Tactile's routing core for compositors written in C, C++ or Rust.
 *
 * The compositor keeps a scene (its surfaces and its own nodes, as a tree), feeds input in
 * (touch, pointer, keyboard, with their times) and is told, through one callback, what to
 * send to which client: wl_touch.down to this surface at these local coordinates,
 * wl_touch.cancel to that client, pointer enter and leave, keyboard focus. Gesture
 * recognizers (edge swipe, N-finger swipe, pinch, long press, tap) are configured from the
 * structs below or from the `gestures:` list of Tactile's YAML configuration; a second
 * callback says when one changes state. docs/embedding.md shows a compositor's 30 lines.
 *
 * Handles. A `tactile_router *` is opaque and made by tactile_router_create. A node is a
 * `tactile_node` number: it carries a generation, so a node removed (with its subtree) is
 * never confused with a later node that reuses its slot; every call given a removed node
 * answers TACTILE_ERROR_NO_NODE. 0 is never a node.
 *
 * Errors. Calls that can fail return a `tactile_status` (TACTILE_OK is 0); the message of
 * the last failure on a router is tactile_router_error(router). A NULL router, a NULL out
 * pointer, a destroyed router, a non-finite coordinate, a cycle in the tree, an unknown
 * enum value: each is an error code, never a crash.
 *
 * Threads. One router is used by one thread at a time (the compositor's event loop); the
 * library takes no lock on the router's path. Different routers may be used on different
 * threads at once. Callbacks run on the calling thread, inside the call that decided them;
 * a callback must not call back into the same router (doing so answers TACTILE_ERROR_BUSY,
 * or 0 or NULL from the calls that answer a handle or a pointer; tactile_router_error
 * still answers).
 *
 * Versioning. The soname is libtactile.so.0; within 0 the library only gains calls and
 * enum values (an unknown event type in a callback is to be ignored). Structs passed in
 * keep their layout; new fields come in new structs and calls. TACTILE_VERSION_MINOR counts
 * the additions; tactile_version() says what the loaded library has.
 */
#ifndef TACTILE_H
#define TACTILE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TACTILE_VERSION_MAJOR 0
#define TACTILE_VERSION_MINOR 3

typedef struct tactile_router tactile_router;
/* A node of the scene (see "Handles" above); 0 is none. */
typedef uint64_t tactile_node;
/* A client, numbered by the compositor (its wl_client pointer cast, a counter...); 0 is
 * reserved for the compositor's own nodes, which take no input themselves. */
typedef uint64_t tactile_client;
/* A gesture recognizer added to a router; 0 is none. */
typedef uint32_t tactile_gesture;

typedef enum tactile_status {
    TACTILE_OK = 0,
    /* The router was NULL, or already destroyed. */
    TACTILE_ERROR_NO_ROUTER = 1,
    /* The node (or the sibling or parent named) is not in the scene. */
    TACTILE_ERROR_NO_NODE = 2,
    /* An argument out of range: NULL where a pointer is needed, NaN or infinite
     * coordinates, an unknown enum value, a negative size, a node made its own ancestor. */
    TACTILE_ERROR_INVALID = 3,
    /* The YAML text is not a valid gesture configuration; the message has line, column
     * and key. */
    TACTILE_ERROR_CONFIGURATION = 4,
    /* The call came from inside one of this router's callbacks. */
    TACTILE_ERROR_BUSY = 5,
    /* The event made no sense in the router's state (a motion for a touch not down, a key
     * released that was not pressed); nothing changed. Not a failure of the embedder's
     * code: input devices do this. */
    TACTILE_ERROR_IGNORED = 6,
} tactile_status;

/* "MAJOR.MINOR" of the loaded library, e.g. "0.1": compare with the header's macros. */
const char *tactile_version(void);

/* ---- The router ------------------------------------------------------------------ */

/* A router with an empty scene: a root node at 0,0 of size 0x0 (give it the output's
 * size with tactile_node_set_geometry: edge gestures measure from it). NULL when out of
 * memory, or when 4,096 routers are alive at once. */
tactile_router *tactile_router_create(void);
/* Frees the router and every node; the handle is dead afterwards (later calls with it
 * answer TACTILE_ERROR_NO_ROUTER). NULL is accepted. */
void tactile_router_destroy(tactile_router *router);
/* The message of the router's last failure ("" if none); valid until the next call on the
 * router. For a NULL or destroyed router, a fixed message saying so. */
const char *tactile_router_error(const tactile_router *router);

/* ---- The scene --------------------------------------------------------------------- */

typedef enum tactile_node_flag {
    /* The node has content: a client surface with a buffer, or a compositor node in use
     * (give it to every compositor node that holds children). Without it the node and its
     * subtree take no input. */
    TACTILE_NODE_MAPPED = 1u << 0,
    /* Hidden by the compositor: hides the subtree. */
    TACTILE_NODE_HIDDEN = 1u << 1,
    /* Takes no input, nor does its subtree (a pass-through overlay, a disabled window). */
    TACTILE_NODE_NO_INPUT = 1u << 2,
    /* Keyboard focus goes to this node when anything inside it is touched or clicked. */
    TACTILE_NODE_TOPLEVEL = 1u << 3,
    /* For compositor nodes: points outside its size reach neither it nor its subtree. */
    TACTILE_NODE_CLIPS = 1u << 4,
} tactile_node_flag;

struct tactile_node_desc {
    /* The client owning the surface; 0 for a compositor node. */
    tactile_client client;
    /* Relative to the parent's origin. */
    int32_t x, y;
    int32_t width, height;
    /* tactile_node_flag values, or-ed. */
    uint32_t flags;
    /* The compositor's opacity, 0 to 1: below 0.01 the subtree takes no input. */
    double alpha;
    /* The embedder's own pointer (its wlr_surface, its view), handed back in events. */
    void *user_data;
};

typedef enum tactile_stack {
    TACTILE_STACK_TOP = 0,    /* topmost of the parent's children */
    TACTILE_STACK_BOTTOM = 1, /* bottommost of the parent's children, below its content */
    TACTILE_STACK_ABOVE = 2,  /* just above the sibling (above the parent's own content
                                 when the sibling is the parent) */
    TACTILE_STACK_BELOW = 3,  /* just below the sibling (below the parent's content: a
                                 subsurface placed below its parent) */
} tactile_stack;

struct tactile_rect {
    int32_t x, y, width, height;
};

/* The root: the output's (or the layout's) node, never removed. */
tactile_node tactile_router_root(const tactile_router *router);
/* Adds a node on top of `parent`'s children. A client surface's input region starts
 * infinite (as wl_surface's does: the whole surface), a compositor node's empty (it is hit
 * nowhere, so its children are). Events may name the node before this call returns (the
 * pointer entering it at once): they carry its user_data, set by then. */
tactile_status tactile_node_add(tactile_router *router, tactile_node parent, const struct tactile_node_desc *desc,
                                tactile_node *out);
/* Removes the node and its subtree. A touch owned by a removed surface ends (an up and a
 * frame go to its client at once); focus on it is dropped. The root cannot be removed. */
tactile_status tactile_node_remove(tactile_router *router, tactile_node node);
/* Replaces the node's description (its input region stays). Touches owned by a moved
 * surface get a motion to their new local position; the pointer re-enters whatever is
 * under it now. */
tactile_status tactile_node_update(tactile_router *router, tactile_node node, const struct tactile_node_desc *desc);
/* The position and size alone, for the common commit. */
tactile_status tactile_node_set_geometry(tactile_router *router, tactile_node node, int32_t x, int32_t y, int32_t width,
                                         int32_t height);
/* The input region as `count` rectangles in node-local coordinates (their union); count 0
 * is the empty region. `infinite` non-zero ignores the rectangles: the whole node. */
tactile_status tactile_node_set_input_region(tactile_router *router, tactile_node node, const struct tactile_rect *rects,
                                             size_t count, int infinite);
/* Moves the node among its parent's children; `sibling` matters for ABOVE and BELOW. */
tactile_status tactile_node_restack(tactile_router *router, tactile_node node, tactile_stack position, tactile_node sibling);
/* Moves the node (and its subtree) under another parent, on top. A parent inside the
 * node's own subtree is TACTILE_ERROR_INVALID: the scene stays a tree. */
tactile_status tactile_node_reparent(tactile_router *router, tactile_node node, tactile_node parent);
/* The embedder's pointer given in the node's description; NULL for a removed node. */
void *tactile_node_user_data(const tactile_router *router, tactile_node node);

/* The topmost node hit at global x, y, walking the scene as UIKit does (reverse pre-order,
 * skipping unmapped, hidden, input-less and transparent subtrees, each node hit inside its
 * size and input region). `*out` is 0 when nothing is hit; `local_x`/`local_y` (either may
 * be NULL) receive the point in the node's coordinates. */
tactile_status tactile_hit_test(tactile_router *router, double x, double y, tactile_node *out, double *local_x,
                                double *local_y);

/* ---- Clients ----------------------------------------------------------------------- */

typedef enum tactile_capability {
    TACTILE_CAPABILITY_POINTER = 1u << 0,
    TACTILE_CAPABILITY_KEYBOARD = 1u << 1,
    TACTILE_CAPABILITY_TOUCH = 1u << 2,
} tactile_capability;

/* Which devices the client has bound on the seat (wl_seat.get_touch...); a client starts
 * with none, and touches on it are dropped until it has wl_touch or wl_pointer. A touch on a
 * client without wl_touch drives its pointer instead (the first finger), as older toolkits
 * expect; tactile_router_set_pointer_emulation turns that off. */
tactile_status tactile_client_set_capabilities(tactile_router *router, tactile_client client, uint32_t capabilities);
/* The client went away: its touches end silently, its nodes leave the scene. */
tactile_status tactile_client_disconnected(tactile_router *router, tactile_client client);
tactile_status tactile_router_set_pointer_emulation(tactile_router *router, int enabled);
/* Gives the keyboard focus to the surface `node` (a kiosk's app as it maps: an app nobody
 * touched yet hears keys too), or to nobody with 0. Touching or clicking inside a toplevel
 * later moves it there, as usual. */
tactile_status tactile_keyboard_focus(tactile_router *router, tactile_node node);

/* ---- Input in ---------------------------------------------------------------------- */
/* Coordinates are global (layout) pixels: NaN, infinities and values beyond 2^40 are
 * TACTILE_ERROR_INVALID. Times are microseconds on any clock that does not go back
 * (libinput's). TACTILE_ERROR_IGNORED: the event made no sense and was dropped. */

tactile_status tactile_touch_down(tactile_router *router, int32_t id, double x, double y, uint64_t time_usec);
tactile_status tactile_touch_motion(tactile_router *router, int32_t id, double x, double y, uint64_t time_usec);
tactile_status tactile_touch_up(tactile_router *router, int32_t id, uint64_t time_usec);
/* The device gave up on the touch (libinput's touch cancel). */
tactile_status tactile_touch_cancel(tactile_router *router, int32_t id, uint64_t time_usec);
/* Ends a group of touch events that happened together (libinput's touch frame). */
tactile_status tactile_touch_frame(tactile_router *router);

/* Absolute: turn relative motion into a position first. */
tactile_status tactile_pointer_motion(tactile_router *router, double x, double y, uint64_t time_usec);
/* `button`: the evdev code (BTN_LEFT 0x110...); `pressed` non-zero for down. */
tactile_status tactile_pointer_button(tactile_router *router, uint32_t button, int pressed, uint64_t time_usec);

typedef enum tactile_axis_source {
    TACTILE_AXIS_SOURCE_WHEEL = 0,
    TACTILE_AXIS_SOURCE_FINGER = 1,
    TACTILE_AXIS_SOURCE_CONTINUOUS = 2,
    TACTILE_AXIS_SOURCE_WHEEL_TILT = 3,
} tactile_axis_source;

struct tactile_axis {
    tactile_axis_source source;
    /* Surface pixels, as wl_pointer.axis carries them; 0 for an axis that did not move. */
    double horizontal, vertical;
    /* Wheel clicks in 120ths (wl_pointer.axis_value120); 0 when the source has none. */
    int32_t horizontal_value120, vertical_value120;
    /* Non-zero: the finger or continuous scroll stopped on that axis (wl_pointer.axis_stop). */
    int stop_horizontal, stop_vertical;
};

tactile_status tactile_pointer_axis(tactile_router *router, const struct tactile_axis *axis, uint64_t time_usec);
/* `key`: the evdev code (KEY_A 30...). */
tactile_status tactile_key(tactile_router *router, uint32_t key, int pressed, uint64_t time_usec);

/* ---- Decisions out ----------------------------------------------------------------- */

typedef enum tactile_event_type {
    TACTILE_EVENT_TOUCH_DOWN = 1,      /* surface, touch_id, x, y, time */
    TACTILE_EVENT_TOUCH_MOTION = 2,    /* surface, touch_id, x, y, time */
    TACTILE_EVENT_TOUCH_UP = 3,        /* touch_id, time */
    TACTILE_EVENT_TOUCH_FRAME = 4,     /* (wl_touch.frame) */
    TACTILE_EVENT_TOUCH_CANCEL = 5,    /* every touch of the client ends (wl_touch.cancel);
                                          no surface: it is the client's whole wl_touch */
    TACTILE_EVENT_POINTER_ENTER = 6,   /* surface, x, y */
    TACTILE_EVENT_POINTER_LEAVE = 7,   /* surface */
    TACTILE_EVENT_POINTER_MOTION = 8,  /* surface, x, y, time */
    TACTILE_EVENT_POINTER_BUTTON = 9,  /* code, pressed, time */
    TACTILE_EVENT_POINTER_AXIS = 10,   /* axis, time */
    TACTILE_EVENT_POINTER_FRAME = 11,  /* (wl_pointer.frame) */
    TACTILE_EVENT_KEYBOARD_ENTER = 12, /* surface, keys, key_count */
    TACTILE_EVENT_KEYBOARD_LEAVE = 13, /* surface */
    TACTILE_EVENT_KEY = 14,            /* code, pressed, time */
} tactile_event_type;

/* One decision: send this event to `client`. Fields a type does not list are 0. Positions
 * are local to `surface`, wherever the finger or pointer is now. */
struct tactile_event {
    tactile_event_type type;
    tactile_client client;
    tactile_node surface;
    /* The surface's user_data. */
    void *surface_data;
    int32_t touch_id;
    double x, y;
    uint64_t time_usec;
    /* The button or key code. */
    uint32_t code;
    int pressed;
    struct tactile_axis axis;
    /* The keys held as focus enters (wl_keyboard.enter's array); valid during the callback. */
    const uint32_t *keys;
    size_t key_count;
};

typedef void (*tactile_event_fn)(void *data, const struct tactile_event *event);
/* Where decisions go; NULL drops them. `data` is handed back to the callback. */
tactile_status tactile_router_set_event_callback(tactile_router *router, tactile_event_fn callback, void *data);

/* The routing trace: one line per decision, "subject verb key=value..." (the words of
 * `tactile serve --trace`), nodes named by number. NULL turns tracing off, which costs
 * nothing. */
typedef void (*tactile_trace_fn)(void *data, const char *line);
tactile_status tactile_router_set_trace_callback(tactile_router *router, tactile_trace_fn callback, void *data);

/* ---- Gestures ---------------------------------------------------------------------- */

typedef enum tactile_gesture_kind {
    TACTILE_GESTURE_EDGE_SWIPE = 0, /* edge, start_band, distance */
    TACTILE_GESTURE_SWIPE = 1,      /* fingers, direction, distance, gather_time_ms */
    TACTILE_GESTURE_PINCH = 2,      /* fingers, direction, scale, max_translation, gather_time_ms */
    TACTILE_GESTURE_LONG_PRESS = 3, /* duration_ms, slop */
    TACTILE_GESTURE_TAP = 4,        /* taps, interval_ms, max_duration_ms, slop, max_distance */
} tactile_gesture_kind;

typedef enum tactile_edge {
    TACTILE_EDGE_LEFT = 0,
    TACTILE_EDGE_RIGHT = 1,
    TACTILE_EDGE_TOP = 2,
    TACTILE_EDGE_BOTTOM = 3,
} tactile_edge;

/* For swipes: TACTILE_DIRECTION_ANY or one of left, right, up, down; for pinches: any,
 * apart or together. */
typedef enum tactile_direction {
    TACTILE_DIRECTION_ANY = 0,
    TACTILE_DIRECTION_LEFT = 1,
    TACTILE_DIRECTION_RIGHT = 2,
    TACTILE_DIRECTION_UP = 3,
    TACTILE_DIRECTION_DOWN = 4,
    TACTILE_DIRECTION_APART = 5,
    TACTILE_DIRECTION_TOGETHER = 6,
} tactile_direction;

/* A recognizer, as a `gestures:` entry of the YAML says it. A field left 0 takes the
 * YAML's default (tactile_gesture_desc_init fills them in, with UIKit's options); fields
 * the kind does not use (an edge for a tap) are not read. */
struct tactile_gesture_desc {
    /* For the log, the trace and the gesture callback; copied. */
    const char *name;
    tactile_gesture_kind kind;
    tactile_edge edge;
    tactile_direction direction;
    int32_t fingers;
    double start_band, distance, scale, max_translation, slop, max_distance;
    uint32_t gather_time_ms, duration_ms, interval_ms, max_duration_ms;
    int32_t taps;
    /* UIKit's arbitration options. */
    int cancels_touches_in_view, delays_touches_began, delays_touches_ended;
};

/* The YAML's defaults for `kind`, UIKit's options (cancels touches in view, delays touches
 * ended), name NULL. */
tactile_status tactile_gesture_desc_init(struct tactile_gesture_desc *desc, tactile_gesture_kind kind);
/* A system gesture on the root: it is offered every touch. `*out` names it (may be NULL). */
tactile_status tactile_gesture_add(tactile_router *router, const struct tactile_gesture_desc *desc, tactile_gesture *out);
/* `a` and `b` may both win the same touches. */
tactile_status tactile_gesture_recognize_simultaneously(tactile_router *router, tactile_gesture a, tactile_gesture b);
/* `gesture` wins only once `other` has failed. */
tactile_status tactile_gesture_require_failure(tactile_router *router, tactile_gesture gesture, tactile_gesture other);

/* Adds every gesture of the `gestures:` list of a Tactile configuration (YAML, the keys of
 * docs/configuration.md; the file's other keys are the server's, and left alone), with
 * their simultaneous-with and requires-failure-of. `file` only names the text in messages.
 * Nothing is added when any gesture is wrong. */
tactile_status tactile_gestures_load_yaml(tactile_router *router, const char *text, size_t length, const char *file);

typedef enum tactile_gesture_state {
    TACTILE_GESTURE_POSSIBLE = 0,
    TACTILE_GESTURE_BEGAN = 1,
    TACTILE_GESTURE_CHANGED = 2,
    TACTILE_GESTURE_ENDED = 3,
    TACTILE_GESTURE_CANCELLED = 4,
    TACTILE_GESTURE_FAILED = 5,
    TACTILE_GESTURE_RECOGNIZED = 6,
} tactile_gesture_state;

struct tactile_gesture_event {
    tactile_gesture gesture;
    /* The name it was given; valid during the callback. */
    const char *name;
    tactile_gesture_state state;
    uint64_t time_usec;
    /* Where it is now (its finger, or its fingers' centroid), globally; how far that moved
     * since its fingers were all down; their spread over the spread at the start; fingers
     * down, or taps made. */
    double x, y, dx, dy, scale;
    int32_t count;
    /* The YAML's `run:` command for this gesture, or NULL; `when:` is "recognized" or
     * "ended" (NULL for gestures added from C): the embedder runs it. */
    const char *command;
    const char *when;
};

typedef void (*tactile_gesture_fn)(void *data, const struct tactile_gesture_event *event);
tactile_status tactile_router_set_gesture_callback(tactile_router *router, tactile_gesture_fn callback, void *data);

/* ---- Touchscreens' filters (0.2) ------------------------------------------------- */
/* A touchscreen's touches may pass filters before routing that repair what panels do in
 * the field: bounces, jitter, ghost and stuck contacts, dead corners (docs/behaviour.md,
 * "Touch on real panels"). Touches given with tactile_device_touch_* name their device, a
 * number the embedder chooses (its libinput device's index, say); the plain tactile_touch_*
 * calls are touches of no device, and pass no filter. Ids are the device's own: the
 * callbacks may number a touch otherwise while a filter keeps an id alive that the device
 * let go of (a held lift), so no id is ever down twice. Held events are let go by
 * tactile_fire_deadlines, which tactile_next_deadline counts them in. What a filter did is
 * told to the trace callback, a line per touch and filter (`touch 3 filtered
 * filter=debounce ... verdict=bounce`). */
typedef uint32_t tactile_device;

struct tactile_touch_filters {
    /* A lift and a touch-down within this many ms and within debounce_radius px of it are
     * one touch: the panel bounced. Every lift waits this long. 0: off. */
    uint32_t debounce_ms;
    double debounce_radius;
    /* A finger sends no motion until it has moved this many px from its down. 0: off. */
    double jitter;
    /* 1: every motion goes through the 1€ filter with these; 0: off. */
    int32_t smoothing;
    double min_cutoff_hz;
    double beta;
    /* Touches that come down inside one of these (in the touches' coordinates) go nowhere. */
    const struct tactile_rect *dead_zones;
    size_t dead_zone_count;
    /* A contact that lifts within this many ms without moving is a ghost and goes nowhere;
     * every touch-down waits up to this long. 0: off. */
    uint32_t min_contact_ms;
    /* Contacts on a device where nothing changed for this many ms end, cancelled. 0: off. */
    uint32_t stuck_after_ms;
};

/* Fills `filters` with what a devices: entry without filter keys gives: everything off but
 * stuck_after_ms (30000), debounce_radius 24, min_cutoff_hz 1, beta 0.02. */
void tactile_touch_filters_init(struct tactile_touch_filters *filters);
/* Gives `device` these filters (NULL: none, and what they held is forgotten: a device
 * unplugged). A device with touches down keeps its old filters until they have ended. The
 * dead zones are copied. Negative or non-finite values, a zone narrower than 1 px or more
 * than 1024 zones answer TACTILE_ERROR_INVALID. */
tactile_status tactile_device_set_touch_filters(tactile_router *router, tactile_device device, const struct tactile_touch_filters *filters);
/* As the server does: the filters the `devices:` entries of a Tactile configuration give a
 * device named `device_name` (every entry whose `match` the name contains, later entries
 * winning, docs/configuration.md), its dead zones placed on `output` (the device's output
 * in the touches' coordinates; NULL: from 0,0). A mistake in any entry, or a dead zone off
 * the output, answers TACTILE_ERROR_CONFIGURATION with the line, column and key. */
tactile_status tactile_device_load_touch_filters_yaml(tactile_router *router, tactile_device device, const char *device_name,
                                                      const struct tactile_rect *output, const char *text, size_t length, const char *file);

tactile_status tactile_device_touch_down(tactile_router *router, tactile_device device, int32_t id, double x, double y, uint64_t time_usec);
tactile_status tactile_device_touch_motion(tactile_router *router, tactile_device device, int32_t id, double x, double y, uint64_t time_usec);
tactile_status tactile_device_touch_up(tactile_router *router, tactile_device device, int32_t id, uint64_t time_usec);
tactile_status tactile_device_touch_cancel(tactile_router *router, tactile_device device, int32_t id, uint64_t time_usec);
tactile_status tactile_device_touch_frame(tactile_router *router, tactile_device device);

/* ---- Touch accommodations (0.3) -------------------------------------------------- */
/* For people who touch unlike a steady hand (docs/accessibility.md): every touch, of a
 * device or not, passes these after the device's filters and before routing. A touch that
 * comes down on a system edge swipe's edge, or on a node (or under one) whose accommodations
 * are off, passes as it is. What they did is told to the trace callback (`touch 3
 * accommodated by=hold-duration ... verdict=counted`); held touches are let go by
 * tactile_fire_deadlines. While a hold counts, or a long press waits to right-click, the
 * embedder draws a ring there (tactile_get_ring). */
enum tactile_tap_assistance {
    TACTILE_TAP_ASSISTANCE_OFF = 0,
    /* A touch shorter than the delay is a tap where it came down... */
    TACTILE_TAP_ASSISTANCE_INITIAL = 1,
    /* ... or where it lifted. */
    TACTILE_TAP_ASSISTANCE_FINAL = 2,
};

struct tactile_accommodations {
    /* A touch counts only once held this many ms within hold_slop px of its down; until
     * then it goes nowhere, and a lift or a slide drops it. 0: off; else 100 to 4000. */
    uint32_t hold_duration_ms;
    double hold_slop;
    /* A touch starting this many ms or less after the start of the last one that went on,
     * within ignore_repeat_radius px of it, goes nowhere. 0: off; else 50 to 4000. */
    uint32_t ignore_repeat_ms;
    double ignore_repeat_radius;
    /* enum tactile_tap_assistance, and its delay (50 to 4000 ms). */
    int32_t tap_assistance;
    uint32_t tap_assistance_delay_ms;
};

/* Fills `accommodations` with everything off and the server's defaults for the rest:
 * hold_slop 24, ignore_repeat_radius 48, tap_assistance_delay_ms 300. */
void tactile_accommodations_init(struct tactile_accommodations *accommodations);
/* The router's accommodations from the next moment no touch is down. Values out of their
 * ranges answer TACTILE_ERROR_INVALID and change nothing. */
tactile_status tactile_set_accommodations(tactile_router *router, const struct tactile_accommodations *accommodations);
/* As the server does: the `accessibility:` table of a Tactile configuration. A mistake
 * answers TACTILE_ERROR_CONFIGURATION with the line, column and key, and changes nothing. */
tactile_status tactile_load_accommodations_yaml(tactile_router *router, const char *text, size_t length, const char *file);
/* enabled 0: touches that come down on `node` or under it pass the accommodations as they
 * are (a drawing app, a game); 1 (every node's default): they are accommodated. */
tactile_status tactile_node_set_accommodations(tactile_router *router, tactile_node node, int enabled);
/* In the pointer emulation (a touch on a client without touch), a finger held still this
 * many ms right-clicks where it is, and its touch sends no left button; 0: off (the
 * default); else 200 to 4000. */
tactile_status tactile_set_secondary_click(tactile_router *router, uint32_t ms);

enum tactile_ring_purpose {
    TACTILE_RING_HOLD_DURATION = 0,
    TACTILE_RING_SECONDARY_CLICK = 1,
};

/* A countdown to draw under a finger: full at end_usec, empty at start_usec. */
struct tactile_ring {
    int32_t touch;
    int32_t purpose; /* enum tactile_ring_purpose */
    double x, y;
    uint64_t start_usec;
    uint64_t end_usec;
};

/* How many rings to draw now; tactile_get_ring fills ring `index` (0 to count - 1). Both
 * change with each event and deadline: ask again after each. */
size_t tactile_ring_count(const tactile_router *router);
tactile_status tactile_get_ring(const tactile_router *router, size_t index, struct tactile_ring *ring);

/* ---- Zoom by touch (0.3) ---------------------------------------------------------- */
/* A three-finger double tap magnifies the output under the fingers (docs/accessibility.md,
 * "Zoom"), a double tap whose second tap drags up or down changes the scale, three fingers
 * dragged while zoomed move the region shown. Touches pass the zoom after a device's filters
 * and before the accommodations; the three fingers are the zoom's (a client that had the
 * first two gets a cancel). While zoomed, every point the router is given (touch, pointer,
 * pen), in the output's coordinates as the screen shows them, is mapped to the layout point
 * shown there, so clients get their own coordinates: the compositor draws `region`
 * magnified `scale` times to fill `output`, overlays included. */
struct tactile_zoom_settings {
    double scale;   /* what a double tap zooms to: 1.2 to 10 (2 in the server) */
    double maximum; /* the most a double tap and drag reaches: scale to 10 (5) */
};

struct tactile_zoom {
    int32_t active;             /* 0: nothing magnified, and the rest is empty */
    double scale;
    struct tactile_rect output; /* the output magnified, in the touches' coordinates */
    struct tactile_rect region; /* what of it fills the output, in the same coordinates */
};

/* Zoom on with these settings, or off (NULL: what is magnified is restored). Values out of
 * range answer TACTILE_ERROR_INVALID and change nothing. tactile_load_accommodations_yaml
 * sets it too, from `accessibility.zoom`. */
tactile_status tactile_set_zoom(tactile_router *router, const struct tactile_zoom_settings *settings);
/* The outputs the zoom may magnify (at most 64); a magnified output that is no longer among
 * them is restored. */
tactile_status tactile_set_zoom_outputs(tactile_router *router, const struct tactile_rect *outputs, size_t count);
/* A text field's cursor rectangle (text-input-v3's, in layout coordinates): while zoomed,
 * the region moves to show it when it is out of sight. */
tactile_status tactile_zoom_follow(tactile_router *router, const struct tactile_rect *cursor);
/* What to draw now; ask after each event, deadline and call that may change it. */
tactile_status tactile_get_zoom(const tactile_router *router, struct tactile_zoom *zoom);

/* Recognizers wait (a long press, a tap's second tap), and so do touch filters (a held
 * lift) and accommodations (a hold): when the earliest wants to be woken, in the clock of the events' times, or 0 when
 * none waits. Arm a timer for it, then call
 * tactile_fire_deadlines with the time it fired. */
uint64_t tactile_next_deadline(const tactile_router *router);
tactile_status tactile_fire_deadlines(tactile_router *router, uint64_t now_usec);

#ifdef __cplusplus
}
#endif

#endif
