/*
 * fuzz SEED COUNT: a hostile caller of libtactile, seeded and replayable.
 *
 * COUNT random calls across the whole API, with arguments a buggy compositor or a confused
 * input device could give: NULL and destroyed routers, NULL out pointers and descriptions,
 * node 0, removed nodes, made-up node numbers, reparenting into the node's own subtree,
 * non-finite, huge and INT32_MIN/MAX coordinates and sizes, enum values out of range, YAML
 * garbage, touch, pointer and key events in any order, deadlines fired at any time, and
 * calls back into the router from inside its callbacks.
 *
 * Each call's status is checked against what the header (include/tactile/tactile.h)
 * allows for those arguments, and every event, gesture event and trace line the callbacks
 * receive is checked for sanity (known type, finite coordinates, the surface's own
 * user_data and client, no touch id down twice for a client, pointer and keyboard enter and
 * leave paired). The first broken promise prints the call and exits 1; a crash prints the
 * call it happened in (from a signal handler). With no crash and no broken promise:
 * "fuzz done SEED COUNT calls, N errors answered", exit 0.
 *
 * Determinism: every random choice comes from one splitmix64 stream seeded with SEED, and
 * the library is deterministic, so a seed replays the same calls (callbacks draw from the
 * stream too, in the order the library calls them).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tactile/tactile.h>

/* ---- Randomness ------------------------------------------------------------------------ */

static uint64_t rng_state;

static uint64_t next64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static uint32_t r(uint32_t n) { return (uint32_t)(next64() % (n ? n : 1)); }
static int one_in(uint32_t n) { return r(n) == 0; }

/* ---- Failure reporting ------------------------------------------------------------------- */

static uint64_t seed;
static long call_number;
/* The call being made, written before it is made, so that a crash can name it. */
static char call_text[512];

static void describe(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(call_text, sizeof call_text, fmt, ap);
    va_end(ap);
}

static void fail(const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    printf("fuzz FAILED seed %" PRIu64 " call %ld: %s: %s\n", seed, call_number, call_text, why);
    exit(1);
}

/* Async-signal-safe: the library crashed (Swift traps with SIGILL or SIGTRAP). */
static void on_crash(int sig)
{
    char head[128];
    int n = snprintf(head, sizeof head, "fuzz CRASHED (signal %d) seed %" PRIu64 " call %ld: ", sig, seed, call_number);
    if (write(STDOUT_FILENO, head, (size_t)n) < 0 || write(STDOUT_FILENO, call_text, strlen(call_text)) < 0 ||
        write(STDOUT_FILENO, "\n", 1) < 0)
        _exit(3);
    _exit(2);
}

/* ---- The model: what the library was told, to say what it must answer -------------------- */

#define BIT(status) (1u << (status))
enum { ANY_STATUS = 0x7f };

struct node_rec {
    tactile_node id;
    tactile_node parent; /* 0 for the root */
    tactile_client client;
    void *user_data;
    int alive;
};

enum { MAX_ROUTERS = 3, MAX_DEAD = 8, MAX_NODES = 2048, MAX_GESTURES = 24, MAX_TOUCHES = 64 };

struct router_rec {
    int index; /* handed to the callbacks as their data */
    tactile_router *r;
    struct node_rec nodes[MAX_NODES]; /* [0] is the root */
    int node_count;
    tactile_gesture gestures[MAX_GESTURES];
    int gesture_count;
    int yaml_loads;
    uint64_t clock;
    int in_call; /* callbacks may run only inside a call on this router */
    /* What clients were told: (client, touch id) down, pointer and keyboard focus. */
    struct touch_rec {
        tactile_client client;
        int32_t id;
    } touches[MAX_TOUCHES];
    int touch_count;
    tactile_node pointer_focus, keyboard_focus;
    /* What clients were told stopped being known (events dropped by a NULL callback, a
     * client's devices changed while it held a touch or focus, pointer emulation switched
     * mid-touch): the pairing checks stand down until the router is made anew. */
    int relaxed;
    int destroying;
    /* The node being added: events of its own add call may name it before `out` does (the
     * pointer enters it). Known by its user_data; id 0 until an event names it. */
    struct node_rec adding;
};

static struct router_rec routers[MAX_ROUTERS];
static tactile_router *dead[MAX_DEAD]; /* destroyed handles, kept to call with */
static int dead_count;
static long errors_answered, reentries;
static int reentering; /* a call from a callback is in progress: no deeper ones */

/* A fake, unique pointer per node: the library must hand it back, never read it. */
static uint64_t user_data_counter;
static void *fresh_user_data(void) { return (void *)(uintptr_t)(0x1000 + 16 * ++user_data_counter); }

static struct node_rec *find_node(struct router_rec *rr, tactile_node id)
{
    for (int i = 0; i < rr->node_count; i++)
        if (rr->nodes[i].id == id) return &rr->nodes[i];
    return NULL;
}

static int is_alive(struct router_rec *rr, tactile_node id)
{
    struct node_rec *n = id ? find_node(rr, id) : NULL;
    return n && n->alive;
}

/* Whether `ancestor` is `node` or above it in the model's tree. */
static int is_ancestor(struct router_rec *rr, tactile_node ancestor, tactile_node node)
{
    while (node) {
        if (node == ancestor) return 1;
        struct node_rec *n = find_node(rr, node);
        node = n ? n->parent : 0;
    }
    return 0;
}

/* A node left the scene: its subtree goes with it, and so does focus on any of them. */
static void kill_subtree(struct router_rec *rr, tactile_node top)
{
    for (int i = 0; i < rr->node_count; i++) {
        struct node_rec *n = &rr->nodes[i];
        if (n->alive && is_ancestor(rr, top, n->id)) n->alive = 0;
    }
    if (!is_alive(rr, rr->pointer_focus)) rr->pointer_focus = 0;
    if (!is_alive(rr, rr->keyboard_focus)) rr->keyboard_focus = 0;
}

/* Forgets old dead nodes when the table fills, keeping some to call with. */
static void compact_nodes(struct router_rec *rr)
{
    if (rr->node_count < MAX_NODES) return;
    int kept = 0, dead_kept = 0;
    for (int i = 0; i < rr->node_count; i++) {
        struct node_rec *n = &rr->nodes[i];
        if (!n->alive) {
            if (dead_kept == 64) continue;
            dead_kept++;
        }
        rr->nodes[kept++] = *n;
    }
    rr->node_count = kept;
}

static int alive_count(struct router_rec *rr)
{
    int count = 0;
    for (int i = 0; i < rr->node_count; i++) count += rr->nodes[i].alive;
    return count;
}

/* A router argument: mostly a live one, else NULL or a destroyed handle. */
struct router_arg {
    tactile_router *r;
    struct router_rec *rec; /* NULL unless live */
};

/* Checks what the call in call_text answered against the statuses `allowed` (bits). */
static void expect(tactile_status got, unsigned allowed, const struct router_arg *a)
{
    if ((int)got < 0 || (int)got > TACTILE_ERROR_IGNORED) fail("answered %d, which is no tactile_status", (int)got);
    if (!(allowed & BIT(got))) fail("answered %d; allowed: mask 0x%x (bit n: status n)", (int)got, allowed);
    if (got == TACTILE_OK) return;
    errors_answered++;
    if (!a) return;
    const char *message = tactile_router_error(a->r);
    if (!message) fail("tactile_router_error after status %d is NULL", (int)got);
    if (a->rec && !message[0]) fail("status %d with an empty tactile_router_error", (int)got);
}

/* ---- Choosing hostile arguments ---------------------------------------------------------- */

static struct router_arg pick_router(void)
{
    struct router_arg a = {NULL, NULL};
    uint32_t k = r(40);
    if (k == 0) return a;
    if (k == 1 && dead_count) {
        a.r = dead[r((uint32_t)dead_count)];
        return a;
    }
    a.rec = &routers[r(MAX_ROUTERS)];
    a.r = a.rec->r;
    return a;
}

/* The statuses a call may answer. `faults`: what its arguments must be refused for (bits of
 * statuses); `maybe`: what they may be refused for, where the header leaves it open; the
 * header does not order the checks, so any of them may come first. A bad router answers
 * NO_ROUTER (or INVALID for another bad argument); a call with no fault answers `nominal`. */
static unsigned allowed_for(const struct router_arg *a, unsigned faults, unsigned maybe, unsigned nominal)
{
    maybe &= ~BIT(TACTILE_OK);
    if (!a->rec) return BIT(TACTILE_ERROR_NO_ROUTER) | ((faults | maybe) & BIT(TACTILE_ERROR_INVALID));
    return faults ? faults | maybe : nominal | maybe;
}

