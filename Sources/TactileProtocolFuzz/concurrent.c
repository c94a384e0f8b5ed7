// Many hostile clients at once: worker processes run connections of their own against the one
// server while this process injects random input through the test protocol, keeps a witness
// window that no input may reach, times a probe's round trips and samples the server's
// memory. Workers are processes, not threads, because libwayland-client's connections and
// the fuzzer's tables are not shared, and a worker's abort must not end the run.
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"

enum { PROBE_EVERY_MS = 100, ROUNDTRIP_TIMEOUT_MS = 2000, SLOW_ROUNDTRIP_MS = 50, WORKER_EXIT_MS = 15000 };
enum { BTN_LEFT = 0x110, KEY_A = 30 };

struct shared *shared;

void shared_token_put(const char *token) {
    if (!shared) return;
    unsigned slot = __atomic_fetch_add(&shared->token_next, 1, __ATOMIC_RELAXED) % SHARED_TOKENS;
    // Another process may read the slot while it changes: a torn token is one more invalid
    // token for the server, and the reader always ends it.
    snprintf(shared->tokens[slot], sizeof shared->tokens[slot], "%s", token);
}

bool shared_token_any(struct rng *rng, char *token, size_t size) {
    if (!shared) return false;
    unsigned next = __atomic_load_n(&shared->token_next, __ATOMIC_RELAXED);
    if (next == 0) return false;
    unsigned slot = rng_below(rng, next < SHARED_TOKENS ? next : SHARED_TOKENS);
    memcpy(token, shared->tokens[slot], size < sizeof shared->tokens[slot] ? size : sizeof shared->tokens[slot]);
    token[size - 1] = 0;
    return true;
}

// ---- the witness: a window with an empty input region --------------------------------------

/// Its surface can never be under a touch or the pointer, so a down or an enter for it is
/// another client's input delivered to the wrong client.
struct witness {
    struct wl_display *display;
    struct wl_compositor *compositor;
    struct wl_shm *shm;
    struct xdg_wm_base *wm_base;
    struct wl_seat *seat;
    struct wl_surface *surface;
    struct xdg_surface *xdg_surface;
    struct xdg_toplevel *toplevel;
    struct wl_touch *touch;
    struct wl_pointer *pointer;
    struct wl_buffer *buffer;
    uint32_t configure_serial;
    bool configured;
    unsigned long violations;
};

static void witness_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)version;
    struct witness *w = data;
    if (strcmp(interface, wl_compositor_interface.name) == 0)
        w->compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 4);
    else if (strcmp(interface, wl_shm_interface.name) == 0)
        w->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
    else if (strcmp(interface, xdg_wm_base_interface.name) == 0)
        w->wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
    else if (strcmp(interface, wl_seat_interface.name) == 0 && !w->seat)
        w->seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
}

static void witness_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data, (void)registry, (void)name;
}

static const struct wl_registry_listener witness_registry = { witness_global, witness_global_remove };

static void witness_ping(void *data, struct xdg_wm_base *wm_base, uint32_t serial) {
    (void)data;
    xdg_wm_base_pong(wm_base, serial);
}

static const struct xdg_wm_base_listener witness_wm_base = { witness_ping };

static void witness_configure(void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
    (void)xdg_surface;
    struct witness *w = data;
    w->configure_serial = serial;
    w->configured = true;
}

static const struct xdg_surface_listener witness_xdg_surface = { witness_configure };

static void touch_down(void *data, struct wl_touch *touch, uint32_t serial, uint32_t time, struct wl_surface *surface,
                       int32_t id, wl_fixed_t x, wl_fixed_t y) {
    (void)touch, (void)serial, (void)time, (void)surface, (void)id, (void)x, (void)y;
    ((struct witness *)data)->violations++;
}
static void touch_up(void *data, struct wl_touch *touch, uint32_t serial, uint32_t time, int32_t id) {
    (void)data, (void)touch, (void)serial, (void)time, (void)id;
}
static void touch_motion(void *data, struct wl_touch *touch, uint32_t time, int32_t id, wl_fixed_t x, wl_fixed_t y) {
    (void)data, (void)touch, (void)time, (void)id, (void)x, (void)y;
}
static void touch_frame(void *data, struct wl_touch *touch) {
    (void)data, (void)touch;
}
static void touch_cancel(void *data, struct wl_touch *touch) {
    (void)data, (void)touch;
}

