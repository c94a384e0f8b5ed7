/*
 * abi: the promises of include/tactile/tactile.h, one named check each, as a compositor
 * written in C would rely on them. Prints "ok NAME" or "FAIL NAME: why"; exit 1 if any fails.
 *
 * Each check runs in a child process of its own, so that a crash or a hang in the library
 * fails that check by name instead of ending the run, and no state leaks between checks.
 * Expectations follow the Swift core's tests (Tests/ResponderTests): the output is 1000x1000;
 * an edge swipe starts within 24 px of its edge and travels 80; a long press holds 500 ms.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tactile/tactile.h>

enum { ALICE = 1, BOB = 2, BTN_LEFT = 0x110, BTN_RIGHT = 0x111, KEY_A = 30, MAX_EVENTS = 256, MAX_KEYS = 8 };

/* ---- What the callbacks saw --------------------------------------------------------- */

/* An event as delivered, with its keys copied: the array is valid only during the call. */
struct seen_event {
    struct tactile_event e;
    uint32_t keys[MAX_KEYS];
};

/* A gesture event, with its strings copied for the same reason. */
struct seen_gesture {
    struct tactile_gesture_event e;
    char name[64], command[64], when[16];
    int has_command, has_when;
};

static struct {
    struct seen_event events[MAX_EVENTS];
    int event_count;
    struct seen_gesture gestures[MAX_EVENTS];
    int gesture_count;
    int trace_lines;
    /* What a call back into the router answered from inside a callback (-1: not tried). */
    int reentry_status;
    /* The header: "Fields a type does not list are 0." The first event breaking it. */
    char unlisted[320];
} seen;

static tactile_router *current; /* the router under test, for the re-entry probe */
/* Which callback calls back into the router, once, recording the answer. */
static enum { PROBE_NONE, PROBE_TRACE, PROBE_EVENT, PROBE_GESTURE } probe;

/* Which fields each event type lists (tactile.h, tactile_event_type). */
enum { F_SURFACE = 1, F_TOUCH = 2, F_XY = 4, F_TIME = 8, F_CODE = 16, F_AXIS = 32, F_KEYS = 64 };

static unsigned listed_fields(tactile_event_type type)
{
    switch (type) {
    case TACTILE_EVENT_TOUCH_DOWN:
    case TACTILE_EVENT_TOUCH_MOTION: return F_SURFACE | F_TOUCH | F_XY | F_TIME;
    case TACTILE_EVENT_TOUCH_UP: return F_TOUCH | F_TIME;
    case TACTILE_EVENT_POINTER_ENTER: return F_SURFACE | F_XY;
    case TACTILE_EVENT_POINTER_LEAVE:
    case TACTILE_EVENT_KEYBOARD_LEAVE: return F_SURFACE;
    case TACTILE_EVENT_POINTER_MOTION: return F_SURFACE | F_XY | F_TIME;
    case TACTILE_EVENT_POINTER_BUTTON:
    case TACTILE_EVENT_KEY: return F_CODE | F_TIME;
    case TACTILE_EVENT_POINTER_AXIS: return F_AXIS | F_TIME;
    case TACTILE_EVENT_KEYBOARD_ENTER: return F_SURFACE | F_KEYS;
    default: return 0; /* frames, cancel */
    }
}

static const char *unlisted_nonzero(const struct tactile_event *e)
{
    static const struct tactile_axis no_axis;
    unsigned f = listed_fields(e->type);
    if (!(f & F_SURFACE) && (e->surface || e->surface_data)) return "surface";
    if (!(f & F_TOUCH) && e->touch_id) return "touch_id";
    if (!(f & F_XY) && (e->x != 0 || e->y != 0)) return "x, y";
    if (!(f & F_TIME) && e->time_usec) return "time_usec";
    if (!(f & F_CODE) && (e->code || e->pressed)) return "code, pressed";
    if (!(f & F_AXIS) && memcmp(&e->axis, &no_axis, sizeof no_axis) != 0) return "axis";
    if (!(f & F_KEYS) && (e->keys || e->key_count)) return "keys";
    return NULL;
}

static void on_event(void *data, const struct tactile_event *e)
{
    (void)data;
    if (probe == PROBE_EVENT && seen.reentry_status < 0) {
        tactile_node node;
        seen.reentry_status = (int)tactile_hit_test(current, 1, 1, &node, NULL, NULL);
    }
    const char *field = unlisted_nonzero(e);
    if (field && !seen.unlisted[0])
        snprintf(seen.unlisted, sizeof seen.unlisted,
                 "event type %d carries %s, which it does not list (surface %llu, touch_id %d, x,y %g,%g, time %llu, "
                 "code %u, keys %p, key_count %zu)",
                 (int)e->type, field, (unsigned long long)e->surface, e->touch_id, e->x, e->y,
                 (unsigned long long)e->time_usec, e->code, (const void *)e->keys, e->key_count);
    if (seen.event_count == MAX_EVENTS) return;
    struct seen_event *s = &seen.events[seen.event_count++];
    s->e = *e;
    for (size_t i = 0; i < e->key_count && i < MAX_KEYS; i++) s->keys[i] = e->keys[i];
    s->e.keys = NULL;
}

static void copy_string(char *to, size_t size, const char *from, int *present)
{
    if (present) *present = from != NULL;
    snprintf(to, size, "%s", from ? from : "");
}

static void on_gesture(void *data, const struct tactile_gesture_event *e)
{
    (void)data;
    if (probe == PROBE_GESTURE && seen.reentry_status < 0) seen.reentry_status = (int)tactile_fire_deadlines(current, 0);
    if (seen.gesture_count == MAX_EVENTS) return;
    struct seen_gesture *g = &seen.gestures[seen.gesture_count++];
    g->e = *e;
    copy_string(g->name, sizeof g->name, e->name, NULL);
    copy_string(g->command, sizeof g->command, e->command, &g->has_command);
    copy_string(g->when, sizeof g->when, e->when, &g->has_when);
}

static void on_trace(void *data, const char *line)
{
    (void)data;
    (void)line;
    if (probe == PROBE_TRACE && seen.reentry_status < 0) seen.reentry_status = (int)tactile_touch_frame(current);
    seen.trace_lines++;
}

static void forget_seen(void)
{
    seen.event_count = 0;
    seen.gesture_count = 0;
    seen.trace_lines = 0;
}

/* ---- Checks ------------------------------------------------------------------------- */

static char failure[512];

/* Records why the check fails (the first reason wins) and leaves it. */
#define EXPECT(cond, ...)                                                                                              \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fail_at(__LINE__, __VA_ARGS__);                                                                            \
            return;                                                                                                    \
        }                                                                                                              \
    } while (0)

static void fail_at(int line, const char *fmt, ...)
{
    if (failure[0]) return;
    int n = snprintf(failure, sizeof failure, "line %d: ", line);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(failure + n, sizeof failure - (size_t)n, fmt, ap);
    va_end(ap);
}

#define EXPECT_OK(call) EXPECT_STATUS(call, TACTILE_OK)
#define EXPECT_STATUS(call, want)                                                                                      \
    do {                                                                                                               \
        tactile_status got_ = (call);                                                                                  \
        EXPECT(got_ == (want), "%s answered %d, expected %d (%s)", #call, (int)got_, (int)(want),                      \
               tactile_router_error(current));                                                                         \
    } while (0)