/* A node argument: alive, removed, 0, the root, or a made-up number. */
static tactile_node pick_node(struct router_rec *rr, unsigned *faults)
{
    uint32_t k = r(20);
    if (rr && rr->node_count && k < 15) {
        struct node_rec *n = &rr->nodes[r((uint32_t)rr->node_count)];
        if (!n->alive && k < 12) { /* prefer live nodes: most calls should get through */
            for (int tries = 0; tries < 8 && !n->alive; tries++) n = &rr->nodes[r((uint32_t)rr->node_count)];
        }
        if (!n->alive) *faults |= BIT(TACTILE_ERROR_NO_NODE);
        return n->id;
    }
    if (rr && k < 17) return rr->nodes[0].id;
    if (k == 17) {
        *faults |= BIT(TACTILE_ERROR_NO_NODE) | BIT(TACTILE_ERROR_INVALID);
        return 0;
    }
    tactile_node made_up = next64();
    if (!rr || !is_alive(rr, made_up)) *faults |= BIT(TACTILE_ERROR_NO_NODE);
    return made_up;
}

static double pick_coord(unsigned *faults)
{
    switch (r(24)) {
    case 0: *faults |= BIT(TACTILE_ERROR_INVALID); return NAN;
    case 1: *faults |= BIT(TACTILE_ERROR_INVALID); return INFINITY;
    case 2: *faults |= BIT(TACTILE_ERROR_INVALID); return -INFINITY;
    case 3: return 1e300;
    case 4: return -1e300;
    case 5: return (double)INT32_MIN;
    case 6: return (double)INT32_MAX;
    case 7: return -0.0;
    case 8: return 0x1p-1074; /* the smallest subnormal */
    default: return ((double)r(4800) - 400) / 4;
    }
}

/* Input positions beyond 2^40 px are refused as INVALID (the header's input section). */
static void beyond_screens(double x, double y, unsigned *faults)
{
    if (fabs(x) > 0x1p40 || fabs(y) > 0x1p40) *faults |= BIT(TACTILE_ERROR_INVALID);
}

static int32_t pick_position(void)
{
    switch (r(16)) {
    case 0: return INT32_MIN;
    case 1: return INT32_MAX;
    case 2: return (int32_t)(uint32_t)next64();
    default: return (int32_t)r(1400) - 200;
    }
}

static int32_t pick_size(unsigned *faults)
{
    int32_t v;
    switch (r(16)) {
    case 0: v = INT32_MIN; break;
    case 1: v = INT32_MAX; break;
    case 2: v = -1; break;
    case 3: v = (int32_t)(uint32_t)next64(); break;
    case 4: v = 0; break;
    default: v = (int32_t)r(800) + 1;
    }
    if (v < 0) *faults |= BIT(TACTILE_ERROR_INVALID);
    return v;
}

/* Clients 1..4 mostly, sometimes the compositor (0) or a made-up one. */
static tactile_client pick_client(void)
{
    uint32_t k = r(12);
    return k < 9 ? 1 + k % 4 : k < 11 ? 0 : next64();
}

static uint64_t pick_time(struct router_rec *rr)
{
    if (!rr) return next64();
    /* A clock gone back now and then: the header asks for one that does not, so the library
     * may refuse the event (never crash). Never ahead of the model's clock, or the honest
     * times after it would go back too. */
    if (one_in(60)) return next64() % (rr->clock + 1);
    rr->clock += r(40000);
    return rr->clock;
}

/* A node description; adds its faults. The flags and alpha may be odd in ways the header
 * leaves open (unknown flag bits, alpha outside 0...1): those may pass or be INVALID. */
static struct tactile_node_desc pick_desc(unsigned *faults, unsigned *maybe)
{
    struct tactile_node_desc d;
    d.client = pick_client();
    d.x = pick_position();
    d.y = pick_position();
    d.width = pick_size(faults);
    d.height = pick_size(faults);
    d.flags = r(8) ? TACTILE_NODE_MAPPED | (r(4) ? 0 : r(32)) : (uint32_t)next64();
    if (d.flags >= (1u << 5)) *maybe |= BIT(TACTILE_ERROR_INVALID);
    static const double alphas[] = {1, 1, 1, 1, 0.5, 0, 0.009, 0.01, NAN, INFINITY, -1, 2};
    d.alpha = alphas[r(sizeof alphas / sizeof alphas[0])];
    if (!(d.alpha >= 0 && d.alpha <= 1)) *maybe |= BIT(TACTILE_ERROR_INVALID);
    d.user_data = fresh_user_data();
    return d;
}

/* ---- Callbacks ----------------------------------------------------------------------- */

static void reenter(struct router_rec *rr);

static int version_matches; /* the loaded library is the header's version: no unknown events */

static int touch_index(struct router_rec *rr, tactile_client client, int32_t id)
{
    for (int i = 0; i < rr->touch_count; i++)
        if (rr->touches[i].client == client && rr->touches[i].id == id) return i;
    return -1;
}

static void drop_touches_of(struct router_rec *rr, tactile_client client)
{
    int kept = 0;
    for (int i = 0; i < rr->touch_count; i++)
        if (rr->touches[i].client != client) rr->touches[kept++] = rr->touches[i];
    rr->touch_count = kept;
}

/* A surface named in an event: a node this router made, of the event's client, handed back
 * with its own user_data. */
static void check_surface(struct router_rec *rr, const struct tactile_event *e)
{
    struct node_rec *n = find_node(rr, e->surface);
    if (!n && rr->adding.user_data && e->surface_data == rr->adding.user_data &&
        (!rr->adding.id || rr->adding.id == e->surface)) {
        rr->adding.id = e->surface;
        n = &rr->adding;
    }
    if (!n) fail("event %d names surface %" PRIu64 ", never made on this router", (int)e->type, e->surface);
    if (n->client != e->client)
        fail("event %d for client %" PRIu64 " names a surface of client %" PRIu64, (int)e->type, e->client, n->client);
    if (e->surface_data != n->user_data)
        fail("event %d: surface_data %p, the node's user_data is %p", (int)e->type, e->surface_data, n->user_data);
}

/* A pairing rule broken (a touch down twice, a leave without an enter...): a failure, unless
 * the router's pairing is no longer known. */