static const struct wl_touch_listener witness_touch = { touch_down, touch_up, touch_motion, touch_frame, touch_cancel, NULL, NULL };

static void pointer_enter(void *data, struct wl_pointer *pointer, uint32_t serial, struct wl_surface *surface, wl_fixed_t x,
                          wl_fixed_t y) {
    (void)pointer, (void)serial, (void)surface, (void)x, (void)y;
    ((struct witness *)data)->violations++;
}
static void pointer_leave(void *data, struct wl_pointer *pointer, uint32_t serial, struct wl_surface *surface) {
    (void)data, (void)pointer, (void)serial, (void)surface;
}
static void pointer_motion(void *data, struct wl_pointer *pointer, uint32_t time, wl_fixed_t x, wl_fixed_t y) {
    (void)data, (void)pointer, (void)time, (void)x, (void)y;
}
static void pointer_button(void *data, struct wl_pointer *pointer, uint32_t serial, uint32_t time, uint32_t button,
                           uint32_t state) {
    (void)data, (void)pointer, (void)serial, (void)time, (void)button, (void)state;
}
static void pointer_axis(void *data, struct wl_pointer *pointer, uint32_t time, uint32_t axis, wl_fixed_t value) {
    (void)data, (void)pointer, (void)time, (void)axis, (void)value;
}

static const struct wl_pointer_listener witness_pointer = { pointer_enter, pointer_leave, pointer_motion, pointer_button, pointer_axis };

static void witness_capabilities(void *data, struct wl_seat *seat, uint32_t capabilities) {
    struct witness *w = data;
    if ((capabilities & WL_SEAT_CAPABILITY_TOUCH) && !w->touch) {
        w->touch = wl_seat_get_touch(seat);
        wl_touch_add_listener(w->touch, &witness_touch, w);
    }
    if ((capabilities & WL_SEAT_CAPABILITY_POINTER) && !w->pointer) {
        w->pointer = wl_seat_get_pointer(seat);
        wl_pointer_add_listener(w->pointer, &witness_pointer, w);
    }
}

static const struct wl_seat_listener witness_seat = { witness_capabilities, NULL };

/// Maps an opaque 400×300 toplevel whose input region is empty. False when the server
/// lacks what it needs or does not answer.
static bool witness_start(struct witness *w, const char *socket) {
    w->display = wl_display_connect(socket);
    if (!w->display) return false;
    struct wl_registry *registry = wl_display_get_registry(w->display);
    wl_registry_add_listener(registry, &witness_registry, w);
    if (wire_roundtrip(w->display, ROUNDTRIP_TIMEOUT_MS) != 1 || !w->compositor || !w->shm || !w->wm_base || !w->seat)
        return false;
    xdg_wm_base_add_listener(w->wm_base, &witness_wm_base, w);
    wl_seat_add_listener(w->seat, &witness_seat, w);
    w->surface = wl_compositor_create_surface(w->compositor);
    struct wl_region *nothing = wl_compositor_create_region(w->compositor);
    wl_surface_set_input_region(w->surface, nothing);
    wl_region_destroy(nothing);
    w->xdg_surface = xdg_wm_base_get_xdg_surface(w->wm_base, w->surface);
    xdg_surface_add_listener(w->xdg_surface, &witness_xdg_surface, w);
    w->toplevel = xdg_surface_get_toplevel(w->xdg_surface);
    xdg_toplevel_set_title(w->toplevel, "fuzz witness");
    wl_surface_commit(w->surface);
    for (int64_t deadline = now_ms() + ROUNDTRIP_TIMEOUT_MS; !w->configured;)
        if (now_ms() > deadline || wire_pump(w->display, 100, true) < 0) return false;
    enum { WIDTH = 400, HEIGHT = 300, STRIDE = WIDTH * 4 };
    int fd = make_memfd(STRIDE * HEIGHT);
    if (fd < 0) return false;
    uint32_t *pixels = mmap(NULL, STRIDE * HEIGHT, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (pixels != MAP_FAILED) {
        for (int i = 0; i < WIDTH * HEIGHT; i++) pixels[i] = 0xff3060a0;
        munmap(pixels, STRIDE * HEIGHT);
    }
    struct wl_shm_pool *pool = wl_shm_create_pool(w->shm, fd, STRIDE * HEIGHT);
    w->buffer = wl_shm_pool_create_buffer(pool, 0, WIDTH, HEIGHT, STRIDE, WL_SHM_FORMAT_XRGB8888);
    wl_shm_pool_destroy(pool);
    close(fd);
    xdg_surface_ack_configure(w->xdg_surface, w->configure_serial);
    wl_surface_attach(w->surface, w->buffer, 0, 0);
    wl_surface_damage(w->surface, 0, 0, WIDTH, HEIGHT);
    wl_surface_commit(w->surface);
    return wire_roundtrip(w->display, ROUNDTRIP_TIMEOUT_MS) == 1;
}

// ---- input fuzz: random touches, pointer and keys through the test protocol ----------------

struct input_fuzz {
    struct wl_display *display;
    struct tactile_test_input_v1 *input;
    struct rng rng;
    uint32_t fingers; // a bit per touch id that is down
    bool pen_in, pen_down;
    bool pads; // the server takes pad events (test input version 4)
    bool times; // the server takes script times (test input version 6)
    unsigned long events;
};

static void input_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    struct input_fuzz *in = data;
    if (strcmp(interface, tactile_test_input_v1_interface.name) == 0) {
        in->input = wl_registry_bind(registry, name, &tactile_test_input_v1_interface, version < 6 ? version : 6);
        in->pads = version >= 4;
        in->times = version >= 6;
    }
}