/* The event types delivered since the last forget_seen, as text, for messages. */
static const char *types_seen(void)
{
    static char text[512];
    size_t n = 0;
    text[0] = 0;
    for (int i = 0; i < seen.event_count && n < sizeof text - 8; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s%d", i ? "," : "", (int)seen.events[i].e.type);
    return text;
}

/* Whether the delivered types are exactly `types`. */
static int types_are(const int *types, int count)
{
    if (seen.event_count != count) return 0;
    for (int i = 0; i < count; i++)
        if ((int)seen.events[i].e.type != types[i]) return 0;
    return 1;
}

#define EXPECT_TYPES(...)                                                                                              \
    EXPECT(types_are((const int[]){__VA_ARGS__}, (int)(sizeof((const int[]){__VA_ARGS__}) / sizeof(int))),           \
           "delivered types [%s], expected [%s]", types_seen(), #__VA_ARGS__)

#define EXPECT_NO_EVENTS() EXPECT(seen.event_count == 0, "delivered [%s], expected nothing", types_seen())

static const struct tactile_event *ev(int i) { return &seen.events[i].e; }

/* A router with a 1000x1000 output whose callbacks record into `seen`, and two clients
 * bound to every device (the header leaves a client's devices before it says them open). */
static tactile_router *desk(void)
{
    tactile_router *r = tactile_router_create();
    current = r;
    if (!r) return NULL;
    tactile_node_set_geometry(r, tactile_router_root(r), 0, 0, 1000, 1000);
    tactile_router_set_event_callback(r, on_event, NULL);
    tactile_router_set_gesture_callback(r, on_gesture, NULL);
    uint32_t all = TACTILE_CAPABILITY_POINTER | TACTILE_CAPABILITY_KEYBOARD | TACTILE_CAPABILITY_TOUCH;
    tactile_client_set_capabilities(r, ALICE, all);
    tactile_client_set_capabilities(r, BOB, all);
    return r;
}

/* Distinct addresses to hand in as user_data and expect back. */
static char marks[16];

static tactile_node add(tactile_router *r, tactile_node parent, tactile_client client, int32_t x, int32_t y, int32_t w,
                        int32_t h, uint32_t flags, void *user_data)
{
    struct tactile_node_desc d = {client, x, y, w, h, flags | TACTILE_NODE_MAPPED, 1.0, user_data};
    tactile_node node = 0;
    if (tactile_node_add(r, parent ? parent : tactile_router_root(r), &d, &node) != TACTILE_OK) return 0;
    return node;
}

static tactile_node hit(tactile_router *r, double x, double y)
{
    tactile_node node = 0;
    return tactile_hit_test(r, x, y, &node, NULL, NULL) == TACTILE_OK ? node : (tactile_node)-1;
}

#define EXPECT_HIT(r, x, y, want)                                                                                      \
    EXPECT(hit(r, x, y) == (want), "hit at %g,%g is node %llu, expected %s", (double)(x), (double)(y),                 \
           (unsigned long long)hit(r, x, y), #want)

/* Touches and frames, libinput's way: every group ends with a frame. */
static void touch_down(tactile_router *r, int32_t id, double x, double y, uint64_t t)
{
    tactile_touch_down(r, id, x, y, t);
    tactile_touch_frame(r);
}

static void touch_motion(tactile_router *r, int32_t id, double x, double y, uint64_t t)
{
    tactile_touch_motion(r, id, x, y, t);
    tactile_touch_frame(r);
}

static void touch_up(tactile_router *r, int32_t id, uint64_t t)
{
    tactile_touch_up(r, id, t);
    tactile_touch_frame(r);
}

static void check_version(void)
{
    const char *v = tactile_version();
    char expected[32];
    snprintf(expected, sizeof expected, "%d.%d", TACTILE_VERSION_MAJOR, TACTILE_VERSION_MINOR);
    EXPECT(v != NULL && strcmp(v, expected) == 0, "tactile_version() is \"%s\", expected \"%s\"", v ? v : "(null)", expected);
}

static void check_tap(void)
{
    tactile_router *r = desk();
    tactile_node w = add(r, 0, ALICE, 100, 200, 300, 300, 0, &marks[0]);
    EXPECT(w != 0, "tactile_node_add failed");
    tactile_touch_down(r, 1, 150.5, 260.25, 10000);
    tactile_touch_frame(r);
    EXPECT_TYPES(TACTILE_EVENT_TOUCH_DOWN, TACTILE_EVENT_TOUCH_FRAME);
    EXPECT(ev(0)->client == ALICE && ev(0)->surface == w && ev(0)->surface_data == &marks[0] && ev(0)->touch_id == 1,
           "down to client %llu surface %llu data %p id %d", (unsigned long long)ev(0)->client,
           (unsigned long long)ev(0)->surface, ev(0)->surface_data, ev(0)->touch_id);
    EXPECT(ev(0)->x == 50.5 && ev(0)->y == 60.25 && ev(0)->time_usec == 10000, "down at %g,%g time %llu", ev(0)->x,
           ev(0)->y, (unsigned long long)ev(0)->time_usec);
    EXPECT(ev(1)->client == ALICE, "frame to client %llu", (unsigned long long)ev(1)->client);
    forget_seen();
    touch_up(r, 1, 20000);
    EXPECT_TYPES(TACTILE_EVENT_TOUCH_UP, TACTILE_EVENT_TOUCH_FRAME);
    EXPECT(ev(0)->client == ALICE && ev(0)->touch_id == 1 && ev(0)->time_usec == 20000, "up: client %llu id %d time %llu",
           (unsigned long long)ev(0)->client, ev(0)->touch_id, (unsigned long long)ev(0)->time_usec);
    tactile_router_destroy(r);
}

static void check_touch_owned_for_life(void)
{
    tactile_router *r = desk();
    tactile_node w = add(r, 0, ALICE, 100, 100, 100, 100, 0, &marks[0]);
    add(r, 0, BOB, 300, 300, 100, 100, 0, &marks[1]);
    touch_down(r, 1, 150, 150, 1000);
    forget_seen();
    touch_motion(r, 1, 350, 50, 2000);
    EXPECT_TYPES(TACTILE_EVENT_TOUCH_MOTION, TACTILE_EVENT_TOUCH_FRAME);
    EXPECT(ev(0)->client == ALICE && ev(0)->surface == w && ev(0)->x == 250 && ev(0)->y == -50,
           "motion to client %llu at %g,%g", (unsigned long long)ev(0)->client, ev(0)->x, ev(0)->y);
    forget_seen();
    touch_motion(r, 1, 350, 350, 3000); /* over bob's surface now: still alice's touch */
    EXPECT_TYPES(TACTILE_EVENT_TOUCH_MOTION, TACTILE_EVENT_TOUCH_FRAME);
    EXPECT(ev(0)->client == ALICE && ev(0)->x == 250 && ev(0)->y == 250, "motion over bob to client %llu at %g,%g",
           (unsigned long long)ev(0)->client, ev(0)->x, ev(0)->y);
    forget_seen();
    touch_up(r, 1, 4000);
    EXPECT_TYPES(TACTILE_EVENT_TOUCH_UP, TACTILE_EVENT_TOUCH_FRAME);
    EXPECT(ev(0)->client == ALICE, "up to client %llu", (unsigned long long)ev(0)->client);
    tactile_router_destroy(r);
}

static void check_moved_owner_hears_new_position(void)
{
    tactile_router *r = desk();
    tactile_node w = add(r, 0, ALICE, 0, 0, 500, 500, 0, &marks[0]);
    touch_down(r, 1, 10, 10, 4000);
    forget_seen();
    EXPECT_OK(tactile_node_set_geometry(r, w, 100, 100, 500, 500));
    EXPECT(seen.event_count >= 1 && ev(0)->type == TACTILE_EVENT_TOUCH_MOTION && ev(0)->x == -90 && ev(0)->y == -90,
           "delivered [%s] (first at %g,%g), expected a motion to -90,-90", types_seen(),
           seen.event_count ? ev(0)->x : 0, seen.event_count ? ev(0)->y : 0);
    tactile_router_destroy(r);
}

static void check_subsurface_stacking(void)
{
    tactile_router *r = desk();
    tactile_node parent = add(r, 0, ALICE, 100, 100, 200, 200, 0, &marks[0]);
    tactile_node above = add(r, parent, ALICE, 0, 0, 50, 50, 0, &marks[1]);
    tactile_node below = add(r, parent, ALICE, 150, 150, 100, 100, 0, &marks[2]);
    EXPECT_HIT(r, 110, 110, above);
    EXPECT_HIT(r, 260, 260, below); /* added on top: above the parent's content */
    EXPECT_OK(tactile_node_restack(r, below, TACTILE_STACK_BELOW, parent));
    EXPECT_HIT(r, 260, 260, parent);
    EXPECT_HIT(r, 320, 320, below); /* outside the parent, the subsurface below still takes it */
    double lx = 0, ly = 0;
    tactile_node node = 0;
    EXPECT_OK(tactile_hit_test(r, 320, 320, &node, &lx, &ly));
    EXPECT(lx == 70 && ly == 70, "local %g,%g, expected 70,70", lx, ly);
    EXPECT_OK(tactile_node_restack(r, below, TACTILE_STACK_ABOVE, parent));
    EXPECT_HIT(r, 260, 260, below);
    /* Bottommost of all the children: below the parent's content too (Responder's
     * StackPosition.bottom), so the parent takes the point. */
    EXPECT_OK(tactile_node_restack(r, above, TACTILE_STACK_BOTTOM, 0));
    EXPECT_HIT(r, 110, 110, parent);
    tactile_router_destroy(r);
}

static void check_input_region(void)
{
    tactile_router *r = desk();
    tactile_node back = add(r, 0, BOB, 0, 0, 1000, 1000, 0, &marks[0]);
    tactile_node s = add(r, 0, ALICE, 0, 0, 200, 200, 0, &marks[1]);
    const struct tactile_rect rects[] = {{0, 0, 50, 50}, {100, 100, 50, 50}};
    EXPECT_OK(tactile_node_set_input_region(r, s, rects, 2, 0));
    EXPECT_HIT(r, 10, 10, s);
    EXPECT_HIT(r, 70, 70, back);
    EXPECT_HIT(r, 149.75, 149.75, s);
    EXPECT_HIT(r, 150, 150, back); /* half-open */
    EXPECT_OK(tactile_node_set_input_region(r, s, NULL, 0, 0));
    EXPECT_HIT(r, 10, 10, back);
    EXPECT_OK(tactile_node_set_input_region(r, s, NULL, 0, 1));
    EXPECT_HIT(r, 70, 70, s);
    EXPECT_HIT(r, 250, 250, back); /* an infinite region is still the node's size */
    /* tactile_node_update keeps the region. */
    EXPECT_OK(tactile_node_set_input_region(r, s, rects, 1, 0));
    struct tactile_node_desc d = {ALICE, 0, 0, 200, 200, TACTILE_NODE_MAPPED, 1.0, &marks[1]};
    EXPECT_OK(tactile_node_update(r, s, &d));
    EXPECT_HIT(r, 70, 70, back);
    tactile_router_destroy(r);
}

/* A parent with a child over a background: each way of taking a subtree out of the hit test. */
static void check_skipped_subtrees(void)
{
    static const struct {
        const char *how;
        uint32_t flags;
        double alpha;
    } ways[] = {
        {"hidden", TACTILE_NODE_MAPPED | TACTILE_NODE_HIDDEN, 1.0},
        {"no input", TACTILE_NODE_MAPPED | TACTILE_NODE_NO_INPUT, 1.0},
        {"alpha 0.009", TACTILE_NODE_MAPPED, 0.009},
        {"unmapped", 0, 1.0},
    };
    for (size_t i = 0; i < sizeof ways / sizeof ways[0]; i++) {
        tactile_router *r = desk();
        tactile_node back = add(r, 0, BOB, 0, 0, 1000, 1000, 0, &marks[0]);
        tactile_node parent = add(r, 0, ALICE, 100, 100, 100, 100, 0, &marks[1]);
        tactile_node child = add(r, parent, ALICE, 50, 50, 20, 20, 0, &marks[2]);
        EXPECT_HIT(r, 110, 110, parent);
        EXPECT_HIT(r, 160, 160, child);
        struct tactile_node_desc d = {ALICE, 100, 100, 100, 100, ways[i].flags, ways[i].alpha, &marks[1]};
        EXPECT_OK(tactile_node_update(r, parent, &d));
        EXPECT(hit(r, 110, 110) == back && hit(r, 160, 160) == back, "%s: the subtree is still hit", ways[i].how);
        d.flags = TACTILE_NODE_MAPPED;
        d.alpha = 0.5;
        EXPECT_OK(tactile_node_update(r, parent, &d));
        EXPECT(hit(r, 160, 160) == child, "%s undone: the child is not hit", ways[i].how);
        tactile_router_destroy(r);
    }
}

static void check_compositor_node_clips(void)
{
    tactile_router *r = desk();
    struct tactile_node_desc d = {0, 100, 100, 100, 100, TACTILE_NODE_MAPPED, 1.0, NULL};
    tactile_node group = 0;
    EXPECT_OK(tactile_node_add(r, tactile_router_root(r), &d, &group));
    tactile_node s = add(r, group, ALICE, 50, 50, 100, 100, 0, &marks[0]);
    EXPECT_HIT(r, 120, 120, 0); /* a compositor node is hit nowhere */
    EXPECT_HIT(r, 170, 170, s);
    EXPECT_HIT(r, 220, 220, s);
    d.flags |= TACTILE_NODE_CLIPS;
    EXPECT_OK(tactile_node_update(r, group, &d));
    EXPECT_HIT(r, 170, 170, s);
    EXPECT_HIT(r, 220, 220, 0);
    tactile_router_destroy(r);
}

/* The swipe of GestureArbitrationTests.aWinningEdgeSwipeCancelsTheClientThatSawItsTouch. */
static void swipe_from_left(tactile_router *r)
{
    touch_down(r, 1, 5, 100, 1000);
    touch_motion(r, 1, 40, 100, 2000);
    touch_motion(r, 1, 90, 100, 3000);
    touch_motion(r, 1, 200, 100, 4000);
    touch_up(r, 1, 5000);
}

static int gesture_states_include(tactile_gesture_state a, tactile_gesture_state b)
{
    int i = 0;
    while (i < seen.gesture_count && seen.gestures[i].e.state != a) i++;
    while (i < seen.gesture_count && seen.gestures[i].e.state != b) i++;
    return i < seen.gesture_count;
}

static const char *gesture_states_seen(void)
{
    static char text[256];
    size_t n = 0;
    text[0] = 0;
    for (int i = 0; i < seen.gesture_count && n < sizeof text - 16; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s%s:%d", i ? "," : "", seen.gestures[i].name,
                              (int)seen.gestures[i].e.state);
    return text;
}

static void check_gesture_desc_init(void)
{
    struct tactile_gesture_desc d;
    EXPECT_OK(tactile_gesture_desc_init(&d, TACTILE_GESTURE_EDGE_SWIPE));
    EXPECT(d.kind == TACTILE_GESTURE_EDGE_SWIPE && d.name == NULL, "kind %d name %p", (int)d.kind, (const void *)d.name);
    EXPECT(d.start_band == 24 && d.distance == 80, "edge swipe start_band %g distance %g, expected 24, 80", d.start_band,
           d.distance);
    EXPECT(d.cancels_touches_in_view && !d.delays_touches_began && d.delays_touches_ended,
           "options %d %d %d, expected UIKit's 1 0 1", d.cancels_touches_in_view, d.delays_touches_began,
           d.delays_touches_ended);
    EXPECT_OK(tactile_gesture_desc_init(&d, TACTILE_GESTURE_LONG_PRESS));
    EXPECT(d.duration_ms == 500 && d.slop == 10, "long press duration %u slop %g, expected 500, 10", d.duration_ms,
           d.slop);
    EXPECT_OK(tactile_gesture_desc_init(&d, TACTILE_GESTURE_SWIPE));
    EXPECT(d.fingers == 3 && d.distance == 100 && d.gather_time_ms == 150, "swipe fingers %d distance %g gather %u",
           d.fingers, d.distance, d.gather_time_ms);
    EXPECT_OK(tactile_gesture_desc_init(&d, TACTILE_GESTURE_TAP));
    EXPECT(d.taps == 1 && d.interval_ms == 300 && d.max_duration_ms == 300 && d.max_distance == 40,
           "tap taps %d interval %u max duration %u max distance %g", d.taps, d.interval_ms, d.max_duration_ms,
           d.max_distance);
    EXPECT_STATUS(tactile_gesture_desc_init(&d, (tactile_gesture_kind)99), TACTILE_ERROR_INVALID);
    EXPECT_STATUS(tactile_gesture_desc_init(NULL, TACTILE_GESTURE_TAP), TACTILE_ERROR_INVALID);
}

static void check_edge_swipe_from_desc(void)
{
    tactile_router *r = desk();
    add(r, 0, ALICE, 0, 0, 500, 500, 0, &marks[0]);
    struct tactile_gesture_desc d;
    EXPECT_OK(tactile_gesture_desc_init(&d, TACTILE_GESTURE_EDGE_SWIPE));
    char name[] = "back";
    d.name = name;
    d.edge = TACTILE_EDGE_LEFT;
    tactile_gesture g = 0;
    EXPECT_OK(tactile_gesture_add(r, &d, &g));
    EXPECT(g != 0, "tactile_gesture_add named it 0");
    name[0] = 'X'; /* "copied": the library must not keep the caller's string */
    touch_down(r, 1, 5, 100, 1000);
    touch_motion(r, 1, 40, 100, 2000);
    EXPECT_TYPES(TACTILE_EVENT_TOUCH_DOWN, TACTILE_EVENT_TOUCH_FRAME, TACTILE_EVENT_TOUCH_MOTION,
                 TACTILE_EVENT_TOUCH_FRAME);
    forget_seen();
    touch_motion(r, 1, 90, 100, 3000);
    EXPECT_TYPES(TACTILE_EVENT_TOUCH_CANCEL);
    EXPECT(ev(0)->client == ALICE, "cancel to client %llu", (unsigned long long)ev(0)->client);
    EXPECT(seen.gesture_count >= 1 && seen.gestures[0].e.state == TACTILE_GESTURE_BEGAN,
           "gesture events [%s], expected BEGAN", gesture_states_seen());
    const struct seen_gesture *began = &seen.gestures[0];
    EXPECT(began->e.gesture == g && strcmp(began->name, "back") == 0 && !began->has_command && !began->has_when,
           "began: gesture %u name \"%s\" command %s when %s", began->e.gesture, began->name,
           began->has_command ? began->command : "NULL", began->has_when ? began->when : "NULL");
    EXPECT(began->e.time_usec == 3000 && began->e.x == 90 && began->e.y == 100 && began->e.count == 1,
           "began at time %llu, %g,%g, count %d", (unsigned long long)began->e.time_usec, began->e.x, began->e.y,
           began->e.count);
    forget_seen();
    touch_motion(r, 1, 200, 100, 4000);
    touch_up(r, 1, 5000);
    EXPECT_NO_EVENTS();
    EXPECT(gesture_states_include(TACTILE_GESTURE_CHANGED, TACTILE_GESTURE_ENDED), "gesture events [%s], expected CHANGED, ENDED",
           gesture_states_seen());
    EXPECT(seen.gestures[seen.gesture_count - 1].e.dx == 195, "ended with dx %g, expected 195",
           seen.gestures[seen.gesture_count - 1].e.dx);
    tactile_router_destroy(r);
}

static void check_edge_swipe_from_yaml(void)
{
    tactile_router *r = desk();
    add(r, 0, ALICE, 0, 0, 500, 500, 0, &marks[0]);
    static const char yaml[] = "trace: false\n"
                               "gestures:\n"
                               "  - name: back\n"
                               "    kind: edge-swipe\n"
                               "    edge: left\n"
                               "    run: echo back\n"
                               "    when: ended\n";
    EXPECT_OK(tactile_gestures_load_yaml(r, yaml, strlen(yaml), "test.yaml"));
    swipe_from_left(r);
    int cancels = 0;
    for (int i = 0; i < seen.event_count; i++) cancels += ev(i)->type == TACTILE_EVENT_TOUCH_CANCEL;
    EXPECT(cancels == 1, "delivered [%s], expected one cancel", types_seen());
    EXPECT(gesture_states_include(TACTILE_GESTURE_BEGAN, TACTILE_GESTURE_ENDED), "gesture events [%s], expected BEGAN, ENDED",
           gesture_states_seen());
    for (int i = 0; i < seen.gesture_count; i++) {
        const struct seen_gesture *e = &seen.gestures[i];
        EXPECT(strcmp(e->name, "back") == 0 && e->has_command && strcmp(e->command, "echo back") == 0 && e->has_when &&
                   strcmp(e->when, "ended") == 0,
               "event %d: name \"%s\" command \"%s\" when \"%s\"", i, e->name, e->command, e->when);
    }
    tactile_router_destroy(r);
}

/* GestureArbitrationTests.aGestureThatRequiresAnotherToFailWaitsForIt, through the C calls. */
static void check_require_failure(void)
{
    tactile_router *r = desk();
    add(r, 0, ALICE, 0, 0, 500, 500, 0, &marks[0]);
    struct tactile_gesture_desc d;
    tactile_gesture_desc_init(&d, TACTILE_GESTURE_TAP);
    d.name = "single";
    tactile_gesture single = 0, twice = 0;
    EXPECT_OK(tactile_gesture_add(r, &d, &single));
    d.name = "double";
    d.taps = 2;
    EXPECT_OK(tactile_gesture_add(r, &d, &twice));
    EXPECT_OK(tactile_gesture_require_failure(r, single, twice));
    EXPECT(tactile_gesture_require_failure(r, single, 999) != TACTILE_OK, "a made-up gesture was accepted");
    touch_down(r, 1, 100, 100, 0);
    touch_up(r, 1, 50000);
    EXPECT(seen.gesture_count == 0, "decided before the double tap failed: [%s]", gesture_states_seen());
    EXPECT(tactile_next_deadline(r) == 350000, "deadline %llu, expected 350000",
           (unsigned long long)tactile_next_deadline(r));
    forget_seen();
    EXPECT_OK(tactile_fire_deadlines(r, 350000));
    EXPECT_TYPES(TACTILE_EVENT_TOUCH_CANCEL);
    EXPECT(seen.gesture_count == 2 && strcmp(seen.gestures[0].name, "double") == 0 &&
               seen.gestures[0].e.state == TACTILE_GESTURE_FAILED && strcmp(seen.gestures[1].name, "single") == 0 &&
               seen.gestures[1].e.state == TACTILE_GESTURE_RECOGNIZED,
           "gesture events [%s], expected double FAILED, single RECOGNIZED", gesture_states_seen());
    tactile_router_destroy(r);
}

/* GestureArbitrationTests.simultaneousRecognizersBothWin: undeclared, the first to begin fails
 * the other; declared, both run on the same touch. */
static void check_simultaneous(void)
{
    for (int declared = 0; declared < 2; declared++) {
        tactile_router *r = desk();
        add(r, 0, ALICE, 0, 0, 500, 500, 0, &marks[0]);
        struct tactile_gesture_desc d;
        tactile_gesture swipe = 0, press = 0;
        tactile_gesture_desc_init(&d, TACTILE_GESTURE_EDGE_SWIPE);
        d.name = "swipe";
        d.cancels_touches_in_view = 0;
        EXPECT_OK(tactile_gesture_add(r, &d, &swipe));
        tactile_gesture_desc_init(&d, TACTILE_GESTURE_LONG_PRESS);
        d.name = "press";
        d.cancels_touches_in_view = 0;
        EXPECT_OK(tactile_gesture_add(r, &d, &press));
        if (declared) EXPECT_OK(tactile_gesture_recognize_simultaneously(r, swipe, press));
        touch_down(r, 1, 5, 100, 0);
        EXPECT_OK(tactile_fire_deadlines(r, 500000));
        touch_motion(r, 1, 100, 100, 600000);
        int swipe_began = 0, swipe_failed = 0;
        for (int i = 0; i < seen.gesture_count; i++) {
            if (strcmp(seen.gestures[i].name, "swipe") != 0) continue;
            swipe_began |= seen.gestures[i].e.state == TACTILE_GESTURE_BEGAN;
            swipe_failed |= seen.gestures[i].e.state == TACTILE_GESTURE_FAILED;
        }
        EXPECT(declared ? swipe_began : swipe_failed && !swipe_began, "%s: gesture events [%s]",
               declared ? "declared" : "undeclared", gesture_states_seen());
        forget_seen();
        tactile_router_destroy(r);
    }
}

static void check_yaml_mistake(void)
{
    tactile_router *r = desk();
    add(r, 0, ALICE, 0, 0, 500, 500, 0, &marks[0]);
    /* The first gesture is right, the second has a misspelt key: nothing may be added. */
    static const char yaml[] = "gestures:\n"
                               "  - name: back\n"
                               "    kind: edge-swipe\n"
                               "    edge: left\n"
                               "  - name: forward\n"
                               "    kind: edge-swipe\n"
                               "    edge: right\n"
                               "    distanse: 80\n";
    EXPECT_STATUS(tactile_gestures_load_yaml(r, yaml, strlen(yaml), "kiosk.yaml"), TACTILE_ERROR_CONFIGURATION);
    const char *message = tactile_router_error(r);
    EXPECT(strstr(message, "kiosk.yaml:8:5") && strstr(message, "distanse"),
           "message \"%s\", expected kiosk.yaml:8:5 and the key", message);
    swipe_from_left(r);
    EXPECT(seen.gesture_count == 0, "a gesture of a rejected file ran: [%s]", gesture_states_seen());
    for (int i = 0; i < seen.event_count; i++)
        EXPECT(ev(i)->type != TACTILE_EVENT_TOUCH_CANCEL, "a gesture of a rejected file cancelled the touch");
    static const char broken[] = "gestures:\n  - name: [unclosed\n";
    EXPECT_STATUS(tactile_gestures_load_yaml(r, broken, strlen(broken), "broken.yaml"), TACTILE_ERROR_CONFIGURATION);
    EXPECT(strstr(tactile_router_error(r), "broken.yaml:"), "message \"%s\" does not name the file",
           tactile_router_error(r));
    /* A gesture's unknown kind, and a name given twice. */
    static const char twice[] = "gestures:\n  - name: a\n    kind: tap\n  - name: a\n    kind: tap\n";
    EXPECT_STATUS(tactile_gestures_load_yaml(r, twice, strlen(twice), "t.yaml"), TACTILE_ERROR_CONFIGURATION);
    tactile_router_destroy(r);
}

static void check_pointer(void)
{
    tactile_router *r = desk();
    tactile_node w = add(r, 0, ALICE, 100, 100, 200, 200, 0, &marks[0]);
    EXPECT_OK(tactile_pointer_motion(r, 150, 160, 1000));
    EXPECT_TYPES(TACTILE_EVENT_POINTER_ENTER, TACTILE_EVENT_POINTER_FRAME);
    EXPECT(ev(0)->surface == w && ev(0)->surface_data == &marks[0] && ev(0)->x == 50 && ev(0)->y == 60,
           "enter surface %llu at %g,%g", (unsigned long long)ev(0)->surface, ev(0)->x, ev(0)->y);
    forget_seen();
    EXPECT_OK(tactile_pointer_motion(r, 151, 160.5, 2000));
    EXPECT_TYPES(TACTILE_EVENT_POINTER_MOTION, TACTILE_EVENT_POINTER_FRAME);
    EXPECT(ev(0)->x == 51 && ev(0)->y == 60.5 && ev(0)->time_usec == 2000, "motion at %g,%g time %llu", ev(0)->x,
           ev(0)->y, (unsigned long long)ev(0)->time_usec);
    forget_seen();
    EXPECT_OK(tactile_pointer_button(r, BTN_LEFT, 1, 3000));
    EXPECT_TYPES(TACTILE_EVENT_POINTER_BUTTON, TACTILE_EVENT_POINTER_FRAME);
    EXPECT(ev(0)->code == BTN_LEFT && ev(0)->pressed && ev(0)->time_usec == 3000, "button %u pressed %d",
           ev(0)->code, ev(0)->pressed);
    forget_seen();
    EXPECT_OK(tactile_pointer_button(r, BTN_LEFT, 0, 4000));
    EXPECT_TYPES(TACTILE_EVENT_POINTER_BUTTON, TACTILE_EVENT_POINTER_FRAME);
    EXPECT(!ev(0)->pressed, "release delivered as pressed");
    forget_seen();
    struct tactile_axis axis = {TACTILE_AXIS_SOURCE_WHEEL, 0, 15, 0, 120, 0, 0};
    EXPECT_OK(tactile_pointer_axis(r, &axis, 5000));
    EXPECT(seen.event_count >= 1 && ev(0)->type == TACTILE_EVENT_POINTER_AXIS && ev(0)->axis.vertical == 15 &&
               ev(0)->axis.vertical_value120 == 120 && ev(0)->time_usec == 5000,
           "axis delivered [%s]", types_seen());
    EXPECT(ev(seen.event_count - 1)->type == TACTILE_EVENT_POINTER_FRAME, "axis not followed by a frame: [%s]",
           types_seen());
    forget_seen();
    EXPECT_OK(tactile_pointer_motion(r, 500, 500, 6000));
    EXPECT_TYPES(TACTILE_EVENT_POINTER_LEAVE, TACTILE_EVENT_POINTER_FRAME);
    EXPECT(ev(0)->surface == w, "leave names surface %llu", (unsigned long long)ev(0)->surface);
    EXPECT_STATUS(tactile_pointer_axis(r, NULL, 7000), TACTILE_ERROR_INVALID);
    tactile_router_destroy(r);
}

/* "The pointer re-enters whatever is under it now" when the scene changes under it. */
static void check_pointer_follows_scene(void)
{
    tactile_router *r = desk();
    tactile_node w = add(r, 0, ALICE, 100, 100, 200, 200, 0, &marks[0]);
    EXPECT_OK(tactile_pointer_motion(r, 150, 160, 1000));
    forget_seen();
    EXPECT_OK(tactile_node_set_geometry(r, w, 600, 600, 200, 200));
    EXPECT_TYPES(TACTILE_EVENT_POINTER_LEAVE, TACTILE_EVENT_POINTER_FRAME);
    forget_seen();
    EXPECT_OK(tactile_node_set_geometry(r, w, 140, 150, 200, 200));
    EXPECT_TYPES(TACTILE_EVENT_POINTER_ENTER, TACTILE_EVENT_POINTER_FRAME);
    EXPECT(ev(0)->surface == w && ev(0)->x == 10 && ev(0)->y == 10, "re-entered %llu at %g,%g, expected 10,10",
           (unsigned long long)ev(0)->surface, ev(0)->x, ev(0)->y);
    tactile_router_destroy(r);
}

static void check_keyboard_focus(void)
{
    tactile_router *r = desk();
    tactile_node a = add(r, 0, ALICE, 0, 0, 200, 200, TACTILE_NODE_TOPLEVEL, &marks[0]);
    tactile_node sub = add(r, a, ALICE, 10, 10, 50, 50, 0, &marks[1]);
    tactile_node b = add(r, 0, BOB, 300, 0, 100, 100, TACTILE_NODE_TOPLEVEL, &marks[2]);
    touch_down(r, 1, 20, 20, 1000);
    EXPECT_TYPES(TACTILE_EVENT_KEYBOARD_ENTER, TACTILE_EVENT_TOUCH_DOWN, TACTILE_EVENT_TOUCH_FRAME);
    EXPECT(ev(0)->surface == a && ev(0)->surface_data == &marks[0] && ev(0)->key_count == 0,
           "enter on surface %llu with %zu keys, expected the toplevel", (unsigned long long)ev(0)->surface,
           ev(0)->key_count);
    EXPECT(ev(1)->surface == sub, "down on %llu, expected the subsurface", (unsigned long long)ev(1)->surface);
    forget_seen();
    EXPECT_OK(tactile_key(r, KEY_A, 1, 2000));
    EXPECT_TYPES(TACTILE_EVENT_KEY);
    EXPECT(ev(0)->client == ALICE && ev(0)->code == KEY_A && ev(0)->pressed, "key to %llu code %u",
           (unsigned long long)ev(0)->client, ev(0)->code);
    forget_seen();
    touch_down(r, 2, 310, 10, 3000);
    EXPECT(seen.event_count >= 2 && ev(0)->type == TACTILE_EVENT_KEYBOARD_LEAVE && ev(0)->surface == a &&
               ev(1)->type == TACTILE_EVENT_KEYBOARD_ENTER && ev(1)->surface == b,
           "delivered [%s], expected leave from alice, enter on bob", types_seen());
    EXPECT(ev(1)->key_count == 1 && seen.events[1].keys[0] == KEY_A, "enter carries %zu keys, expected KEY_A",
           ev(1)->key_count);
    forget_seen();
    EXPECT_OK(tactile_key(r, KEY_A, 0, 4000));
    EXPECT(seen.event_count == 1 && ev(0)->client == BOB && !ev(0)->pressed, "release delivered [%s]", types_seen());
    EXPECT_STATUS(tactile_key(r, KEY_A, 0, 5000), TACTILE_ERROR_IGNORED);
    tactile_router_destroy(r);
}

static void check_removed_surface_ends_touch(void)
{
    tactile_router *r = desk();
    add(r, 0, BOB, 0, 0, 400, 400, 0, &marks[0]);
    tactile_node w = add(r, 0, ALICE, 0, 0, 400, 400, 0, &marks[1]);
    touch_down(r, 1, 10, 10, 5000);
    forget_seen();
    EXPECT_OK(tactile_node_remove(r, w));
    EXPECT_TYPES(TACTILE_EVENT_TOUCH_UP, TACTILE_EVENT_TOUCH_FRAME);
    EXPECT(ev(0)->client == ALICE && ev(0)->touch_id == 1 && ev(1)->client == ALICE, "up to client %llu id %d",
           (unsigned long long)ev(0)->client, ev(0)->touch_id);
    forget_seen();
    touch_motion(r, 1, 20, 20, 6000);
    touch_up(r, 1, 7000);
    EXPECT_NO_EVENTS();
    EXPECT(tactile_node_user_data(r, w) == NULL, "a removed node still has user_data");
    EXPECT_STATUS(tactile_node_set_geometry(r, w, 0, 0, 1, 1), TACTILE_ERROR_NO_NODE);
    EXPECT_STATUS(tactile_node_remove(r, w), TACTILE_ERROR_NO_NODE);
    tactile_router_destroy(r);
}

/* libinput's touch cancel becomes wl_touch.cancel for the client, once, with no frame. */
static void check_device_cancel(void)
{
    tactile_router *r = desk();
    add(r, 0, ALICE, 0, 0, 100, 100, 0, &marks[0]);
    touch_down(r, 1, 10, 10, 1000);
    forget_seen();
    EXPECT_OK(tactile_touch_cancel(r, 1, 2000));
    tactile_touch_frame(r);
    EXPECT_TYPES(TACTILE_EVENT_TOUCH_CANCEL);
    EXPECT(ev(0)->client == ALICE, "cancel to client %llu", (unsigned long long)ev(0)->client);
    forget_seen();
    EXPECT_STATUS(tactile_touch_up(r, 1, 3000), TACTILE_ERROR_IGNORED);
    EXPECT_NO_EVENTS();
    tactile_router_destroy(r);
}

static void check_node_handles(void)
{
    tactile_router *r = desk();
    tactile_node root = tactile_router_root(r);
    EXPECT(root != 0, "the root is node 0");
    tactile_node a = add(r, 0, ALICE, 0, 0, 10, 10, 0, &marks[0]);
    tactile_node child = add(r, a, ALICE, 0, 0, 5, 5, 0, &marks[1]);
    EXPECT(tactile_node_user_data(r, a) == &marks[0], "user_data not handed back");
    EXPECT_OK(tactile_node_remove(r, a));
    EXPECT(tactile_node_user_data(r, child) == NULL, "the subtree outlived its removed parent");
    /* Slots are reused, handles never: a later node must not answer to the old number. */
    for (int i = 0; i < 8; i++) {
        tactile_node n = add(r, 0, ALICE, 0, 0, 10, 10, 0, &marks[2]);
        EXPECT(n != 0 && n != a && n != child, "a new node reuses the removed node's number %llu", (unsigned long long)n);
    }
    EXPECT_STATUS(tactile_node_set_geometry(r, a, 0, 0, 1, 1), TACTILE_ERROR_NO_NODE);
    EXPECT_STATUS(tactile_node_remove(r, 0), TACTILE_ERROR_NO_NODE);
    EXPECT(tactile_node_remove(r, root) != TACTILE_OK, "the root was removed");
    EXPECT(tactile_router_root(r) == root && tactile_node_set_geometry(r, root, 0, 0, 1000, 1000) == TACTILE_OK,
           "the root is gone after a refused removal");
    tactile_router_destroy(r);
}

static void check_cycles_refused(void)
{
    tactile_router *r = desk();
    tactile_node a = add(r, 0, ALICE, 0, 0, 100, 100, 0, &marks[0]);
    tactile_node b = add(r, a, ALICE, 0, 0, 50, 50, 0, &marks[1]);
    tactile_node c = add(r, b, ALICE, 0, 0, 20, 20, 0, &marks[2]);
    EXPECT_STATUS(tactile_node_reparent(r, a, c), TACTILE_ERROR_INVALID);
    EXPECT_STATUS(tactile_node_reparent(r, a, a), TACTILE_ERROR_INVALID);
    EXPECT_STATUS(tactile_node_reparent(r, tactile_router_root(r), a), TACTILE_ERROR_INVALID);
    EXPECT_HIT(r, 10, 10, c); /* the tree is as it was */
    EXPECT_OK(tactile_node_reparent(r, c, tactile_router_root(r)));
    EXPECT_OK(tactile_node_reparent(r, a, c));
    EXPECT_HIT(r, 10, 10, b);
    tactile_router_destroy(r);
}

static void check_bad_arguments(void)
{
    tactile_router *r = desk();
    tactile_node node = 0, w = add(r, 0, ALICE, 0, 0, 100, 100, 0, &marks[0]);
    struct tactile_node_desc d = {ALICE, 0, 0, -5, 10, TACTILE_NODE_MAPPED, 1.0, NULL};
    EXPECT_STATUS(tactile_node_add(r, tactile_router_root(r), &d, &node), TACTILE_ERROR_INVALID);
    EXPECT_STATUS(tactile_node_add(r, tactile_router_root(r), NULL, &node), TACTILE_ERROR_INVALID);
    d.width = 5;
    d.alpha = NAN;
    EXPECT_STATUS(tactile_node_add(r, tactile_router_root(r), &d, &node), TACTILE_ERROR_INVALID);
    EXPECT_STATUS(tactile_node_set_geometry(r, w, 0, 0, 10, -1), TACTILE_ERROR_INVALID);
    EXPECT_STATUS(tactile_hit_test(r, NAN, 1, &node, NULL, NULL), TACTILE_ERROR_INVALID);
    EXPECT_STATUS(tactile_hit_test(r, 1, INFINITY, &node, NULL, NULL), TACTILE_ERROR_INVALID);
    EXPECT_STATUS(tactile_hit_test(r, 1, 1, NULL, NULL, NULL), TACTILE_ERROR_INVALID);
    EXPECT_STATUS(tactile_touch_down(r, 1, -INFINITY, 1, 1), TACTILE_ERROR_INVALID);
    EXPECT_STATUS(tactile_pointer_motion(r, NAN, 1, 1), TACTILE_ERROR_INVALID);
    EXPECT_STATUS(tactile_node_restack(r, w, (tactile_stack)7, 0), TACTILE_ERROR_INVALID);
    const struct tactile_rect bad[] = {{0, 0, -1, 5}};
    EXPECT_STATUS(tactile_node_set_input_region(r, w, bad, 1, 0), TACTILE_ERROR_INVALID);
    EXPECT_STATUS(tactile_node_set_input_region(r, w, NULL, 3, 0), TACTILE_ERROR_INVALID);
    struct tactile_axis axis = {(tactile_axis_source)9, 0, 1, 0, 0, 0, 0};
    EXPECT_STATUS(tactile_pointer_axis(r, &axis, 1), TACTILE_ERROR_INVALID);
    struct tactile_gesture_desc g;
    tactile_gesture_desc_init(&g, TACTILE_GESTURE_EDGE_SWIPE);
    g.edge = (tactile_edge)17;
    EXPECT_STATUS(tactile_gesture_add(r, &g, NULL), TACTILE_ERROR_INVALID);
    EXPECT_STATUS(tactile_gesture_add(r, NULL, NULL), TACTILE_ERROR_INVALID);
    EXPECT_STATUS(tactile_gestures_load_yaml(r, NULL, 4, "x"), TACTILE_ERROR_INVALID);
    EXPECT(strlen(tactile_router_error(r)) > 0, "a failure left no message");
    /* Input devices do odd things: those are IGNORED, not INVALID. */
    EXPECT_STATUS(tactile_touch_motion(r, 42, 1, 1, 1), TACTILE_ERROR_IGNORED);
    EXPECT_STATUS(tactile_touch_up(r, 42, 1), TACTILE_ERROR_IGNORED);
    EXPECT_OK(tactile_touch_down(r, 3, 10, 10, 2));
    EXPECT_STATUS(tactile_touch_down(r, 3, 20, 20, 3), TACTILE_ERROR_IGNORED);
    tactile_router_destroy(r);
}

static void check_null_and_destroyed_router(void)
{
    tactile_node node;
    EXPECT_STATUS(tactile_hit_test(NULL, 1, 1, &node, NULL, NULL), TACTILE_ERROR_NO_ROUTER);
    EXPECT_STATUS(tactile_touch_frame(NULL), TACTILE_ERROR_NO_ROUTER);
    EXPECT(tactile_router_error(NULL) != NULL && strlen(tactile_router_error(NULL)) > 0, "no message for NULL");
    EXPECT(tactile_router_root(NULL) == 0 && tactile_next_deadline(NULL) == 0, "a NULL router has a root or deadline");
    tactile_router_destroy(NULL);
    tactile_router *r = desk();
    tactile_router_destroy(r);
    EXPECT_STATUS(tactile_hit_test(r, 1, 1, &node, NULL, NULL), TACTILE_ERROR_NO_ROUTER);
    EXPECT_STATUS(tactile_touch_down(r, 1, 1, 1, 1), TACTILE_ERROR_NO_ROUTER);
    EXPECT(tactile_router_error(r) != NULL && strlen(tactile_router_error(r)) > 0, "no message for a destroyed router");
    tactile_router_destroy(r); /* twice: still a dead handle, not a double free */
    /* A new router may be given the old one's memory: the old handle must not work on it. */
    tactile_router *fresh = tactile_router_create();
    current = fresh;
    EXPECT(fresh != NULL, "tactile_router_create failed");
    if (fresh != r) EXPECT_STATUS(tactile_touch_frame(r), TACTILE_ERROR_NO_ROUTER);
    tactile_router_destroy(fresh);
}

static void check_client_disconnected(void)
{
    tactile_router *r = desk();
    tactile_node a = add(r, 0, ALICE, 0, 0, 100, 100, 0, &marks[0]);
    tactile_node b = add(r, 0, BOB, 200, 0, 100, 100, 0, &marks[1]);
    tactile_node under = add(r, a, ALICE, 10, 10, 10, 10, 0, &marks[2]);
    tactile_touch_down(r, 1, 50, 10, 1000);
    tactile_touch_down(r, 2, 210, 10, 1000);
    tactile_touch_frame(r);
    forget_seen();
    EXPECT_OK(tactile_client_disconnected(r, ALICE));
    EXPECT_NO_EVENTS();
    EXPECT(tactile_node_user_data(r, a) == NULL && tactile_node_user_data(r, under) == NULL,
           "the client's nodes are still in the scene");
    EXPECT_HIT(r, 50, 10, 0);
    tactile_touch_motion(r, 1, 52, 10, 2000);
    tactile_touch_motion(r, 2, 212, 10, 2000);
    tactile_touch_frame(r);
    EXPECT_TYPES(TACTILE_EVENT_TOUCH_MOTION, TACTILE_EVENT_TOUCH_FRAME);
    EXPECT(ev(0)->client == BOB && ev(0)->surface == b && ev(0)->x == 12, "motion to %llu at %g",
           (unsigned long long)ev(0)->client, ev(0)->x);
    tactile_router_destroy(r);
}

static void check_pointer_emulation(void)
{
    tactile_router *r = desk();
    tactile_client_set_capabilities(r, ALICE, TACTILE_CAPABILITY_POINTER);
    tactile_node w = add(r, 0, ALICE, 0, 0, 500, 500, 0, &marks[0]);
    touch_down(r, 1, 5, 100, 1000);
    EXPECT(seen.event_count >= 3 && ev(0)->type == TACTILE_EVENT_POINTER_ENTER && ev(0)->surface == w &&
               ev(0)->x == 5 && ev(0)->y == 100,
           "delivered [%s], expected the pointer to enter at 5,100", types_seen());
    int pressed = 0;
    for (int i = 0; i < seen.event_count; i++)
        pressed |= ev(i)->type == TACTILE_EVENT_POINTER_BUTTON && ev(i)->code == BTN_LEFT && ev(i)->pressed;
    EXPECT(pressed, "no BTN_LEFT press in [%s]", types_seen());
    touch_up(r, 1, 2000);
    forget_seen();
    EXPECT_OK(tactile_router_set_pointer_emulation(r, 0));
    touch_down(r, 2, 50, 100, 3000);
    for (int i = 0; i < seen.event_count; i++)
        EXPECT(ev(i)->type != TACTILE_EVENT_POINTER_BUTTON, "emulation off, still a button: [%s]", types_seen());
    tactile_router_destroy(r);
}

static void check_trace(void)
{
    tactile_router *r = desk();
    add(r, 0, ALICE, 0, 0, 100, 100, 0, &marks[0]);
    touch_down(r, 1, 10, 10, 1000);
    touch_up(r, 1, 2000);
    EXPECT(seen.trace_lines == 0, "%d trace lines without a trace callback", seen.trace_lines);
    EXPECT_OK(tactile_router_set_trace_callback(r, on_trace, NULL));
    touch_down(r, 1, 10, 10, 3000);
    touch_up(r, 1, 4000);
    EXPECT(seen.trace_lines > 0, "no trace line with a trace callback set");
    EXPECT_OK(tactile_router_set_trace_callback(r, NULL, NULL));
    forget_seen();
    touch_down(r, 1, 10, 10, 5000);
    touch_up(r, 1, 6000);
    EXPECT(seen.trace_lines == 0, "%d trace lines after turning the trace off", seen.trace_lines);
    tactile_router_destroy(r);
}

static void check_long_press_deadline(void)
{
    tactile_router *r = desk();
    add(r, 0, ALICE, 0, 0, 500, 500, 0, &marks[0]);
    struct tactile_gesture_desc d;
    tactile_gesture_desc_init(&d, TACTILE_GESTURE_LONG_PRESS);
    d.name = "hold";
    EXPECT_OK(tactile_gesture_add(r, &d, NULL));
    EXPECT(tactile_next_deadline(r) == 0, "a deadline with no touch: %llu", (unsigned long long)tactile_next_deadline(r));
    const uint64_t t0 = 1000000;
    touch_down(r, 1, 100, 100, t0);
    EXPECT(tactile_next_deadline(r) == t0 + 500000, "deadline %llu, expected %llu",
           (unsigned long long)tactile_next_deadline(r), (unsigned long long)(t0 + 500000));
    forget_seen();
    EXPECT_OK(tactile_fire_deadlines(r, t0 + 499999));
    EXPECT(seen.event_count == 0 && seen.gesture_count == 0, "fired early: [%s] [%s]", types_seen(),
           gesture_states_seen());
    EXPECT_OK(tactile_fire_deadlines(r, t0 + 500000));
    EXPECT_TYPES(TACTILE_EVENT_TOUCH_CANCEL);
    EXPECT(seen.gesture_count == 1 && seen.gestures[0].e.state == TACTILE_GESTURE_BEGAN &&
               strcmp(seen.gestures[0].name, "hold") == 0 && seen.gestures[0].e.time_usec == t0 + 500000,
           "gesture events [%s]", gesture_states_seen());
    forget_seen();
    touch_up(r, 1, t0 + 600000);
    EXPECT(gesture_states_include(TACTILE_GESTURE_ENDED, TACTILE_GESTURE_ENDED), "on lift: [%s]", gesture_states_seen());
    EXPECT(tactile_next_deadline(r) == 0, "a deadline left after the press ended");
    tactile_router_destroy(r);
}

/* A callback calling into its router: each of the three callbacks, through different calls. */
static void check_reentry_busy(void)
{
    tactile_router *r = desk();
    tactile_router_set_trace_callback(r, on_trace, NULL);
    add(r, 0, ALICE, 0, 0, 500, 500, 0, &marks[0]);
    struct tactile_gesture_desc d;
    tactile_gesture_desc_init(&d, TACTILE_GESTURE_EDGE_SWIPE);
    d.name = "back";
    tactile_gesture_add(r, &d, NULL);
    probe = PROBE_TRACE;
    seen.reentry_status = -1;
    touch_down(r, 1, 100, 100, 1000);
    EXPECT(seen.reentry_status == TACTILE_ERROR_BUSY, "a call from the trace callback answered %d",
           seen.reentry_status);
    probe = PROBE_EVENT;
    seen.reentry_status = -1;
    touch_motion(r, 1, 110, 100, 2000);
    EXPECT(seen.reentry_status == TACTILE_ERROR_BUSY, "a call from the event callback answered %d",
           seen.reentry_status);
    touch_up(r, 1, 3000);
    probe = PROBE_GESTURE;
    seen.reentry_status = -1;
    touch_down(r, 2, 5, 100, 4000);
    touch_motion(r, 2, 200, 100, 5000);
    EXPECT(seen.reentry_status == TACTILE_ERROR_BUSY, "a call from the gesture callback answered %d",
           seen.reentry_status);
    probe = PROBE_NONE;
    /* The router works on after the refused calls. */
    touch_up(r, 2, 6000);
    forget_seen();
    touch_down(r, 3, 100, 100, 7000);
    EXPECT_TYPES(TACTILE_EVENT_TOUCH_DOWN, TACTILE_EVENT_TOUCH_FRAME);
    tactile_router_destroy(r);
}

/* A pinch whose fingers are as far apart as the header allows (2^40 px from the origin):
 * every number handed to the gesture callback must still be finite; farther is refused. */
static void check_gesture_fields_finite(void)
{
    tactile_router *r = desk();
    struct tactile_gesture_desc d;
    tactile_gesture_desc_init(&d, TACTILE_GESTURE_PINCH);
    d.name = "zoom";
    EXPECT_OK(tactile_gesture_add(r, &d, NULL));
    EXPECT(tactile_touch_down(r, 3, 100, 1e300, 1000) == TACTILE_ERROR_INVALID, "a touch at y 1e300 was taken");
    EXPECT_OK(tactile_touch_down(r, 1, 100, 1099511627776.0, 1000));
    EXPECT_OK(tactile_touch_down(r, 2, 100, -1099511627776.0, 1000));
    tactile_touch_frame(r);
    touch_up(r, 1, 2000);
    touch_up(r, 2, 3000);
    EXPECT(seen.gesture_count > 0, "the pinch said nothing");
    for (int i = 0; i < seen.gesture_count; i++) {
        const struct tactile_gesture_event *e = &seen.gestures[i].e;
        EXPECT(isfinite(e->x) && isfinite(e->y) && isfinite(e->dx) && isfinite(e->dy) && isfinite(e->scale),
               "state %d at %g,%g moved %g,%g scale %g", (int)e->state, e->x, e->y, e->dx, e->dy, e->scale);
    }
    tactile_router_destroy(r);
}

/* "Different routers may be used on different threads at once": each thread makes, uses and
 * destroys routers of its own, while the others do the same. */
enum { THREADS = 4, ROUNDS = 200 };

static void thread_event(void *data, const struct tactile_event *e)
{
    int *downs = data;
    if (e->type == TACTILE_EVENT_TOUCH_DOWN && e->surface_data == (void *)downs) (*downs)++;
}

static void *thread_body(void *arg)
{
    (void)arg;
    int downs = 0;
    for (int round = 0; round < ROUNDS; round++) {
        tactile_router *r = tactile_router_create();
        if (!r) return (void *)"tactile_router_create answered NULL";
        tactile_router_set_event_callback(r, thread_event, &downs);
        tactile_client_set_capabilities(r, ALICE, TACTILE_CAPABILITY_TOUCH);
        struct tactile_node_desc d = {ALICE, 0, 0, 100, 100, TACTILE_NODE_MAPPED, 1.0, &downs};
        tactile_node w;
        if (tactile_node_add(r, tactile_router_root(r), &d, &w) != TACTILE_OK) return (void *)"tactile_node_add failed";
        tactile_touch_down(r, 1, 10, 10, 1000);
        tactile_touch_frame(r);
        tactile_touch_up(r, 1, 2000);
        tactile_touch_frame(r);
        tactile_router_destroy(r);
        if (downs != round + 1) return (void *)"a touch down went missing or to another thread's router";
    }
    return NULL;
}

static void check_routers_on_threads(void)
{
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++) EXPECT(pthread_create(&threads[i], NULL, thread_body, NULL) == 0, "pthread_create");
    const char *why = NULL;
    for (int i = 0; i < THREADS; i++) {
        void *result;
        pthread_join(threads[i], &result);
        if (result && !why) why = result;
    }
    EXPECT(!why, "%s", why);
}

/* Runs over the events of a few checks' worth of traffic: the unlisted-fields promise. */
static void check_unlisted_fields_zero(void)
{
    check_keyboard_focus();
    check_pointer();
    check_edge_swipe_from_desc();
    check_removed_surface_ends_touch();
    failure[0] = 0; /* those checks answer for themselves; only the fields matter here */
    EXPECT(!seen.unlisted[0], "%s", seen.unlisted);
}

/* ---- Touch filters (0.2) ------------------------------------------------------------ */

/* A device's touch, libinput's way: each event its own group. */
static void panel(tactile_router *r, int kind, int32_t id, double x, double y, uint64_t t)
{
    const tactile_device PANEL = 7;
    switch (kind) {
    case TACTILE_EVENT_TOUCH_DOWN: tactile_device_touch_down(r, PANEL, id, x, y, t); break;
    case TACTILE_EVENT_TOUCH_MOTION: tactile_device_touch_motion(r, PANEL, id, x, y, t); break;
    default: tactile_device_touch_up(r, PANEL, id, t); break;
    }
    tactile_device_touch_frame(r, PANEL);
}

/* The bounce of issue 61 (a 40 ms tap, a 15 ms gap, a 60 ms re-touch 2 px away) through a
 * device given debounce from a struct: one down, a motion, and the lift once the window
 * after the last lift has passed, which tactile_next_deadline names. */
static void check_touch_filters_struct(void)
{
    tactile_router *r = desk();
    add(r, 0, ALICE, 0, 0, 500, 500, 0, &marks[0]);
    struct tactile_touch_filters f;
    tactile_touch_filters_init(&f);
    EXPECT(f.debounce_ms == 0 && f.debounce_radius == 24 && f.min_cutoff_hz == 1 && f.beta == 0.02 && f.stuck_after_ms == 30000 &&
               f.dead_zones == NULL && f.smoothing == 0,
           "tactile_touch_filters_init: debounce %u radius %g cutoff %g beta %g stuck %u", f.debounce_ms, f.debounce_radius,
           f.min_cutoff_hz, f.beta, f.stuck_after_ms);
    f.debounce_ms = 50;
    EXPECT_OK(tactile_device_set_touch_filters(r, 7, &f));
    const uint64_t t0 = 1000000;
    panel(r, TACTILE_EVENT_TOUCH_DOWN, 0, 100, 100, t0);
    panel(r, TACTILE_EVENT_TOUCH_UP, 0, 0, 0, t0 + 40000);
    panel(r, TACTILE_EVENT_TOUCH_DOWN, 0, 102, 100, t0 + 55000);
    panel(r, TACTILE_EVENT_TOUCH_UP, 0, 0, 0, t0 + 115000);
    EXPECT_TYPES(TACTILE_EVENT_TOUCH_DOWN, TACTILE_EVENT_TOUCH_FRAME, TACTILE_EVENT_TOUCH_MOTION, TACTILE_EVENT_TOUCH_FRAME);
    EXPECT(ev(2)->x == 102 && ev(2)->touch_id == 0, "the re-touch as motion to %g of touch %d", ev(2)->x, ev(2)->touch_id);
    EXPECT(tactile_next_deadline(r) == t0 + 165000, "deadline %llu, expected the last lift's time + 50 ms",
           (unsigned long long)tactile_next_deadline(r));
    forget_seen();
    EXPECT_OK(tactile_fire_deadlines(r, t0 + 165000));
    EXPECT_TYPES(TACTILE_EVENT_TOUCH_UP, TACTILE_EVENT_TOUCH_FRAME);
    EXPECT(ev(0)->time_usec == t0 + 115000, "the lift keeps its own time, not %llu", (unsigned long long)ev(0)->time_usec);
    /* The plain calls pass no filter: a touch of no device lifts at once. */
    forget_seen();
    touch_down(r, 5, 300, 300, t0 + 200000);
    touch_up(r, 5, t0 + 240000);
    EXPECT_TYPES(TACTILE_EVENT_TOUCH_DOWN, TACTILE_EVENT_TOUCH_FRAME, TACTILE_EVENT_TOUCH_UP, TACTILE_EVENT_TOUCH_FRAME);
    /* Bad values: each refused, the filters in use kept. */
    struct tactile_touch_filters bad = f;
    bad.jitter = -1;
    EXPECT_STATUS(tactile_device_set_touch_filters(r, 7, &bad), TACTILE_ERROR_INVALID);
    bad = f;
    bad.smoothing = 1;
    bad.min_cutoff_hz = 0.0 / 0.0;
    EXPECT_STATUS(tactile_device_set_touch_filters(r, 7, &bad), TACTILE_ERROR_INVALID);
    bad = f;
    bad.dead_zone_count = 3;
    EXPECT_STATUS(tactile_device_set_touch_filters(r, 7, &bad), TACTILE_ERROR_INVALID);
    struct tactile_rect thin = {0, 0, 0, 10};
    bad.dead_zones = &thin;
    bad.dead_zone_count = 1;
    EXPECT_STATUS(tactile_device_set_touch_filters(r, 7, &bad), TACTILE_ERROR_INVALID);
    bad.dead_zone_count = 100000;
    EXPECT_STATUS(tactile_device_set_touch_filters(r, 7, &bad), TACTILE_ERROR_INVALID);
    forget_seen();
    panel(r, TACTILE_EVENT_TOUCH_DOWN, 0, 100, 100, t0 + 300000);
    panel(r, TACTILE_EVENT_TOUCH_UP, 0, 0, 0, t0 + 340000);
    EXPECT_TYPES(TACTILE_EVENT_TOUCH_DOWN, TACTILE_EVENT_TOUCH_FRAME);
    EXPECT_OK(tactile_device_set_touch_filters(r, 7, NULL));
    tactile_router_destroy(r);
}

/* The server's YAML: the devices: entries that match the device's name, the dead zone placed
 * on its output; a mistake names its line and column and changes nothing; the trace says
 * why a touch went nowhere. */
static void check_touch_filters_yaml(void)
{
    tactile_router *r = desk();
    tactile_router_set_trace_callback(r, on_trace, NULL);
    add(r, 0, ALICE, 0, 0, 1000, 1000, 0, &marks[0]);
    static const char yaml[] = "devices:\n"
                               "  - match: eGalax\n"
                               "    dead-zones: [[0, 0, 50, 50]]\n"
                               "    min-contact: 30\n"
                               "  - match: Other\n"
                               "    jitter: 4\n";
    struct tactile_rect output = {500, 0, 500, 500};
    EXPECT_OK(tactile_device_load_touch_filters_yaml(r, 7, "eGalax Inc. USB TouchController", &output, yaml, strlen(yaml), "kiosk.yaml"));
    panel(r, TACTILE_EVENT_TOUCH_DOWN, 0, 520, 20, 1000000);
    panel(r, TACTILE_EVENT_TOUCH_UP, 0, 0, 0, 1100000);
    EXPECT_NO_EVENTS();
    EXPECT(seen.trace_lines == 1, "%d trace lines for a touch in a dead zone, expected one", seen.trace_lines);
    /* min-contact holds the down; a one-frame contact goes nowhere, a longer one arrives. */
    panel(r, TACTILE_EVENT_TOUCH_DOWN, 0, 300, 300, 2000000);
    panel(r, TACTILE_EVENT_TOUCH_UP, 0, 0, 0, 2010000);
    EXPECT_NO_EVENTS();
    panel(r, TACTILE_EVENT_TOUCH_DOWN, 0, 300, 300, 3000000);
    EXPECT_NO_EVENTS();
    EXPECT_OK(tactile_fire_deadlines(r, 3030000));
    EXPECT_TYPES(TACTILE_EVENT_TOUCH_DOWN, TACTILE_EVENT_TOUCH_FRAME);
    EXPECT(ev(0)->time_usec == 3000000, "the down keeps its own time, not %llu", (unsigned long long)ev(0)->time_usec);
    panel(r, TACTILE_EVENT_TOUCH_UP, 0, 0, 0, 3100000);
    static const char wrong[] = "devices:\n  - match: eGalax\n    debounce: 40ms\n";
    EXPECT_STATUS(tactile_device_load_touch_filters_yaml(r, 7, "eGalax", NULL, wrong, strlen(wrong), "kiosk.yaml"), TACTILE_ERROR_CONFIGURATION);
    EXPECT(strstr(tactile_router_error(r), "kiosk.yaml:3:15: devices[0].debounce"), "message \"%s\"", tactile_router_error(r));
    static const char off[] = "devices:\n  - dead-zones: [[900, 0, 50, 50]]\n";
    EXPECT_STATUS(tactile_device_load_touch_filters_yaml(r, 7, "eGalax", &output, off, strlen(off), "kiosk.yaml"), TACTILE_ERROR_CONFIGURATION);
    EXPECT(strstr(tactile_router_error(r), "kiosk.yaml:2:18 devices[0].dead-zones[0]"), "message \"%s\"", tactile_router_error(r));
    forget_seen();
    panel(r, TACTILE_EVENT_TOUCH_DOWN, 0, 520, 20, 4000000);
    EXPECT_NO_EVENTS();
    tactile_router_destroy(r);
}

/* ---- Touch accommodations (0.3) ----------------------------------------------------- */

/* hold-duration from a struct: a quick tap reaches nobody; a press held on arrives when it
 * counts, where the finger is, with a ring to draw until then; a node whose accommodations
 * are off takes touches at once; a plain touch and a device's touch alike. */
static void check_accommodations_struct(void)
{
    tactile_router *r = desk();
    tactile_node w = add(r, 0, ALICE, 0, 0, 500, 500, 0, &marks[0]);
    tactile_node paint = add(r, 0, BOB, 500, 0, 500, 500, 0, &marks[1]);
    struct tactile_accommodations a;
    tactile_accommodations_init(&a);
    EXPECT(a.hold_duration_ms == 0 && a.hold_slop == 24 && a.ignore_repeat_ms == 0 && a.ignore_repeat_radius == 48 &&
               a.tap_assistance == TACTILE_TAP_ASSISTANCE_OFF && a.tap_assistance_delay_ms == 300,
           "tactile_accommodations_init: hold %u slop %g repeat %u radius %g tap %d delay %u", a.hold_duration_ms, a.hold_slop,
           a.ignore_repeat_ms, a.ignore_repeat_radius, a.tap_assistance, a.tap_assistance_delay_ms);
    a.hold_duration_ms = 300;
    EXPECT_OK(tactile_set_accommodations(r, &a));
    const uint64_t t0 = 1000000;
    touch_down(r, 1, 100, 100, t0);
    touch_up(r, 1, t0 + 100000);
    EXPECT_NO_EVENTS();
    EXPECT(tactile_ring_count(r) == 0, "%zu rings after a lift", tactile_ring_count(r));
    panel(r, TACTILE_EVENT_TOUCH_DOWN, 2, 200, 200, t0 + 1000000);
    panel(r, TACTILE_EVENT_TOUCH_MOTION, 2, 204, 200, t0 + 1100000);
    EXPECT_NO_EVENTS();
    struct tactile_ring ring;
    EXPECT(tactile_ring_count(r) == 1, "%zu rings while a hold counts, expected 1", tactile_ring_count(r));
    EXPECT_OK(tactile_get_ring(r, 0, &ring));
    EXPECT(ring.touch == 2 && ring.purpose == TACTILE_RING_HOLD_DURATION && ring.x == 204 && ring.y == 200 &&
               ring.start_usec == t0 + 1000000 && ring.end_usec == t0 + 1300000,
           "ring of touch %d purpose %d at %g,%g from %llu to %llu", ring.touch, ring.purpose, ring.x, ring.y,
           (unsigned long long)ring.start_usec, (unsigned long long)ring.end_usec);
    EXPECT_STATUS(tactile_get_ring(r, 1, &ring), TACTILE_ERROR_INVALID);
    EXPECT(tactile_next_deadline(r) == t0 + 1300000, "deadline %llu, expected the hold's end", (unsigned long long)tactile_next_deadline(r));
    EXPECT_OK(tactile_fire_deadlines(r, t0 + 1300000));
    EXPECT_TYPES(TACTILE_EVENT_TOUCH_DOWN, TACTILE_EVENT_TOUCH_FRAME);
    EXPECT(ev(0)->surface == w && ev(0)->x == 204 && ev(0)->time_usec == t0 + 1300000, "the held down at %g, %llu", ev(0)->x,
           (unsigned long long)ev(0)->time_usec);
    EXPECT(tactile_ring_count(r) == 0, "%zu rings once it counted", tactile_ring_count(r));
    panel(r, TACTILE_EVENT_TOUCH_UP, 2, 0, 0, t0 + 1400000);
    forget_seen();
    EXPECT_OK(tactile_node_set_accommodations(r, paint, 0));
    touch_down(r, 3, 600, 100, t0 + 2000000);
    EXPECT_TYPES(TACTILE_EVENT_TOUCH_DOWN, TACTILE_EVENT_TOUCH_FRAME);
    EXPECT(ev(0)->surface == paint, "the exempt node's touch went to %llu", (unsigned long long)ev(0)->surface);
    touch_up(r, 3, t0 + 2050000);
    EXPECT_STATUS(tactile_node_set_accommodations(r, 999999, 0), TACTILE_ERROR_NO_NODE);
    /* Bad values: each refused, the accommodations in use kept. */
    struct tactile_accommodations bad = a;
    bad.hold_duration_ms = 50;
    EXPECT_STATUS(tactile_set_accommodations(r, &bad), TACTILE_ERROR_INVALID);
    bad = a;
    bad.hold_slop = 0.0 / 0.0;
    EXPECT_STATUS(tactile_set_accommodations(r, &bad), TACTILE_ERROR_INVALID);
    bad = a;
    bad.tap_assistance = 7;
    EXPECT_STATUS(tactile_set_accommodations(r, &bad), TACTILE_ERROR_INVALID);
    EXPECT_STATUS(tactile_set_accommodations(r, NULL), TACTILE_ERROR_INVALID);
    forget_seen();
    touch_down(r, 4, 100, 100, t0 + 3000000);
    EXPECT_NO_EVENTS();
    tactile_router_destroy(r);
}

/* The server's accessibility: table; a mistake names its line and column and changes
 * nothing; a tremor's repeat goes nowhere and the trace says so. The secondary click: a
 * finger held still on a client without touch right-clicks, with a ring to draw. */
static void check_accommodations_yaml_and_secondary_click(void)
{
    tactile_router *r = desk();
    tactile_router_set_trace_callback(r, on_trace, NULL);
    add(r, 0, ALICE, 0, 0, 500, 500, 0, &marks[0]);
    static const char yaml[] = "accessibility:\n  ignore-repeat: 500\n";
    EXPECT_OK(tactile_load_accommodations_yaml(r, yaml, strlen(yaml), "kiosk.yaml"));
    touch_down(r, 1, 100, 100, 1000000);
    touch_up(r, 1, 1040000);
    forget_seen();
    touch_down(r, 2, 104, 100, 1100000);
    touch_up(r, 2, 1140000);
    EXPECT_NO_EVENTS();
    EXPECT(seen.trace_lines == 1, "%d trace lines for a repeat, expected one", seen.trace_lines);
    static const char wrong[] = "accessibility:\n  tap-assistance: sideways\n";
    EXPECT_STATUS(tactile_load_accommodations_yaml(r, wrong, strlen(wrong), "kiosk.yaml"), TACTILE_ERROR_CONFIGURATION);
    EXPECT(strstr(tactile_router_error(r), "kiosk.yaml:2:19: accessibility.tap-assistance"), "message \"%s\"", tactile_router_error(r));
    static const char off[] = "accessibility:\n  ignore-repeat: 0\n";
    EXPECT_OK(tactile_load_accommodations_yaml(r, off, strlen(off), "kiosk.yaml"));

    tactile_client_set_capabilities(r, ALICE, TACTILE_CAPABILITY_POINTER);
    EXPECT_STATUS(tactile_set_secondary_click(r, 100), TACTILE_ERROR_INVALID);
    EXPECT_OK(tactile_set_secondary_click(r, 600));
    forget_seen();
    touch_down(r, 3, 50, 60, 5000000);
    struct tactile_ring ring;
    EXPECT(tactile_ring_count(r) == 1 && tactile_get_ring(r, 0, &ring) == TACTILE_OK && ring.purpose == TACTILE_RING_SECONDARY_CLICK &&
               ring.end_usec == 5600000,
           "%zu rings, the first's purpose %d ending %llu", tactile_ring_count(r), ring.purpose, (unsigned long long)ring.end_usec);
    EXPECT(tactile_next_deadline(r) == 5600000, "deadline %llu", (unsigned long long)tactile_next_deadline(r));
    EXPECT_OK(tactile_fire_deadlines(r, 5600000));
    touch_up(r, 3, 5700000);
    int right = 0, left = 0;
    for (int i = 0; i < seen.event_count; i++) {
        if (ev(i)->type != TACTILE_EVENT_POINTER_BUTTON) continue;
        right += ev(i)->code == BTN_RIGHT;
        left += ev(i)->code == BTN_LEFT;
    }
    EXPECT(right == 2 && left == 0, "%d BTN_RIGHT and %d BTN_LEFT events in [%s], expected a press and release of the right", right, left,
           types_seen());
    tactile_router_destroy(r);
}

/* Three fingers around (x, y), down together and up 80 ms later. */
static void three_finger_tap(tactile_router *r, double x, double y, uint64_t t)
{
    tactile_touch_down(r, 1, x - 40, y, t);
    tactile_touch_down(r, 2, x, y - 30, t + 10000);
    tactile_touch_down(r, 3, x + 40, y + 30, t + 20000);
    tactile_touch_frame(r);
    for (int32_t id = 1; id <= 3; id++) tactile_touch_up(r, id, t + 80000);
    tactile_touch_frame(r);
}

/* Zoom: a three-finger double tap magnifies 2x around the fingers, which the client that
 * had the first two sees cancelled; a tap while zoomed reaches the client at the layout
 * point shown under it; a second double tap restores. */
static void check_zoom(void)
{
    tactile_router *r = desk();
    tactile_node w = add(r, 0, ALICE, 0, 0, 1000, 1000, 0, &marks[0]);
    struct tactile_rect screen = {0, 0, 1000, 1000};
    EXPECT_OK(tactile_set_zoom_outputs(r, &screen, 1));
    struct tactile_zoom_settings settings = {2, 5};
    EXPECT_OK(tactile_set_zoom(r, &settings));
    three_finger_tap(r, 500, 500, 1000000);
    three_finger_tap(r, 500, 500, 1300000);
    int cancels = 0, ups = 0;
    for (int i = 0; i < seen.event_count; i++) {
        cancels += ev(i)->type == TACTILE_EVENT_TOUCH_CANCEL;
        ups += ev(i)->type == TACTILE_EVENT_TOUCH_UP;
    }
    EXPECT(cancels >= 1 && ups == 0, "the zoom's fingers: %d cancels, %d ups in [%s]", cancels, ups, types_seen());
    struct tactile_zoom z;
    EXPECT_OK(tactile_get_zoom(r, &z));
    EXPECT(z.active == 1 && z.scale == 2 && z.region.x == 250 && z.region.y == 250 && z.region.width == 500 && z.region.height == 500 &&
               z.output.width == 1000,
           "zoom active %d scale %g region %d,%d %dx%d", z.active, z.scale, z.region.x, z.region.y, z.region.width, z.region.height);
    forget_seen();
    touch_down(r, 7, 600, 600, 2000000);
    EXPECT(seen.event_count >= 1 && ev(0)->type == TACTILE_EVENT_TOUCH_DOWN && ev(0)->surface == w && ev(0)->x == 550 && ev(0)->y == 550,
           "a tap at the screen's 600,600 while zoomed: [%s], at %g,%g", types_seen(), seen.event_count ? ev(0)->x : -1.0,
           seen.event_count ? ev(0)->y : -1.0);
    touch_up(r, 7, 2050000);
    three_finger_tap(r, 100, 100, 3000000);
    three_finger_tap(r, 100, 100, 3200000);
    EXPECT_OK(tactile_get_zoom(r, &z));
    EXPECT(z.active == 0, "a second double tap restores");
    struct tactile_zoom_settings bad = {0.5, 5};
    EXPECT_STATUS(tactile_set_zoom(r, &bad), TACTILE_ERROR_INVALID);
    bad = (struct tactile_zoom_settings){3, 2};
    EXPECT_STATUS(tactile_set_zoom(r, &bad), TACTILE_ERROR_INVALID);
    struct tactile_rect thin = {0, 0, 0, 10};
    EXPECT_STATUS(tactile_set_zoom_outputs(r, &thin, 1), TACTILE_ERROR_INVALID);
    EXPECT_STATUS(tactile_zoom_follow(r, NULL), TACTILE_ERROR_INVALID);
    EXPECT_OK(tactile_set_zoom(r, NULL));
    tactile_router_destroy(r);
}

static const struct {
    const char *name;
    void (*run)(void);
} checks[] = {
    {"version", check_version},
    {"tap-down-up-frame", check_tap},
    {"touch-owned-for-life", check_touch_owned_for_life},
    {"moved-owner-hears-new-position", check_moved_owner_hears_new_position},
    {"subsurface-above-and-below-parent", check_subsurface_stacking},
    {"input-region-limits-hit", check_input_region},
    {"hidden-noinput-transparent-unmapped-skipped", check_skipped_subtrees},
    {"compositor-node-hit-nowhere-and-clips", check_compositor_node_clips},
    {"gesture-desc-init-defaults", check_gesture_desc_init},
    {"edge-swipe-from-desc-cancels-client", check_edge_swipe_from_desc},
    {"edge-swipe-from-yaml-run-when", check_edge_swipe_from_yaml},
    {"gesture-require-failure", check_require_failure},
    {"gestures-simultaneous", check_simultaneous},
    {"yaml-mistake-configuration-error", check_yaml_mistake},
    {"pointer-enter-motion-button-axis-leave", check_pointer},
    {"pointer-follows-scene-changes", check_pointer_follows_scene},
    {"keyboard-focus-toplevel-touched", check_keyboard_focus},
    {"removed-surface-touch-ends-up-frame", check_removed_surface_ends_touch},
    {"device-touch-cancel", check_device_cancel},
    {"node-handles-generations", check_node_handles},
    {"reparent-cycle-invalid", check_cycles_refused},
    {"bad-arguments-invalid", check_bad_arguments},
    {"null-and-destroyed-router", check_null_and_destroyed_router},
    {"client-disconnected", check_client_disconnected},
    {"pointer-emulation", check_pointer_emulation},
    {"trace-only-when-set", check_trace},
    {"long-press-deadline", check_long_press_deadline},
    {"callback-reentry-busy", check_reentry_busy},
    {"gesture-event-fields-finite", check_gesture_fields_finite},
    {"routers-on-threads", check_routers_on_threads},
    {"unlisted-event-fields-zero", check_unlisted_fields_zero},
    {"touch-filters-struct", check_touch_filters_struct},
    {"touch-filters-yaml", check_touch_filters_yaml},
    {"accommodations-struct", check_accommodations_struct},
    {"accommodations-yaml-and-secondary-click", check_accommodations_yaml_and_secondary_click},
    {"zoom-double-tap-maps-and-restores", check_zoom},
};

/* The first line the child wrote to its stderr (the Swift runtime's reason for a trap). */
static void first_line(FILE *f, char *line, size_t size)
{
    line[0] = 0;
    rewind(f);
    while (fgets(line, (int)size, f) && line[0] == '\n') {}
    line[strcspn(line, "\n")] = 0;
}

int main(void)
{
    int failed = 0, total = (int)(sizeof checks / sizeof checks[0]);
    for (int i = 0; i < total; i++) {
        fflush(stdout);
        FILE *err = tmpfile();
        if (!err) {
            perror("abi: tmpfile");
            return 2;
        }
        pid_t child = fork();
        if (child < 0) {
            perror("abi: fork");
            return 2;
        }
        if (child == 0) {
            dup2(fileno(err), STDERR_FILENO);
            alarm(20); /* a hang fails the check instead of the run */
            checks[i].run();
            if (failure[0]) printf("FAIL %s: %s\n", checks[i].name, failure);
            else printf("ok %s\n", checks[i].name);
            fflush(stdout);
            _exit(failure[0] ? 1 : 0);
        }
        int status;
        if (waitpid(child, &status, 0) < 0) {
            perror("abi: waitpid");
            return 2;
        }
        if (WIFSIGNALED(status)) {
            char line[300];
            first_line(err, line, sizeof line);
            printf("FAIL %s: %s (signal %d)%s%s\n", checks[i].name,
                   WTERMSIG(status) == SIGALRM ? "hung for 20 s" : "crashed", WTERMSIG(status), line[0] ? ": " : "",
                   line);
        }
        fclose(err);
        failed += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    }
    printf("abi: %d of %d checks ok\n", total - failed, total);
    return failed ? 1 : 0;
}