static void pairing(struct router_rec *rr, int broken, const char *fmt, ...)
{
    if (!broken || rr->relaxed) return;
    char why[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    fail("%s", why);
}

/* Moves a focus as an enter or leave says, checking it against what the client was told. */
static void enter_focus(struct router_rec *rr, tactile_node *focus, const struct tactile_event *e, const char *what)
{
    pairing(rr, *focus != 0, "%s enter on %" PRIu64 " while on %" PRIu64 ", with no leave", what, e->surface, *focus);
    *focus = e->surface;
}

static void leave_focus(struct router_rec *rr, tactile_node *focus, const struct tactile_event *e, const char *what)
{
    pairing(rr, *focus != e->surface, "%s leave of %" PRIu64 ", the focus is %" PRIu64, what, e->surface, *focus);
    *focus = 0;
}

static void on_event(void *data, const struct tactile_event *e)
{
    struct router_rec *rr = &routers[(intptr_t)data];
    if (!rr->in_call) fail("an event arrived outside any call on its router");
    if (!isfinite(e->x) || !isfinite(e->y)) fail("event %d at %g,%g", (int)e->type, e->x, e->y);
    if (!isfinite(e->axis.horizontal) || !isfinite(e->axis.vertical)) fail("event %d with a non-finite axis", (int)e->type);
    if (e->client == 0) fail("event %d sent to client 0, the compositor", (int)e->type);
    if (e->key_count > 256 || (e->key_count && !e->keys))
        fail("event %d with %zu keys at %p", (int)e->type, e->key_count, (const void *)e->keys);
    int i;
    switch (e->type) {
    case TACTILE_EVENT_TOUCH_DOWN:
        check_surface(rr, e);
        i = touch_index(rr, e->client, e->touch_id);
        pairing(rr, i >= 0, "touch %d down for client %" PRIu64 ", which holds it down already", e->touch_id, e->client);
        if (i < 0 && rr->touch_count < MAX_TOUCHES) rr->touches[rr->touch_count++] = (struct touch_rec){e->client, e->touch_id};
        break;
    case TACTILE_EVENT_TOUCH_MOTION:
        check_surface(rr, e);
        pairing(rr, touch_index(rr, e->client, e->touch_id) < 0, "motion of touch %d, not down for client %" PRIu64,
                e->touch_id, e->client);
        break;
    case TACTILE_EVENT_TOUCH_UP:
        i = touch_index(rr, e->client, e->touch_id);
        pairing(rr, i < 0, "up of touch %d, not down for client %" PRIu64, e->touch_id, e->client);
        if (i >= 0) rr->touches[i] = rr->touches[--rr->touch_count];
        break;
    case TACTILE_EVENT_TOUCH_CANCEL: drop_touches_of(rr, e->client); break;
    case TACTILE_EVENT_POINTER_ENTER:
        check_surface(rr, e);
        enter_focus(rr, &rr->pointer_focus, e, "pointer");
        break;
    case TACTILE_EVENT_POINTER_LEAVE:
        check_surface(rr, e);
        leave_focus(rr, &rr->pointer_focus, e, "pointer");
        break;
    case TACTILE_EVENT_POINTER_MOTION:
        check_surface(rr, e);
        pairing(rr, rr->pointer_focus != e->surface, "pointer motion on %" PRIu64 ", the focus is %" PRIu64, e->surface,
                rr->pointer_focus);
        break;
    case TACTILE_EVENT_KEYBOARD_ENTER:
        check_surface(rr, e);
        enter_focus(rr, &rr->keyboard_focus, e, "keyboard");
        break;
    case TACTILE_EVENT_KEYBOARD_LEAVE:
        check_surface(rr, e);
        leave_focus(rr, &rr->keyboard_focus, e, "keyboard");
        break;
    case TACTILE_EVENT_TOUCH_FRAME:
    case TACTILE_EVENT_POINTER_BUTTON:
    case TACTILE_EVENT_POINTER_AXIS:
    case TACTILE_EVENT_POINTER_FRAME:
    case TACTILE_EVENT_KEY: break;
    default:
        if (version_matches) fail("event type %d, unknown to the library's own version", (int)e->type);
    }
    reenter(rr);
}

static void on_gesture(void *data, const struct tactile_gesture_event *e)
{
    struct router_rec *rr = &routers[(intptr_t)data];
    if (!rr->in_call) fail("a gesture event arrived outside any call on its router");
    if (e->gesture == 0 || !e->name) fail("gesture event for gesture %u named %p", e->gesture, (const void *)e->name);
    if ((unsigned)e->state > TACTILE_GESTURE_RECOGNIZED) fail("gesture state %d", (int)e->state);
    if (!isfinite(e->x) || !isfinite(e->y) || !isfinite(e->dx) || !isfinite(e->dy) || !isfinite(e->scale))
        fail("gesture %s at %g,%g moved %g,%g scale %g", e->name, e->x, e->y, e->dx, e->dy, e->scale);
    if (e->when && strcmp(e->when, "recognized") != 0 && strcmp(e->when, "ended") != 0)
        fail("gesture %s: when \"%s\"", e->name, e->when);
    reenter(rr);
}

static void on_trace(void *data, const char *line)
{
    struct router_rec *rr = &routers[(intptr_t)data];
    if (!rr->in_call) fail("a trace line arrived outside any call on its router");
    if (!line || !line[0] || strlen(line) > 65536) fail("trace line %p", (const void *)line);
    reenter(rr);
}

/* Sometimes, from inside a callback: a call into the same router, which must answer BUSY
 * whatever its arguments' merit, or a call into another router, which must work. */
static void reenter(struct router_rec *rr)
{
    if (reentering || rr->destroying || !one_in(6)) return;
    reentering = 1;
    char saved[sizeof call_text];
    memcpy(saved, call_text, sizeof saved);
    reentries++;
    tactile_node node;
    tactile_status st;
    struct router_rec *other = &routers[(rr->index + 1) % MAX_ROUTERS];
    if (one_in(5) && other->r) {
        describe("(inside a callback of router %d) tactile_hit_test(router %d, 10, 10)", rr->index, other->index);
        other->in_call = 1;
        st = tactile_hit_test(other->r, 10, 10, &node, NULL, NULL);
        other->in_call = 0;
        if (st != TACTILE_OK) fail("answered %d", (int)st);
    } else {
        static const char *const names[] = {"tactile_hit_test",  "tactile_touch_down", "tactile_node_remove",
                                            "tactile_fire_deadlines", "tactile_gestures_load_yaml", "tactile_node_add"};
        uint32_t k = r(6);
        describe("(inside a callback of router %d) %s on the same router", rr->index, names[k]);
        struct tactile_node_desc d = {1, 0, 0, 10, 10, TACTILE_NODE_MAPPED, 1, fresh_user_data()};
        switch (k) {
        case 0: st = tactile_hit_test(rr->r, 10, 10, &node, NULL, NULL); break;
        case 1: st = tactile_touch_down(rr->r, 99, 10, 10, rr->clock); break;
        case 2: st = tactile_node_remove(rr->r, rr->nodes[r((uint32_t)rr->node_count)].id); break;
        case 3: st = tactile_fire_deadlines(rr->r, rr->clock); break;
        case 4: st = tactile_gestures_load_yaml(rr->r, "gestures: []\n", 13, "busy.yaml"); break;
        default: st = tactile_node_add(rr->r, rr->nodes[0].id, &d, &node);
        }
        if (st != TACTILE_ERROR_BUSY) fail("answered %d, expected TACTILE_ERROR_BUSY", (int)st);
    }
    memcpy(call_text, saved, sizeof saved);
    reentering = 0;
}

/* ---- Routers ----------------------------------------------------------------------------- */

/* Every callback on, the trace callback half the time (off must cost nothing, on must work). */
static void set_callbacks(struct router_rec *rr)
{
    void *data = (void *)(intptr_t)rr->index;
    tactile_router_set_event_callback(rr->r, on_event, data);
    tactile_router_set_gesture_callback(rr->r, on_gesture, data);
    tactile_router_set_trace_callback(rr->r, r(2) ? on_trace : NULL, data);
}

static void open_router(struct router_rec *rr)
{
    int index = (int)(rr - routers);
    memset(rr, 0, sizeof *rr);
    rr->index = index;
    rr->r = tactile_router_create();
    if (!rr->r) fail("tactile_router_create answered NULL");
    /* An old handle at the same address is live again: it can no longer be called dead. */
    for (int i = 0; i < dead_count; i++)
        if (dead[i] == rr->r) dead[i--] = dead[--dead_count];
    rr->nodes[0] = (struct node_rec){tactile_router_root(rr->r), 0, 0, NULL, 1};
    rr->node_count = 1;
    if (!rr->nodes[0].id) fail("a new router's root is node 0");
    rr->in_call = 1;
    tactile_node_set_geometry(rr->r, rr->nodes[0].id, 0, 0, 1000, 1000);
    set_callbacks(rr);
    rr->in_call = 0;
    rr->clock = 1000;
}

static void close_router(struct router_rec *rr)
{
    rr->in_call = rr->destroying = 1; /* destroying may still tell clients something */
    tactile_router_destroy(rr->r);
    rr->in_call = rr->destroying = 0;
    if (dead_count < MAX_DEAD) dead[dead_count++] = rr->r;
    else dead[r(MAX_DEAD)] = rr->r;
    rr->r = NULL;
}

/* ---- The calls --------------------------------------------------------------------------- */

/* Runs a call with its router marked as inside a call (callbacks must come from there). */
#define CALL(a, st, expr)                                                                                              \
    do {                                                                                                               \
        if ((a).rec) (a).rec->in_call = 1;                                                                             \
        (st) = (expr);                                                                                                 \
        if ((a).rec) (a).rec->in_call = 0;                                                                             \
    } while (0)

static void fuzz_node_add(void)
{
    struct router_arg a = pick_router();
    unsigned faults = 0, maybe = 0;
    tactile_node parent = pick_node(a.rec, &faults);
    struct tactile_node_desc d = pick_desc(&faults, &maybe);
    int null_desc = one_in(30);
    if (null_desc) faults |= BIT(TACTILE_ERROR_INVALID);
    /* A NULL out pointer only where the call fails anyway: a node added unnamed could not be
     * followed by the model (the header does not say whether out may be NULL). */
    int null_out = (faults || !a.rec) && one_in(4);
    if (null_out) maybe |= BIT(TACTILE_ERROR_INVALID);
    describe("tactile_node_add(%p, parent %" PRIu64 ", %s{client %" PRIu64 " %d,%d %dx%d flags 0x%x alpha %g}, out %s)",
             (void *)a.r, parent, null_desc ? "NULL " : "", d.client, d.x, d.y, d.width, d.height, d.flags, d.alpha,
             null_out ? "NULL" : "ok");
    tactile_node out = 0;
    tactile_status st;
    if (a.rec) a.rec->adding = (struct node_rec){0, parent, d.client, d.user_data, 1};
    CALL(a, st, tactile_node_add(a.r, parent, null_desc ? NULL : &d, null_out ? NULL : &out));
    tactile_node named = a.rec ? a.rec->adding.id : 0;
    if (a.rec) a.rec->adding = (struct node_rec){0, 0, 0, NULL, 0};
    expect(st, allowed_for(&a, faults, maybe, BIT(TACTILE_OK)), &a);
    if (named && (st != TACTILE_OK || named != out))
        fail("events named node %" PRIu64 " as the one added; the call answered %d with node %" PRIu64, named, (int)st,
             out);
    if (st != TACTILE_OK) return;
    if (out == 0 || find_node(a.rec, out)) fail("the new node is %" PRIu64 ", already a node's number", out);
    compact_nodes(a.rec);
    a.rec->nodes[a.rec->node_count++] = (struct node_rec){out, parent, d.client, d.user_data, 1};
}

static void fuzz_node_remove(void)
{
    struct router_arg a = pick_router();
    unsigned faults = 0;
    tactile_node node = pick_node(a.rec, &faults);
    int root = a.rec && node == a.rec->nodes[0].id;
    describe("tactile_node_remove(%p, %" PRIu64 "%s)", (void *)a.r, node, root ? " (the root)" : "");
    tactile_status st;
    CALL(a, st, tactile_node_remove(a.r, node));
    /* The root cannot be removed; the header does not say which error says so. */
    unsigned nominal = root ? BIT(TACTILE_ERROR_INVALID) | BIT(TACTILE_ERROR_NO_NODE) : BIT(TACTILE_OK);
    expect(st, allowed_for(&a, faults, 0, nominal), &a);
    if (st == TACTILE_OK) kill_subtree(a.rec, node);
}

static void fuzz_node_update(void)
{
    struct router_arg a = pick_router();
    unsigned faults = 0, maybe = 0;
    tactile_node node = pick_node(a.rec, &faults);
    struct tactile_node_desc d = pick_desc(&faults, &maybe);
    struct node_rec *n = a.rec ? find_node(a.rec, node) : NULL;
    /* The same user_data and client: events sent during the call may name either
     * description, and the checks compare with the model's one. */
    if (n) {
        d.user_data = n->user_data;
        d.client = n->client;
    }
    int null_desc = one_in(30);
    if (null_desc) faults |= BIT(TACTILE_ERROR_INVALID);
    describe("tactile_node_update(%p, %" PRIu64 ", %s{%d,%d %dx%d flags 0x%x alpha %g})", (void *)a.r, node,
             null_desc ? "NULL " : "", d.x, d.y, d.width, d.height, d.flags, d.alpha);
    tactile_status st;
    CALL(a, st, tactile_node_update(a.r, node, null_desc ? NULL : &d));
    expect(st, allowed_for(&a, faults, maybe, BIT(TACTILE_OK)), &a);
}

static void fuzz_set_geometry(void)
{
    struct router_arg a = pick_router();
    unsigned faults = 0;
    tactile_node node = pick_node(a.rec, &faults);
    int32_t x = pick_position(), y = pick_position(), w = pick_size(&faults), h = pick_size(&faults);
    describe("tactile_node_set_geometry(%p, %" PRIu64 ", %d, %d, %d, %d)", (void *)a.r, node, x, y, w, h);
    tactile_status st;
    CALL(a, st, tactile_node_set_geometry(a.r, node, x, y, w, h));
    expect(st, allowed_for(&a, faults, 0, BIT(TACTILE_OK)), &a);
}

static void fuzz_input_region(void)
{
    struct router_arg a = pick_router();
    unsigned faults = 0, rect_faults = 0;
    tactile_node node = pick_node(a.rec, &faults);
    /* Counts always match the array handed in; a big one is a big array. */
    size_t count = one_in(20) ? 1000 + r(3000) : r(6);
    struct tactile_rect *rects = count ? malloc(count * sizeof *rects) : NULL;
    if (count && !rects) fail("out of memory");
    for (size_t i = 0; i < count; i++) {
        rects[i].x = pick_position();
        rects[i].y = pick_position();
        rects[i].width = pick_size(&rect_faults);
        rects[i].height = pick_size(&rect_faults);
    }
    int infinite = one_in(5);
    int null_rects = count && one_in(15);
    if (null_rects) rect_faults |= BIT(TACTILE_ERROR_INVALID);
    /* "infinite ignores the rectangles": bad ones may pass unread. */
    unsigned allowed = infinite ? allowed_for(&a, faults, rect_faults, BIT(TACTILE_OK))
                                : allowed_for(&a, faults | rect_faults, 0, BIT(TACTILE_OK));
    describe("tactile_node_set_input_region(%p, %" PRIu64 ", %s, %zu, %d)", (void *)a.r, node,
             null_rects ? "NULL" : "rects", count, infinite);
    tactile_status st;
    CALL(a, st, tactile_node_set_input_region(a.r, node, null_rects ? NULL : rects, count, infinite));
    expect(st, allowed, &a);
    free(rects);
}

static void fuzz_restack(void)
{
    struct router_arg a = pick_router();
    unsigned faults = 0;
    tactile_node node = pick_node(a.rec, &faults);
    uint32_t position = r(6);
    if (position > TACTILE_STACK_BELOW) faults |= BIT(TACTILE_ERROR_INVALID);
    tactile_node sibling = 0;
    unsigned sibling_faults = 0;
    struct node_rec *n = a.rec ? find_node(a.rec, node) : NULL;
    if (n && n->alive && one_in(2)) {
        /* A real sibling, or the parent, to make ABOVE and BELOW mean something. */
        for (int tries = 0; tries < 8 && !sibling; tries++) {
            struct node_rec *s = &a.rec->nodes[r((uint32_t)a.rec->node_count)];
            if (s->alive && s->parent == n->parent && s->id != node) sibling = s->id;
        }
        if (!sibling) sibling = n->parent;
    } else {
        sibling = pick_node(a.rec, &sibling_faults);
    }
    int root = a.rec && node == a.rec->nodes[0].id;
    unsigned maybe = root ? BIT(TACTILE_ERROR_INVALID) : 0; /* the root has no siblings */
    if (position == TACTILE_STACK_ABOVE || position == TACTILE_STACK_BELOW) {
        faults |= sibling_faults;
        /* Neither a sibling nor the parent: the header does not name the error. */
        struct node_rec *s = a.rec ? find_node(a.rec, sibling) : NULL;
        if (!n || !s || !s->alive || sibling == node || (s->parent != n->parent && sibling != n->parent))
            maybe |= BIT(TACTILE_ERROR_INVALID) | BIT(TACTILE_ERROR_NO_NODE);
    }
    describe("tactile_node_restack(%p, %" PRIu64 ", %u, sibling %" PRIu64 ")", (void *)a.r, node, position, sibling);
    tactile_status st;
    CALL(a, st, tactile_node_restack(a.r, node, (tactile_stack)position, sibling));
    expect(st, allowed_for(&a, faults, maybe, BIT(TACTILE_OK)), &a);
}

static void fuzz_reparent(void)
{
    struct router_arg a = pick_router();
    unsigned faults = 0;
    tactile_node node = pick_node(a.rec, &faults);
    tactile_node parent = 0;
    if (a.rec && is_alive(a.rec, node) && one_in(2)) {
        /* Into the node's own subtree: the scene must stay a tree. */
        struct node_rec *d = &a.rec->nodes[r((uint32_t)a.rec->node_count)];
        parent = d->alive && is_ancestor(a.rec, node, d->id) ? d->id : node;
    } else {
        parent = pick_node(a.rec, &faults);
    }
    int cycle = a.rec && is_alive(a.rec, node) && is_alive(a.rec, parent) && is_ancestor(a.rec, node, parent);
    if (cycle) faults |= BIT(TACTILE_ERROR_INVALID);
    describe("tactile_node_reparent(%p, %" PRIu64 ", parent %" PRIu64 "%s)", (void *)a.r, node, parent,
             cycle ? " (in its own subtree)" : "");
    tactile_status st;
    CALL(a, st, tactile_node_reparent(a.r, node, parent));
    expect(st, allowed_for(&a, faults, 0, BIT(TACTILE_OK)), &a);
    if (st == TACTILE_OK) find_node(a.rec, node)->parent = parent;
}

static void fuzz_user_data(void)
{
    struct router_arg a = pick_router();
    unsigned faults = 0;
    tactile_node node = pick_node(a.rec, &faults);
    describe("tactile_node_user_data(%p, %" PRIu64 ")", (void *)a.r, node);
    if (a.rec) a.rec->in_call = 1;
    void *got = tactile_node_user_data(a.r, node);
    if (a.rec) a.rec->in_call = 0;
    struct node_rec *n = a.rec ? find_node(a.rec, node) : NULL;
    void *want = n && n->alive ? n->user_data : NULL;
    if (got != want) fail("answered %p, expected %p", got, want);
}

static void fuzz_hit_test(void)
{
    struct router_arg a = pick_router();
    unsigned faults = 0;
    double x = pick_coord(&faults), y = pick_coord(&faults);
    int null_out = one_in(20);
    if (null_out) faults |= BIT(TACTILE_ERROR_INVALID);
    describe("tactile_hit_test(%p, %g, %g, out %s)", (void *)a.r, x, y, null_out ? "NULL" : "ok");
    tactile_node out = 0;
    double lx = 0, ly = 0;
    tactile_status st;
    CALL(a, st, tactile_hit_test(a.r, x, y, null_out ? NULL : &out, r(2) ? &lx : NULL, &ly));
    expect(st, allowed_for(&a, faults, 0, BIT(TACTILE_OK)), &a);
    if (st != TACTILE_OK) return;
    if (out && !is_alive(a.rec, out)) fail("hit node %" PRIu64 ", not in the scene", out);
    if (out && (!isfinite(lx) || !isfinite(ly))) fail("local coordinates %g,%g", lx, ly);
}

/* Whether the client holds a touch or the pointer or keyboard focus. */
static int client_is_busy(struct router_rec *rr, tactile_client client)
{
    for (int i = 0; i < rr->touch_count; i++)
        if (rr->touches[i].client == client) return 1;
    struct node_rec *p = find_node(rr, rr->pointer_focus), *k = find_node(rr, rr->keyboard_focus);
    return (p && p->client == client) || (k && k->client == client);
}

static void fuzz_capabilities(void)
{
    struct router_arg a = pick_router();
    tactile_client client = pick_client();
    uint32_t caps = r(6) ? r(8) : (uint32_t)next64();
    describe("tactile_client_set_capabilities(%p, %" PRIu64 ", 0x%x)", (void *)a.r, client, caps);
    tactile_status st;
    CALL(a, st, tactile_client_set_capabilities(a.r, client, caps));
    /* Unknown bits, or client 0 (the compositor's): the header leaves these open. */
    unsigned maybe = caps >= 8 || client == 0 ? BIT(TACTILE_ERROR_INVALID) : 0;
    expect(st, allowed_for(&a, 0, maybe, BIT(TACTILE_OK)), &a);
    /* A client dropping wl_touch mid-touch or wl_pointer under the pointer: the header does
     * not say what it is told then. */
    if (st == TACTILE_OK && client_is_busy(a.rec, client)) a.rec->relaxed = 1;
}

static void fuzz_disconnect(void)
{
    struct router_arg a = pick_router();
    tactile_client client = pick_client();
    describe("tactile_client_disconnected(%p, %" PRIu64 ")", (void *)a.r, client);
    tactile_status st;
    CALL(a, st, tactile_client_disconnected(a.r, client));
    unsigned maybe = client == 0 ? BIT(TACTILE_ERROR_INVALID) : BIT(TACTILE_ERROR_IGNORED);
    expect(st, allowed_for(&a, 0, maybe, BIT(TACTILE_OK)), &a);
    if (st != TACTILE_OK || client == 0) return;
    for (int i = 1; i < a.rec->node_count; i++)
        if (a.rec->nodes[i].alive && a.rec->nodes[i].client == client) kill_subtree(a.rec, a.rec->nodes[i].id);
    drop_touches_of(a.rec, client); /* "its touches end silently" */
    /* Its nodes must be gone: a call naming one answers NO_NODE. */
    for (int i = 1; i < a.rec->node_count; i++) {
        struct node_rec *n = &a.rec->nodes[i];
        if (n->client == client && tactile_node_user_data(a.r, n->id) != NULL)
            fail("node %" PRIu64 " of the client is still in the scene", n->id);
    }
}

static void fuzz_pointer_emulation(void)
{
    struct router_arg a = pick_router();
    int enabled = r(3) ? (int)r(2) : (int)(uint32_t)next64();
    describe("tactile_router_set_pointer_emulation(%p, %d)", (void *)a.r, enabled);
    tactile_status st;
    CALL(a, st, tactile_router_set_pointer_emulation(a.r, enabled));
    expect(st, allowed_for(&a, 0, 0, BIT(TACTILE_OK)), &a);
    /* Switched mid-press: the header does not say how an emulated press ends. */
    if (st == TACTILE_OK && (a.rec->touch_count || a.rec->pointer_focus)) a.rec->relaxed = 1;
}

/* Input devices do odd things: a status of IGNORED is always allowed for input. */
static const unsigned input_ok = BIT(TACTILE_OK) | BIT(TACTILE_ERROR_IGNORED);

/* A time behind the clock may be refused as INVALID. */
static unsigned went_back(const struct router_rec *rr, uint64_t t)
{
    return rr && t != rr->clock ? BIT(TACTILE_ERROR_INVALID) : 0;
}

static int32_t pick_touch_id(void) { return r(10) ? (int32_t)r(6) : (int32_t)(uint32_t)next64(); }

static void fuzz_touch(void)
{
    struct router_arg a = pick_router();
    unsigned faults = 0;
    int32_t id = pick_touch_id();
    uint64_t t = pick_time(a.rec);
    tactile_status st;
    switch (r(5)) {
    case 0: {
        double x = pick_coord(&faults), y = pick_coord(&faults);
        beyond_screens(x, y, &faults);
        describe("tactile_touch_down(%p, %d, %g, %g, %" PRIu64 ")", (void *)a.r, id, x, y, t);
        CALL(a, st, tactile_touch_down(a.r, id, x, y, t));
        break;
    }
    case 1: {
        double x = pick_coord(&faults), y = pick_coord(&faults);
        beyond_screens(x, y, &faults);
        describe("tactile_touch_motion(%p, %d, %g, %g, %" PRIu64 ")", (void *)a.r, id, x, y, t);
        CALL(a, st, tactile_touch_motion(a.r, id, x, y, t));
        break;
    }
    case 2:
        describe("tactile_touch_up(%p, %d, %" PRIu64 ")", (void *)a.r, id, t);
        CALL(a, st, tactile_touch_up(a.r, id, t));
        break;
    case 3:
        describe("tactile_touch_cancel(%p, %d, %" PRIu64 ")", (void *)a.r, id, t);
        CALL(a, st, tactile_touch_cancel(a.r, id, t));
        break;
    default:
        describe("tactile_touch_frame(%p)", (void *)a.r);
        CALL(a, st, tactile_touch_frame(a.r));
    }
    expect(st, allowed_for(&a, faults, went_back(a.rec, t), input_ok), &a);
}

/* A device's touches: through whatever filters the device was given. */
static void fuzz_device_touch(void)
{
    struct router_arg a = pick_router();
    unsigned faults = 0;
    tactile_device device = r(8) ? r(3) : (tactile_device)next64();
    int32_t id = pick_touch_id();
    uint64_t t = pick_time(a.rec);
    tactile_status st;
    switch (r(5)) {
    case 0: {
        double x = pick_coord(&faults), y = pick_coord(&faults);
        beyond_screens(x, y, &faults);
        describe("tactile_device_touch_down(%p, %u, %d, %g, %g, %" PRIu64 ")", (void *)a.r, device, id, x, y, t);
        CALL(a, st, tactile_device_touch_down(a.r, device, id, x, y, t));
        break;
    }
    case 1: {
        double x = pick_coord(&faults), y = pick_coord(&faults);
        beyond_screens(x, y, &faults);
        describe("tactile_device_touch_motion(%p, %u, %d, %g, %g, %" PRIu64 ")", (void *)a.r, device, id, x, y, t);
        CALL(a, st, tactile_device_touch_motion(a.r, device, id, x, y, t));
        break;
    }
    case 2:
        describe("tactile_device_touch_up(%p, %u, %d, %" PRIu64 ")", (void *)a.r, device, id, t);
        CALL(a, st, tactile_device_touch_up(a.r, device, id, t));
        break;
    case 3:
        describe("tactile_device_touch_cancel(%p, %u, %d, %" PRIu64 ")", (void *)a.r, device, id, t);
        CALL(a, st, tactile_device_touch_cancel(a.r, device, id, t));
        break;
    default:
        describe("tactile_device_touch_frame(%p, %u)", (void *)a.r, device);
        CALL(a, st, tactile_device_touch_frame(a.r, device));
    }
    expect(st, allowed_for(&a, faults, went_back(a.rec, t), input_ok), &a);
}

/* A distance for a filter: refused unless finite, from 0, and at most 2^40 px. */
static double pick_distance(unsigned *faults)
{
    switch (r(12)) {
    case 0: *faults |= BIT(TACTILE_ERROR_INVALID); return NAN;
    case 1: *faults |= BIT(TACTILE_ERROR_INVALID); return INFINITY;
    case 2: *faults |= BIT(TACTILE_ERROR_INVALID); return -1;
    case 3: *faults |= BIT(TACTILE_ERROR_INVALID); return 1e300;
    case 4: return 0;
    default: return (double)r(64);
    }
}

static uint32_t pick_milliseconds(void)
{
    switch (r(8)) {
    case 0: return UINT32_MAX;
    case 1: return 0;
    default: return r(200);
    }
}

static void fuzz_touch_filters(void)
{
    struct router_arg a = pick_router();
    tactile_device device = r(3);
    unsigned faults = 0;
    tactile_status st;
    if (one_in(6)) {
        describe("tactile_device_set_touch_filters(%p, %u, NULL)", (void *)a.r, device);
        CALL(a, st, tactile_device_set_touch_filters(a.r, device, NULL));
        expect(st, allowed_for(&a, 0, 0, BIT(TACTILE_OK)), &a);
        return;
    }
    if (one_in(4)) {
        static const char *texts[] = {
            "devices:\n  - {debounce: 40, jitter: 3, min-contact: 20, stuck-after: 1}\n",
            "devices:\n  - {smoothing: one-euro, beta: 0.1, dead-zones: [[0, 0, 40, 40]]}\n",
            "devices:\n  - {debounce: -4}\n",
            "devices: {}\n",
        };
        int k = (int)r(4);
        struct tactile_rect output = {pick_position(), pick_position(), (int32_t)r(3000), (int32_t)r(3000)};
        int with_output = (int)r(2);
        unsigned allowed = BIT(TACTILE_OK) | BIT(TACTILE_ERROR_CONFIGURATION);
        if (with_output && (output.width < 1 || output.height < 1)) allowed |= BIT(TACTILE_ERROR_INVALID);
        describe("tactile_device_load_touch_filters_yaml(%p, %u, \"Panel\", %s, text %d)", (void *)a.r, device, with_output ? "output" : "NULL", k);
        CALL(a, st, tactile_device_load_touch_filters_yaml(a.r, device, "Panel", with_output ? &output : NULL, texts[k], strlen(texts[k]), "fuzz.yaml"));
        expect(st, allowed_for(&a, 0, allowed, BIT(TACTILE_OK)), &a);
        return;
    }
    struct tactile_touch_filters f;
    tactile_touch_filters_init(&f);
    f.debounce_ms = pick_milliseconds();
    f.debounce_radius = pick_distance(&faults);
    f.jitter = pick_distance(&faults);
    f.min_contact_ms = pick_milliseconds();
    f.stuck_after_ms = pick_milliseconds();
    switch (r(6)) {
    case 0: f.smoothing = 2; faults |= BIT(TACTILE_ERROR_INVALID); break;
    case 1: f.smoothing = 1; f.min_cutoff_hz = one_in(2) ? 0 : NAN; faults |= BIT(TACTILE_ERROR_INVALID); break;
    case 2: f.smoothing = 1; f.beta = -1; faults |= BIT(TACTILE_ERROR_INVALID); break;
    case 3: f.smoothing = 1; f.min_cutoff_hz = 0.5 + r(10); f.beta = r(100) / 1000.0; break;
    default: f.smoothing = 0;
    }
    static struct tactile_rect zones[8];
    size_t count = r(4);
    for (size_t i = 0; i < count; i++) {
        zones[i] = (struct tactile_rect){pick_position(), pick_position(), (int32_t)r(300) - 10, (int32_t)r(300) - 10};
        if (zones[i].width < 1 || zones[i].height < 1) faults |= BIT(TACTILE_ERROR_INVALID);
    }
    f.dead_zones = count ? zones : NULL;
    f.dead_zone_count = count;
    if (one_in(20)) {
        f.dead_zones = NULL;
        f.dead_zone_count = 1 + r(5);
        faults |= BIT(TACTILE_ERROR_INVALID);
    } else if (one_in(40)) {
        f.dead_zone_count = 1025 + r(100000);
        faults |= BIT(TACTILE_ERROR_INVALID);
    }
    describe("tactile_device_set_touch_filters(%p, %u, {debounce %u radius %g jitter %g smoothing %d cutoff %g beta %g zones %zu "
             "min-contact %u stuck %u})",
             (void *)a.r, device, f.debounce_ms, f.debounce_radius, f.jitter, f.smoothing, f.min_cutoff_hz, f.beta,
             f.dead_zone_count, f.min_contact_ms, f.stuck_after_ms);
    CALL(a, st, tactile_device_set_touch_filters(a.r, device, &f));
    expect(st, allowed_for(&a, faults, 0, BIT(TACTILE_OK)), &a);
}

/* Accommodations from a struct or YAML, a node's exemption, the secondary click, the rings. */
static void fuzz_accommodations(void)
{
    struct router_arg a = pick_router();
    unsigned faults = 0;
    tactile_status st;
    switch (r(7)) {
    case 0: {
        tactile_node node = pick_node(a.rec, &faults);
        int enabled = (int)r(2);
        describe("tactile_node_set_accommodations(%p, %" PRIu64 ", %d)", (void *)a.r, node, enabled);
        CALL(a, st, tactile_node_set_accommodations(a.r, node, enabled));
        expect(st, allowed_for(&a, faults, 0, BIT(TACTILE_OK)), &a);
        return;
    }
    case 1: {
        uint32_t ms = one_in(3) ? 0 : one_in(2) ? (uint32_t)next64() : 200 + r(3801);
        if (ms != 0 && (ms < 200 || ms > 4000)) faults |= BIT(TACTILE_ERROR_INVALID);
        describe("tactile_set_secondary_click(%p, %u)", (void *)a.r, ms);
        CALL(a, st, tactile_set_secondary_click(a.r, ms));
        expect(st, allowed_for(&a, faults, 0, BIT(TACTILE_OK)), &a);
        return;
    }
    case 2: {
        size_t count = tactile_ring_count(a.r);
        size_t index = one_in(3) ? (size_t)next64() : count;
        struct tactile_ring ring;
        describe("tactile_get_ring(%p, %zu) of %zu", (void *)a.r, index, count);
        CALL(a, st, tactile_get_ring(a.r, index, one_in(10) ? NULL : &ring));
        unsigned allowed = BIT(TACTILE_OK) | BIT(TACTILE_ERROR_INVALID);
        if (st == TACTILE_OK && !(isfinite(ring.x) && isfinite(ring.y) && ring.end_usec >= ring.start_usec))
            fail("ring %zu at %g,%g from %llu to %llu", index, ring.x, ring.y, (unsigned long long)ring.start_usec,
                 (unsigned long long)ring.end_usec);
        expect(st, allowed_for(&a, 0, allowed, allowed), &a);
        return;
    }
    case 3: {
        static const char *texts[] = {
            "accessibility:\n  hold-duration: 150\n  tap-assistance: initial\n  tap-assistance-delay: 100\n",
            "accessibility:\n  ignore-repeat: 300\n  ignore-repeat-radius: 40\n",
            "accessibility:\n  hold-duration: 5\n",
            "accessibility: [1, 2]\n",
            "accessibility:\n  tap-assistance: off\n  hold-duration: 0\n",
        };
        int k = (int)r(5);
        describe("tactile_load_accommodations_yaml(%p, text %d)", (void *)a.r, k);
        CALL(a, st, tactile_load_accommodations_yaml(a.r, texts[k], strlen(texts[k]), "fuzz.yaml"));
        expect(st, allowed_for(&a, 0, BIT(TACTILE_OK) | BIT(TACTILE_ERROR_CONFIGURATION), BIT(TACTILE_OK)), &a);
        return;
    }
    case 4: {
        switch (r(4)) {
        case 0: {
            struct tactile_zoom_settings z = {one_in(4) ? -1.0 : 1.0 + r(12), one_in(4) ? NAN : 1.0 + r(12)};
            int valid = z.scale >= 1.2 && z.scale <= 10 && z.maximum >= z.scale && z.maximum <= 10;
            int off = one_in(5);
            describe("tactile_set_zoom(%p, %s{%g, %g})", (void *)a.r, off ? "NULL, not " : "", z.scale, z.maximum);
            CALL(a, st, tactile_set_zoom(a.r, off ? NULL : &z));
            expect(st, allowed_for(&a, 0, valid || off ? 0 : BIT(TACTILE_ERROR_INVALID), BIT(TACTILE_OK)), &a);
            break;
        }
        case 1: {
            struct tactile_rect outputs[2] = {{pick_position(), pick_position(), (int32_t)r(3000) - 5, (int32_t)r(3000) - 5},
                                              {0, 0, 1000, 1000}};
            size_t count = r(3);
            describe("tactile_set_zoom_outputs(%p, %zu)", (void *)a.r, count);
            CALL(a, st, tactile_set_zoom_outputs(a.r, outputs, count));
            expect(st, allowed_for(&a, 0, BIT(TACTILE_ERROR_INVALID), BIT(TACTILE_OK)), &a);
            break;
        }
        case 2: {
            struct tactile_rect cursor = {pick_position(), pick_position(), (int32_t)r(100) - 5, (int32_t)r(100) - 5};
            describe("tactile_zoom_follow(%p, %d,%d %dx%d)", (void *)a.r, cursor.x, cursor.y, cursor.width, cursor.height);
            CALL(a, st, tactile_zoom_follow(a.r, &cursor));
            expect(st, allowed_for(&a, 0, BIT(TACTILE_ERROR_INVALID), BIT(TACTILE_OK)), &a);
            break;
        }
        default: {
            struct tactile_zoom z;
            describe("tactile_get_zoom(%p)", (void *)a.r);
            CALL(a, st, tactile_get_zoom(a.r, &z));
            if (st == TACTILE_OK && z.active && !(isfinite(z.scale) && z.scale >= 1 && z.region.width >= 1))
                fail("zoom active at scale %g, region %dx%d", z.scale, z.region.width, z.region.height);
            expect(st, allowed_for(&a, 0, 0, BIT(TACTILE_OK)), &a);
        }
        }
        /* Zoomed, touches land elsewhere and three fingers are cancelled: pairing is the
         * zoom's to keep, not this model's. */
        if (a.rec) a.rec->relaxed = 1;
        return;
    }
    default: break;
    }
    struct tactile_accommodations acc;
    tactile_accommodations_init(&acc);
    uint32_t picks[3];
    for (int i = 0; i < 3; i++) {
        picks[i] = one_in(3) ? 0 : one_in(4) ? (uint32_t)next64() : 50 + r(400);
    }
    acc.hold_duration_ms = picks[0];
    if (acc.hold_duration_ms != 0 && (acc.hold_duration_ms < 100 || acc.hold_duration_ms > 4000)) faults |= BIT(TACTILE_ERROR_INVALID);
    acc.ignore_repeat_ms = picks[1];
    if (acc.ignore_repeat_ms != 0 && (acc.ignore_repeat_ms < 50 || acc.ignore_repeat_ms > 4000)) faults |= BIT(TACTILE_ERROR_INVALID);
    acc.tap_assistance_delay_ms = picks[2];
    if (acc.tap_assistance_delay_ms != 0 && (acc.tap_assistance_delay_ms < 50 || acc.tap_assistance_delay_ms > 4000)) faults |= BIT(TACTILE_ERROR_INVALID);
    acc.tap_assistance = one_in(8) ? (int32_t)(uint32_t)next64() : (int32_t)r(3);
    if (acc.tap_assistance < 0 || acc.tap_assistance > 2) faults |= BIT(TACTILE_ERROR_INVALID);
    unsigned slop_faults = 0;
    acc.hold_slop = pick_distance(&slop_faults);
    if (slop_faults || acc.hold_slop < 1 || acc.hold_slop > 2000) faults |= BIT(TACTILE_ERROR_INVALID);
    describe("tactile_set_accommodations(%p, {hold %u slop %g repeat %u tap %d delay %u})", (void *)a.r, acc.hold_duration_ms, acc.hold_slop,
             acc.ignore_repeat_ms, acc.tap_assistance, acc.tap_assistance_delay_ms);
    CALL(a, st, tactile_set_accommodations(a.r, one_in(20) ? NULL : &acc));
    expect(st, allowed_for(&a, faults, BIT(TACTILE_ERROR_INVALID), BIT(TACTILE_OK)), &a);
}

static void fuzz_pointer(void)
{
    struct router_arg a = pick_router();
    unsigned faults = 0;
    uint64_t t = pick_time(a.rec);
    tactile_status st;
    switch (r(3)) {
    case 0: {
        double x = pick_coord(&faults), y = pick_coord(&faults);
        beyond_screens(x, y, &faults);
        describe("tactile_pointer_motion(%p, %g, %g, %" PRIu64 ")", (void *)a.r, x, y, t);
        CALL(a, st, tactile_pointer_motion(a.r, x, y, t));
        break;
    }
    case 1: {
        uint32_t button = r(4) ? 0x110 + r(3) : (uint32_t)next64();
        int pressed = r(8) ? (int)r(2) : (int)(uint32_t)next64();
        describe("tactile_pointer_button(%p, 0x%x, %d, %" PRIu64 ")", (void *)a.r, button, pressed, t);
        CALL(a, st, tactile_pointer_button(a.r, button, pressed, t));
        break;
    }
    default: {
        struct tactile_axis axis = {(tactile_axis_source)r(5), 0, 0, 0, 0, 0, 0};
        if ((unsigned)axis.source > TACTILE_AXIS_SOURCE_WHEEL_TILT) faults |= BIT(TACTILE_ERROR_INVALID);
        axis.horizontal = pick_coord(&faults);
        axis.vertical = pick_coord(&faults);
        axis.horizontal_value120 = r(4) ? 0 : (int32_t)(uint32_t)next64();
        axis.vertical_value120 = r(2) ? 120 : (int32_t)(uint32_t)next64();
        axis.stop_horizontal = (int)r(2);
        axis.stop_vertical = (int)r(2);
        int null_axis = one_in(15);
        if (null_axis) faults |= BIT(TACTILE_ERROR_INVALID);
        describe("tactile_pointer_axis(%p, %s{source %d, %g, %g}, %" PRIu64 ")", (void *)a.r, null_axis ? "NULL " : "",
                 (int)axis.source, axis.horizontal, axis.vertical, t);
        CALL(a, st, tactile_pointer_axis(a.r, null_axis ? NULL : &axis, t));
    }
    }
    expect(st, allowed_for(&a, faults, went_back(a.rec, t), input_ok), &a);
}

static void fuzz_key(void)
{
    struct router_arg a = pick_router();
    uint64_t t = pick_time(a.rec);
    uint32_t key = r(4) ? 1 + r(60) : (uint32_t)next64();
    int pressed = r(8) ? (int)r(2) : (int)(uint32_t)next64();
    describe("tactile_key(%p, %u, %d, %" PRIu64 ")", (void *)a.r, key, pressed, t);
    tactile_status st;
    CALL(a, st, tactile_key(a.r, key, pressed, t));
    expect(st, allowed_for(&a, 0, went_back(a.rec, t), input_ok), &a);
}

static void fuzz_deadlines(void)
{
    struct router_arg a = pick_router();
    uint64_t next = tactile_next_deadline(a.r);
    if (!a.rec && next != 0) fail("tactile_next_deadline of a dead router is %" PRIu64, next);
    uint64_t now;
    switch (r(4)) {
    case 0: now = next; break;
    case 1: now = next64() % (1ull << 40); break;
    case 2: now = 0; break;
    default: now = a.rec ? a.rec->clock + r(1000000) : next64();
    }
    if (a.rec && now > a.rec->clock) a.rec->clock = now;
    describe("tactile_fire_deadlines(%p, %" PRIu64 ") (next deadline %" PRIu64 ")", (void *)a.r, now, next);
    tactile_status st;
    CALL(a, st, tactile_fire_deadlines(a.r, now));
    expect(st, allowed_for(&a, 0, BIT(TACTILE_ERROR_IGNORED) | BIT(TACTILE_ERROR_INVALID), BIT(TACTILE_OK)), &a);
    if (st == TACTILE_OK && a.rec && next && now >= next && tactile_next_deadline(a.r) == next)
        fail("the deadline %" PRIu64 " is still next after firing at %" PRIu64, next, now);
}

static void fuzz_gesture_add(void)
{
    struct router_arg a = pick_router();
    if (a.rec && a.rec->gesture_count == MAX_GESTURES) return;
    unsigned faults = 0, maybe = 0;
    struct tactile_gesture_desc d;
    uint32_t kind = r(6);
    describe("tactile_gesture_desc_init(desc, %u)", kind);
    tactile_status st = tactile_gesture_desc_init(&d, (tactile_gesture_kind)kind);
    expect(st, kind > TACTILE_GESTURE_TAP ? BIT(TACTILE_ERROR_INVALID) : BIT(TACTILE_OK), NULL);
    if (st != TACTILE_OK) {
        memset(&d, 0, sizeof d);
        d.kind = (tactile_gesture_kind)kind;
        faults |= BIT(TACTILE_ERROR_INVALID);
    }
    /* Named after the kind, for the failure messages; sometimes twice on a router. */
    static const char *const kinds[] = {"edge", "swipe", "pinch", "press", "tap", "bogus"};
    char name[32];
    snprintf(name, sizeof name, "%s%u", kinds[kind], r(20));
    d.name = r(4) ? name : NULL;
    if (r(3) == 0) {
        /* Hostile fields: out of the YAML's ranges, negative, non-finite, unknown enums. */
        static const double odd[] = {-1, 0, 1e300, NAN, INFINITY, 0.5, 5000};
        d.edge = (tactile_edge)r(6);
        d.direction = (tactile_direction)r(9);
        d.fingers = (int32_t)r(14) - 2;
        d.start_band = odd[r(7)];
        d.distance = odd[r(7)];
        d.scale = odd[r(7)];
        d.slop = odd[r(7)];
        d.duration_ms = r(2) ? r(70000) : (uint32_t)next64();
        d.taps = (int32_t)r(14) - 2;
        /* An unknown enum in a field the kind reads is a fault; in one it ignores, the
         * header leaves it open. */
        int bad_edge = (unsigned)d.edge > TACTILE_EDGE_BOTTOM;
        int bad_direction = (unsigned)d.direction > TACTILE_DIRECTION_TOGETHER;
        if ((bad_edge && kind == TACTILE_GESTURE_EDGE_SWIPE) ||
            (bad_direction && (kind == TACTILE_GESTURE_SWIPE || kind == TACTILE_GESTURE_PINCH)))
            faults |= BIT(TACTILE_ERROR_INVALID);
        maybe |= BIT(TACTILE_ERROR_INVALID); /* the other fields may be in range by chance */
    }
    /* Names must be unique in the YAML; the header does not say so of gesture_add. */
    maybe |= BIT(TACTILE_ERROR_INVALID);
    int null_desc = one_in(25);
    if (null_desc) faults |= BIT(TACTILE_ERROR_INVALID);
    tactile_gesture out = 0;
    describe("tactile_gesture_add(%p, %s{kind %u name %s edge %d direction %d fingers %d distance %g})", (void *)a.r,
             null_desc ? "NULL " : "", kind, d.name ? d.name : "NULL", (int)d.edge, (int)d.direction, d.fingers,
             d.distance);
    CALL(a, st, tactile_gesture_add(a.r, null_desc ? NULL : &d, r(5) ? &out : NULL));
    memset(name, 'X', sizeof name - 1); /* "copied": the library must not read it later */
    expect(st, allowed_for(&a, faults, maybe, BIT(TACTILE_OK)), &a);
    if (st == TACTILE_OK && out) a.rec->gestures[a.rec->gesture_count++] = out;
}

static tactile_gesture pick_gesture(struct router_rec *rr, unsigned *faults)
{
    if (rr && rr->gesture_count && r(4)) return rr->gestures[r((uint32_t)rr->gesture_count)];
    tactile_gesture g = r(2) ? 0 : (tactile_gesture)next64();
    for (int i = 0; rr && i < rr->gesture_count; i++)
        if (rr->gestures[i] == g) return g;
    /* A gesture the router does not have: the header names no error for it. */
    *faults |= BIT(TACTILE_ERROR_INVALID) | BIT(TACTILE_ERROR_NO_NODE);
    return g;
}

static void fuzz_gesture_relation(void)
{
    struct router_arg a = pick_router();
    unsigned faults = 0;
    tactile_gesture g1 = pick_gesture(a.rec, &faults), g2 = pick_gesture(a.rec, &faults);
    int simultaneous = (int)r(2);
    describe("tactile_gesture_%s(%p, %u, %u)", simultaneous ? "recognize_simultaneously" : "require_failure",
             (void *)a.r, g1, g2);
    tactile_status st;
    CALL(a, st, simultaneous ? tactile_gesture_recognize_simultaneously(a.r, g1, g2)
                             : tactile_gesture_require_failure(a.r, g1, g2));
    /* A gesture related to itself (requiring its own failure, a cycle of requirements): may be refused. */
    expect(st, allowed_for(&a, faults, BIT(TACTILE_ERROR_INVALID), BIT(TACTILE_OK)), &a);
}

/* A valid configuration with one or two gestures, names unique on its router. */
static size_t valid_yaml(char *text, size_t size, struct router_rec *rr)
{
    static const char *const bodies[] = {
        "    kind: edge-swipe\n    edge: %s\n    run: echo edge\n    when: ended\n",
        "    kind: swipe\n    fingers: 3\n    direction: down\n    distance: 150\n    action: focus-next\n",
        "    kind: pinch\n    fingers: 2\n    direction: apart\n    scale: 1.25\n",
        "    kind: long-press\n    duration: 400\n    cancels-touches-in-view: false\n",
        "    kind: tap\n    taps: 2\n    interval: 250\n    delays-touches-ended: false\n",
    };
    static const char *const edges[] = {"left", "right", "top", "bottom"};
    int load = rr ? rr->yaml_loads++ : 0;
    size_t n = (size_t)snprintf(text, size, "%sgestures:\n", r(2) ? "trace: true\ntouch:\n  pointer-emulation: false\n" : "");
    int two = (int)r(2);
    for (int g = 0; g <= two; g++) {
        n += (size_t)snprintf(text + n, size - n, "  - name: y%d-%d\n", load, g);
        n += (size_t)snprintf(text + n, size - n, bodies[r(5)], edges[r(4)]);
    }
    if (two) n += (size_t)snprintf(text + n, size - n, "    simultaneous-with: [y%d-0]\n", load);
    return n;
}

static void fuzz_yaml(void)
{
    struct router_arg a = pick_router();
    char text[1024];
    size_t length;
    unsigned allowed;
    const char *what;
    switch (r(4)) {
    case 0:
        length = valid_yaml(text, sizeof text, a.rec);
        allowed = BIT(TACTILE_OK);
        what = "valid";
        if (a.rec && a.rec->gesture_count > MAX_GESTURES / 2) allowed |= BIT(TACTILE_ERROR_CONFIGURATION);
        break;
    case 1:
        length = valid_yaml(text, sizeof text, a.rec);
        length = r((uint32_t)length);
        allowed = BIT(TACTILE_OK) | BIT(TACTILE_ERROR_CONFIGURATION);
        what = "truncated";
        break;
    case 2: {
        /* YAML's own characters, mostly, to get past the first byte of the parser. */
        static const char alphabet[] = "gestures:- name kind edge-swipe[]{}&*!|>'\"%@`#,?\n\t  0123456789.";
        length = r(300);
        for (size_t i = 0; i < length; i++) text[i] = alphabet[r(sizeof alphabet - 1)];
        allowed = BIT(TACTILE_OK) | BIT(TACTILE_ERROR_CONFIGURATION);
        what = "garbage";
        break;
    }
    default:
        length = r(300);
        for (size_t i = 0; i < length; i++) text[i] = (char)r(256); /* NULs and invalid UTF-8 too */
        allowed = BIT(TACTILE_OK) | BIT(TACTILE_ERROR_CONFIGURATION);
        what = "bytes";
    }
    int null_text = one_in(30), null_file = one_in(10);
    unsigned faults = 0;
    if (null_text && length) faults |= BIT(TACTILE_ERROR_INVALID);
    if (null_text && !length) allowed |= BIT(TACTILE_ERROR_INVALID);
    if (null_file) allowed |= BIT(TACTILE_ERROR_INVALID); /* "file only names the text": may be refused */
    describe("tactile_gestures_load_yaml(%p, %s %s text, %zu, %s) \"%.*s\"", (void *)a.r, what,
             null_text ? "NULL" : "the", length, null_file ? "NULL" : "\"fuzz.yaml\"", (int)(length < 200 ? length : 200),
             text);
    tactile_status st;
    CALL(a, st, tactile_gestures_load_yaml(a.r, null_text ? NULL : text, length, null_file ? NULL : "fuzz.yaml"));
    expect(st, allowed_for(&a, faults, 0, allowed), &a);
}

static void fuzz_callbacks(void)
{
    struct router_arg a = pick_router();
    uint32_t which = r(3);
    int on = r(4) != 0;
    describe("set %s callback of %p %s", which == 0 ? "event" : which == 1 ? "gesture" : "trace", (void *)a.r,
             on ? "on" : "off");
    void *data = a.rec ? (void *)(intptr_t)a.rec->index : NULL;
    tactile_status st;
    if (which == 0) CALL(a, st, tactile_router_set_event_callback(a.r, on ? on_event : NULL, data));
    else if (which == 1) CALL(a, st, tactile_router_set_gesture_callback(a.r, on ? on_gesture : NULL, data));
    else CALL(a, st, tactile_router_set_trace_callback(a.r, on ? on_trace : NULL, data));
    expect(st, allowed_for(&a, 0, 0, BIT(TACTILE_OK)), &a);
    /* Events dropped: what clients were told is no longer known. */
    if (st == TACTILE_OK && which == 0 && !on) a.rec->relaxed = 1;
}

static void fuzz_router_life(void)
{
    struct router_rec *rr = &routers[r(MAX_ROUTERS)];
    describe("tactile_router_destroy(%p) and tactile_router_create()", (void *)rr->r);
    close_router(rr);
    open_router(rr);
}

static void fuzz_queries(void)
{
    struct router_arg a = pick_router();
    describe("tactile_router_root(%p), tactile_router_error(%p)", (void *)a.r, (void *)a.r);
    tactile_node root = tactile_router_root(a.r);
    if (root != (a.rec ? a.rec->nodes[0].id : 0)) fail("root %" PRIu64, root);
    if (!tactile_router_error(a.r)) fail("tactile_router_error is NULL");
    if (!a.rec && !tactile_router_error(a.r)[0]) fail("no message for a NULL or destroyed router");
}

/* Weighted: scene changes and input most, the rest now and then. */
static const struct {
    void (*run)(void);
    uint32_t weight;
} calls[] = {
    {fuzz_node_add, 14},        {fuzz_node_remove, 4},       {fuzz_node_update, 4},    {fuzz_set_geometry, 5},
    {fuzz_input_region, 3},     {fuzz_restack, 4},           {fuzz_reparent, 4},       {fuzz_user_data, 3},
    {fuzz_hit_test, 6},         {fuzz_capabilities, 3},      {fuzz_disconnect, 1},     {fuzz_pointer_emulation, 1},
    {fuzz_touch, 22},           {fuzz_pointer, 10},          {fuzz_key, 4},            {fuzz_deadlines, 5},
    {fuzz_gesture_add, 2},      {fuzz_gesture_relation, 1},  {fuzz_yaml, 1},           {fuzz_callbacks, 1},
    {fuzz_queries, 1},          {fuzz_device_touch, 12},     {fuzz_touch_filters, 2},  {fuzz_accommodations, 2},
};

int main(int argc, char **argv)
{
    char *end1 = NULL, *end2 = NULL;
    errno = 0;
    if (argc == 3) seed = strtoull(argv[1], &end1, 0);
    long count = argc == 3 ? strtol(argv[2], &end2, 10) : -1;
    if (argc != 3 || errno || *end1 || *end2 || count < 0) {
        fprintf(stderr, "usage: fuzz SEED COUNT\n");
        return 2;
    }
    rng_state = seed;
    setvbuf(stdout, NULL, _IOLBF, 0);
    int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) signal(signals[i], on_crash);

    char prefix[32];
    snprintf(prefix, sizeof prefix, "%d.%d (", TACTILE_VERSION_MAJOR, TACTILE_VERSION_MINOR);
    version_matches = strncmp(tactile_version(), prefix, strlen(prefix)) == 0;

    uint32_t total = 0;
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) total += calls[i].weight;
    for (int i = 0; i < MAX_ROUTERS; i++) open_router(&routers[i]);

    for (call_number = 0; call_number < count; call_number++) {
        if (one_in(2000)) {
            fuzz_router_life();
            continue;
        }
        /* Keep scenes small enough that a hit test stays cheap. */
        for (int i = 0; i < MAX_ROUTERS; i++)
            if (alive_count(&routers[i]) > 400) {
                describe("tactile_router_destroy of a full router");
                close_router(&routers[i]);
                open_router(&routers[i]);
            }
        uint32_t k = r(total);
        size_t c = 0;
        while (k >= calls[c].weight) k -= calls[c++].weight;
        calls[c].run();
    }
    for (int i = 0; i < MAX_ROUTERS; i++) close_router(&routers[i]);
    printf("fuzz done %" PRIu64 " %ld calls, %ld errors answered (%ld calls from inside callbacks)\n", seed, count,
           errors_answered, reentries);
    return 0;
}