static const struct wl_registry_listener input_registry = { input_global, witness_global_remove };

static bool input_start(struct input_fuzz *in, const char *socket, uint64_t seed) {
    in->rng = rng_for_connection(seed, UINT64_MAX);
    in->display = wl_display_connect(socket);
    if (!in->display) return false;
    wl_registry_add_listener(wl_display_get_registry(in->display), &input_registry, in);
    return wire_roundtrip(in->display, ROUNDTRIP_TIMEOUT_MS) == 1 && in->input;
}

/// Mostly on the output (where windows are), sometimes anywhere a fixed can say.
static wl_fixed_t input_coordinate(struct input_fuzz *in, int extent) {
    if (rng_chance(&in->rng, 3)) return (wl_fixed_t)rng_next(&in->rng);
    return wl_fixed_from_int((int)rng_below(&in->rng, (uint32_t)extent)) + (wl_fixed_t)rng_below(&in->rng, 256);
}

/// A burst of up to 16 events: whole touch sequences most of the time, nonsense now and then
/// (a motion or up for a touch that is not down, a second down).
static bool input_burst(struct input_fuzz *in) {
    for (uint32_t n = 1 + rng_below(&in->rng, 16); n > 0; n--, in->events++) {
        int32_t id = (int32_t)rng_below(&in->rng, 5);
        bool down = in->fingers & (1u << id);
        // Script times anywhere in 2^39 us, back and forth: stamped times jump days ahead
        // and never go back. (Past 2^40 from the first is a protocol error, left to the
        // request fuzzer: it would end this connection.)
        if (in->times && rng_chance(&in->rng, 5)) {
            uint64_t t = rng_next(&in->rng) & ((UINT64_C(1) << 39) - 1);
            tactile_test_input_v1_set_time(in->input, (uint32_t)(t >> 32), (uint32_t)t);
        }
        bool sane = rng_chance(&in->rng, 95);
        switch (rng_below(&in->rng, 12)) {
        case 0: case 1: case 2:
            if (down && sane) tactile_test_input_v1_touch_motion(in->input, id, input_coordinate(in, 1280), input_coordinate(in, 720));
            else if (!down || !sane) {
                tactile_test_input_v1_touch_down(in->input, id, input_coordinate(in, 1280), input_coordinate(in, 720));
                in->fingers |= 1u << id;
            }
            tactile_test_input_v1_touch_frame(in->input);
            break;
        case 3:
            if (down || !sane) tactile_test_input_v1_touch_up(in->input, id);
            in->fingers &= ~(1u << id);
            tactile_test_input_v1_touch_frame(in->input);
            break;
        case 4:
            if (rng_chance(&in->rng, 10)) {
                tactile_test_input_v1_touch_cancel(in->input, id);
                in->fingers &= ~(1u << id);
            }
            break;
        case 5: case 6:
            tactile_test_input_v1_pointer_motion(in->input, input_coordinate(in, 1280), input_coordinate(in, 720));
            break;
        case 7:
            tactile_test_input_v1_pointer_button(in->input, BTN_LEFT + rng_below(&in->rng, 3), rng_below(&in->rng, 2));
            break;
        case 8:
            tactile_test_input_v1_key(in->input, KEY_A + rng_below(&in->rng, 20), rng_below(&in->rng, 2));
            break;
        case 10: // a pen: in, strokes with pressure and tilt, out; now and then out of order
            if (!in->pen_in || !sane) {
                tactile_test_input_v1_pen_proximity_in(in->input, 1, input_coordinate(in, 1280), input_coordinate(in, 720));
                in->pen_in = true;
            } else if (rng_chance(&in->rng, 20)) {
                tactile_test_input_v1_pen_proximity_out(in->input, 1);
                in->pen_in = in->pen_down = false;
            } else {
                tactile_test_input_v1_pen_tip(in->input, 1, in->pen_down ? 0 : 1);
                in->pen_down = !in->pen_down;
            }
            break;
        case 11:
            tactile_test_input_v1_pen_motion(in->input, 1, input_coordinate(in, 1280), input_coordinate(in, 720),
                                             wl_fixed_from_int(1) * (int)rng_below(&in->rng, 2), input_coordinate(in, 60), input_coordinate(in, 60));
            if (rng_chance(&in->rng, 10)) tactile_test_input_v1_pen_button(in->input, 1, 0x14b, rng_below(&in->rng, 2));
            // A pad's button, ring or strip, at any value, on one of two pads.
            if (in->pads && rng_chance(&in->rng, 30)) {
                int32_t pad = 1 + (int32_t)rng_below(&in->rng, 2);
                uint32_t control = rng_below(&in->rng, 6), touching = rng_below(&in->rng, 2);
                switch (rng_below(&in->rng, 3)) {
                case 0: tactile_test_input_v1_pad_button(in->input, pad, control, touching); break;
                case 1: tactile_test_input_v1_pad_ring(in->input, pad, control, input_coordinate(in, 360), touching); break;
                default: tactile_test_input_v1_pad_strip(in->input, pad, control, (wl_fixed_t)rng_next(&in->rng), touching); break;
                }
            }
            break;
        default:
            tactile_test_input_v1_pointer_axis(in->input, input_coordinate(in, 64), input_coordinate(in, 64),
                                               (int32_t)rng_below(&in->rng, 480) - 240, (int32_t)rng_below(&in->rng, 480) - 240);
            break;
        }
    }
    return wire_flush(in->display, ROUNDTRIP_TIMEOUT_MS) && wire_pump(in->display, 0, false) >= 0;
}

// ---- the run -------------------------------------------------------------------------------

/// Why one of our own connections ended: a protocol error is our bug, not the server's death.
static void describe_end(struct wl_display *display, const char *who, char *what, size_t size) {
    const struct wl_interface *iface = NULL;
    uint32_t id = 0;
    int error = wl_display_get_error(display);
    uint32_t code = error == EPROTO ? wl_display_get_protocol_error(display, &iface, &id) : 0;
    if (error == EPROTO)
        snprintf(what, size, "%s got protocol error %u on %s@%u", who, code, iface ? iface->name : "?", id);
    else
        snprintf(what, size, "%s failed: %s", who, error ? strerror(error) : "no answer in time");
}

static void worker(const struct concurrent_run *run, unsigned w) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    struct stats *stats = &shared->stats[w];
    for (unsigned index = w; !__atomic_load_n(&shared->stop, __ATOMIC_RELAXED); index += run->clients) {
        __atomic_store_n(&shared->current[w], index, __ATOMIC_RELAXED);
        fuzz_connection(run->socket, run->seed, index, false, stats);
    }
    _exit(0);
}

/// Waits for every worker, killing those still running after WORKER_EXIT_MS.
static void reap_workers(const pid_t *pids, unsigned count) {
    __atomic_store_n(&shared->stop, 1, __ATOMIC_RELAXED);
    unsigned left = count;
    for (int64_t deadline = now_ms() + WORKER_EXIT_MS; left && now_ms() < deadline; sleep_ms(10))
        while (left && waitpid(-1, NULL, WNOHANG) > 0) left--;
    if (!left) return;
    for (unsigned w = 0; w < count; w++) kill(pids[w], SIGKILL);
    while (left && waitpid(-1, NULL, 0) > 0) left--;
}

static int by_value(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

enum probe_result run_concurrent(struct concurrent_run *run, struct stats *totals) {
    shared = mmap(NULL, sizeof *shared + run->clients * sizeof shared->stats[0], PROT_READ | PROT_WRITE,
                  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) {
        shared = NULL;
        return PROBE_DEAD;
    }
    struct witness witness = { 0 };
    struct input_fuzz input = { 0 };
    struct wl_display *prober = wl_display_connect(run->socket);
    if (!witness_start(&witness, run->socket) || !input_start(&input, run->socket, run->seed) || !prober) {
        fprintf(stderr, "cannot start the witness, the input fuzz or the probe on %s\n", run->socket);
        return PROBE_DEAD;
    }
    pid_t pids[MAX_CLIENTS];
    for (unsigned w = 0; w < run->clients; w++) {
        pids[w] = fork();
        if (pids[w] == 0) worker(run, w);
    }
    size_t probe_capacity = 1024;
    int64_t *roundtrips = malloc(probe_capacity * sizeof *roundtrips);
    enum probe_result result = PROBE_ALIVE;
    int64_t start = now_ms(), next_probe = start, next_sample = start;
    while (now_ms() - start < (int64_t)(run->duration * 1000)) {
        if (!input_burst(&input)) {
            describe_end(input.display, "the input fuzz's connection", run->ended, sizeof run->ended);
            break;
        }
        if (wire_pump(witness.display, 0, true) < 0) {
            describe_end(witness.display, "the witness's connection", run->ended, sizeof run->ended);
            break;
        }
        if (now_ms() >= next_sample && run->sample_count < MAX_SAMPLES) {
            run->samples_kb[run->sample_count++] = run->rss ? run->rss(run->rss_context) : 0;
            next_sample += (int64_t)run->sample_every_s * 1000;
        }
        if (now_ms() < next_probe) {
            sleep_ms(2);
            continue;
        }
        next_probe = now_ms() + PROBE_EVERY_MS;
        int64_t before = now_ms();
        int answer = wire_roundtrip(prober, ROUNDTRIP_TIMEOUT_MS);
        if (answer != 1) {
            describe_end(prober, "the probe's connection", run->ended, sizeof run->ended);
            result = answer == 0 ? PROBE_DEAD : PROBE_HUNG;
            break;
        }
        if (run->probe_count == probe_capacity) roundtrips = realloc(roundtrips, (probe_capacity *= 2) * sizeof *roundtrips);
        roundtrips[run->probe_count++] = now_ms() - before;
        if (run->rss) {
            unsigned long rss = run->rss(run->rss_context);
            if (rss > totals->rss_peak_kb) totals->rss_peak_kb = rss;
        }
    }
    // A connection that failed before its time (not a probe) says the server went too.
    if (result == PROBE_ALIVE && now_ms() - start < (int64_t)(run->duration * 1000)) result = PROBE_DEAD;
    for (unsigned w = 0; w < run->clients; w++) run->in_flight[w] = __atomic_load_n(&shared->current[w], __ATOMIC_RELAXED);
    reap_workers(pids, run->clients);
    if (result == PROBE_ALIVE && run->sample_count < MAX_SAMPLES && run->rss)
        run->samples_kb[run->sample_count++] = run->rss(run->rss_context);
    run->witness_violations = witness.violations;
    run->input_events = input.events;
    wl_display_disconnect(witness.display);
    wl_display_disconnect(input.display);
    wl_display_disconnect(prober);
    for (unsigned w = 0; w < run->clients; w++) stats_merge(totals, &shared->stats[w]);
    qsort(roundtrips, run->probe_count, sizeof *roundtrips, by_value);
    if (run->probe_count) {
        run->probe_p50_ms = roundtrips[run->probe_count / 2];
        run->probe_p99_ms = roundtrips[run->probe_count * 99 / 100];
        run->probe_worst_ms = roundtrips[run->probe_count - 1];
        for (size_t i = 0; i < run->probe_count; i++) run->probes_slow += roundtrips[i] > SLOW_ROUNDTRIP_MS;
    }
    free(roundtrips);
    if (result == PROBE_ALIVE) {
        // Every client has gone: what the server still holds is what it kept.
        result = probe(run->socket, ROUNDTRIP_TIMEOUT_MS);
        sleep_ms(2000);
        if (run->rss) run->rss_after_kb = run->rss(run->rss_context);
    }
    munmap(shared, sizeof *shared + run->clients * sizeof shared->stats[0]);
    shared = NULL;
    return result;
}
