// TactileProtocolFuzz: connects to `tactile serve --test-input` again and again, binds every
// global, sends random and scripted requests, and after each connection checks with a fresh
// one that the server still answers. Usage: see usage() below, or scripts/fuzz.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

enum {
    MAX_REQUESTS_PER_CONNECTION = 200,
    DEFAULT_REQUESTS = 10000,
    MAX_CRASHES_KEPT = 1024,
};

/// How long the server may take to answer wl_display.sync before it counts as hung: 2 s, more
/// where the server runs emulated (the QEMU guest's llvmpipe takes seconds over a 4096² upload).
static int probe_timeout_ms = 2000;

struct options {
    uint64_t seed;
    unsigned long requests;
    double duration;
    long connection; // -1: all of them
    const char *socket;
    const char *server;
    bool under_gdb, verbose;
    unsigned max_crashes; // 0: no limit
    unsigned clients;     // connections at once (1: one after another, each probed)
    unsigned sample_every_s;
    double flat_percent;  // 0: memory not judged
};

struct crash {
    unsigned connection;
    bool hang;
    char signature[240];
};

struct fuzzer {
    struct options options;
    const char *program;
    struct stats stats;
    bool own_server;
    struct server server;
    struct crash crashes[MAX_CRASHES_KEPT];
    unsigned crash_count;
    struct concurrent_run concurrent;
    /// Why the run failed other than by a crash or hang (memory grew, input misrouted).
    const char *failure;
};

enum ending { END_ROUNDTRIP, END_ABRUPT, END_FLUSH_THEN_CLOSE, END_SLEEP_THEN_CLOSE };
static const char *const ending_names[] = { "roundtrip", "abrupt disconnect", "flush then disconnect",
                                            "sleep then disconnect" };

// ---- counting -----------------------------------------------------------------------------

static void tally_many(struct stats *stats, const char *key, unsigned count) {
    for (unsigned i = 0; i < stats->error_kinds; i++)
        if (strcmp(stats->errors[i].key, key) == 0) {
            stats->errors[i].count += count;
            return;
        }
    if (stats->error_kinds == sizeof stats->errors / sizeof stats->errors[0]) return;
    struct tally *t = &stats->errors[stats->error_kinds++];
    snprintf(t->key, sizeof t->key, "%s", key);
    t->count = count;
}

static void tally(struct stats *stats, const char *key) {
    tally_many(stats, key, 1);
}

void stats_merge(struct stats *into, const struct stats *from) {
    into->connections += from->connections;
    into->requests += from->requests;
    for (int i = 0; i < 4; i++) into->endings[i] += from->endings[i];
    for (unsigned i = 0; i < from->error_kinds; i++) tally_many(into, from->errors[i].key, from->errors[i].count);
}

/// Counts how the connection ended on the server's side: a protocol error (the server doing
/// its job) by interface and code, or another disconnect.
static void tally_error(struct conn *c) {
    static const char *const display_errors[] = { "invalid_object", "invalid_method", "no_memory", "implementation" };
    int error = wl_display_get_error(c->display);
    char key[96];
    if (!error) return;
    // wl_display's own errors show as EINVAL or ENOMEM, the others as EPROTO; all of them
    // leave the interface and code behind.
    const struct wl_interface *iface = NULL;
    uint32_t id;
    uint32_t code = wl_display_get_protocol_error(c->display, &iface, &id);
    if (iface == &wl_display_interface && code < 4)
        snprintf(key, sizeof key, "wl_display error %u (%s)", code, display_errors[code]);
    else if (iface || error == EPROTO)
        snprintf(key, sizeof key, "%s error %u", iface ? iface->name : "(destroyed object)", code);
    else
        snprintf(key, sizeof key, "disconnected: %s", strerror(error));
    tally(c->stats, key);
}

// ---- one connection -----------------------------------------------------------------------

/// The globals the fuzzer knows how to bind, by interface name.
static const struct wl_interface *const bindable[] = {
    // wl_compositor 6, wl_shm 2 and wl_seat 9: the newer tables, so their surfaces, pools
    // and pointers speak (and hear) those versions' messages (wl_shm's release).
    &tactile_core_wl_compositor_interface,
    &wl_subcompositor_interface,
    &tactile_core_wl_shm_interface,
    &tactile_core_wl_seat_interface,
    &wl_output_interface,
    &wl_data_device_manager_interface,
    &wl_shell_interface,
    &xdg_wm_base_interface,
    &zxdg_shell_v6_interface,
    &tactile_test_input_v1_interface,
    &tactile_edge_deferral_manager_v1_interface,
    &wp_viewporter_interface,
    &zxdg_output_manager_v1_interface,
    &zwlr_screencopy_manager_v1_interface,
    &zxdg_decoration_manager_v1_interface,
    &zwlr_layer_shell_v1_interface,
    &zwp_virtual_keyboard_manager_v1_interface,
    &zwp_text_input_manager_v3_interface,
    &zwp_input_method_manager_v2_interface,
    &zwlr_foreign_toplevel_manager_v1_interface,
    &zwlr_virtual_pointer_manager_v1_interface,
    &zwlr_output_manager_v1_interface,
    &wp_single_pixel_buffer_manager_v1_interface,
    &wp_cursor_shape_manager_v1_interface,
    &wp_fractional_scale_manager_v1_interface,
    &zwp_idle_inhibit_manager_v1_interface,
    &ext_idle_notifier_v1_interface,
    &zwlr_output_power_manager_v1_interface,
    &ext_session_lock_manager_v1_interface,
    &wp_presentation_interface,
    &zwp_input_timestamps_manager_v1_interface,
    &xdg_activation_v1_interface,
    &wp_security_context_manager_v1_interface,
    &zwp_primary_selection_device_manager_v1_interface,
    &gtk_primary_selection_device_manager_interface,
    &zwp_relative_pointer_manager_v1_interface,
    &zwp_pointer_constraints_v1_interface,
    &zwp_pointer_gestures_v1_interface,
    &zwp_tablet_manager_v2_interface,
    &tactile_inspector_v1_interface,
    &ext_foreign_toplevel_list_v1_interface,
    &ext_output_image_capture_source_manager_v1_interface,
    &ext_foreign_toplevel_image_capture_source_manager_v1_interface,
    &ext_image_copy_capture_manager_v1_interface,
    &wp_alpha_modifier_v1_interface,
    &wp_content_type_manager_v1_interface,
    &wp_tearing_control_manager_v1_interface,
    &xdg_system_bell_v1_interface,
    &xdg_wm_dialog_v1_interface,
    &zwp_keyboard_shortcuts_inhibit_manager_v1_interface,
    &xdg_toplevel_icon_manager_v1_interface,
    &wp_fifo_manager_v1_interface,
    &wp_commit_timing_manager_v1_interface,
    &weston_touch_calibration_interface,
    &tactile_touchscreen_mapper_v1_interface,
    &zwlr_data_control_manager_v1_interface,
    &ext_data_control_manager_v1_interface,
    &wl_fixes_interface,
    &xdg_toplevel_tag_manager_v1_interface,
    // Its seats are wl_seat globals that come and go while other connections bind them.
    &ext_transient_seat_manager_v1_interface,
    // Offered only where the renderer imports dmabufs (a GPU, or llvmpipe on a DRM device:
    // the QEMU guest's fuzz run); its params then get memfds and hostile planes and sizes.
    &zwp_linux_dmabuf_v1_interface,
};

struct globals {
    struct global {
        uint32_t name, version;
        const struct wl_interface *iface;
    } list[64];
    int count;
};

static void on_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)registry;
    struct globals *globals = data;
    // A global announced after the first round trip (a transient seat, an output) is not
    // bound: the list it would go in is gone.
    if (!globals) return;
    for (size_t i = 0; i < sizeof bindable / sizeof bindable[0]; i++)
        if (strcmp(bindable[i]->name, interface) == 0 && globals->count < 64)
            globals->list[globals->count++] = (struct global){ name, version, bindable[i] };
}

static void on_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data, (void)registry, (void)name;
}

static const struct wl_registry_listener registry_listener = { on_global, on_global_remove };

/// Binds every global at the version both sides know (now and then an older one, or twice).
static void bind_globals(struct conn *c) {
    struct globals globals = { 0 };
    c->registry = wl_display_get_registry(c->display);
    wl_registry_add_listener(c->registry, &registry_listener, &globals);
    int answered = wire_roundtrip(c->display, probe_timeout_ms);
    wl_proxy_set_user_data((struct wl_proxy *)c->registry, NULL);
    if (answered != 1) {
        c->broken = true;
        return;
    }
    for (int i = 0; i < globals.count; i++) {
        const struct global *g = &globals.list[i];
        uint32_t version = g->version < (uint32_t)g->iface->version ? g->version : (uint32_t)g->iface->version;
        if (rng_chance(&c->rng, 10)) version = 1 + rng_below(&c->rng, version);
        for (int copies = rng_chance(&c->rng, 10) ? 2 : 1; copies > 0; copies--) {
            struct wl_proxy *proxy = wl_registry_bind(c->registry, g->name, g->iface, version);
            struct object *obj = object_add(c, proxy, g->iface, version);
            c->stats->requests++;
            if (c->verbose) fprintf(stderr, "c%u bind %s v%u as %s@%u\n", c->index, g->iface->name, version, g->iface->name, obj->id);
        }
    }
    // A second registry, with no listener, for wl_fixes.destroy_registry to destroy; binds
    // stay on the first.
    object_add(c, (struct wl_proxy *)wl_display_get_registry(c->display), &wl_registry_interface, 1);
}

static void step(struct conn *c) {
    if (c->scripts_only || rng_chance(&c->rng, 45)) run_random_script(c);
    else send_random_request(c);
    // Read events now and then: serials come in, and the server's buffers never fill up.
    if (rng_chance(&c->rng, 10) && wire_pump(c->display, 0, false) < 0) c->broken = true;
    if (wl_display_get_error(c->display)) c->broken = true;
}

static void finish(struct conn *c, enum ending ending, int linger_ms) {
    c->stats->endings[ending]++;
    if (c->verbose) fprintf(stderr, "c%u end after %u requests: %s%s\n", c->index, c->requests, ending_names[ending], c->broken ? " (connection already broken)" : "");
    if (!c->broken) {
        switch (ending) {
        case END_ROUNDTRIP: wire_roundtrip(c->display, probe_timeout_ms); break;
        case END_ABRUPT: break; // whatever libwayland still buffers is lost, as in a crash
        case END_FLUSH_THEN_CLOSE: wire_flush(c->display, probe_timeout_ms); break;
        case END_SLEEP_THEN_CLOSE:
            // Longer than the server's 16 ms frame timer: it fires with our objects alive.
            wire_flush(c->display, probe_timeout_ms);
            sleep_ms(linger_ms);
            break;
        }
    }
    // Learn of a protocol error without sending anything more.
    if (!wl_display_get_error(c->display)) wire_pump(c->display, c->broken ? 50 : 0, false);
}

void fuzz_connection(const char *socket, uint64_t seed, unsigned index, bool verbose, struct stats *stats) {
    struct conn c = { .index = index, .verbose = verbose, .stats = stats };
    c.rng = rng_for_connection(seed, index);
    c.budget = 1 + rng_below(&c.rng, MAX_REQUESTS_PER_CONNECTION);
    enum ending ending = (enum ending)rng_below(&c.rng, 4);
    int linger_ms = 20 + (int)rng_below(&c.rng, 21);
    // Random requests soon earn a protocol error; some connections go deeper without them.
    c.scripts_only = rng_chance(&c.rng, 30);
    stats->connections++;
    c.display = wl_display_connect(socket);
    if (!c.display) {
        tally(stats, "cannot connect");
        return;
    }
    bind_globals(&c);
    // Scripts and requests may find nothing to send (every global destroyed): cap the steps.
    for (unsigned steps = 0; !c.broken && c.requests < c.budget && steps < 4 * c.budget + 64; steps++) step(&c);
    finish(&c, ending, linger_ms);
    tally_error(&c);
    objects_clear(&c);
    if (c.registry) wl_registry_destroy(c.registry);
    wl_display_disconnect(c.display);
}

static void run_connection(struct fuzzer *f, unsigned index) {
    fuzz_connection(f->options.socket, f->options.seed, index, f->options.verbose, &f->stats);
}

// ---- failures -----------------------------------------------------------------------------

static void print_replay(const struct fuzzer *f, unsigned index) {
    if (f->own_server)
        printf("  replay: %s --server %s --seed %llu --connection %u --verbose\n", f->program, f->options.server,
               (unsigned long long)f->options.seed, index);
    else
        printf("  replay: %s --socket %s --seed %llu --connection %u --verbose\n", f->program, f->options.socket,
               (unsigned long long)f->options.seed, index);
}

/// After a failed probe: reports the crash or hang and restarts our server when the run may
/// go on. Returns whether it goes on.
static bool handle_failure(struct fuzzer *f, unsigned index, enum probe_result result) {
    char what[200];
    struct crash crash = { .connection = index, .hang = result == PROBE_HUNG };
    if (f->own_server) {
        server_reap(&f->server, crash.hang, what, sizeof what);
        crash.hang = strncmp(what, "hung", 4) == 0;
        server_crash_signature(&f->server, crash.signature, sizeof crash.signature);
    } else {
        snprintf(what, sizeof what, "%s", crash.hang ? "hung: no answer to wl_display.sync within the probe's timeout"
                                                     : "is gone: connection refused or closed");
        snprintf(crash.signature, sizeof crash.signature, "%s", what);
    }
    if (f->crash_count < MAX_CRASHES_KEPT) f->crashes[f->crash_count] = crash;
    f->crash_count++;
    printf("\n%s #%u: the server %s, after connection %u of seed %llu\n", crash.hang ? "HANG" : "CRASH", f->crash_count,
           what, index, (unsigned long long)f->options.seed);
    print_replay(f, index);
    if (f->own_server) {
        printf("  crash site: %s\n", crash.signature);
        server_print_log(&f->server);
    }
    fflush(stdout);
    if (!f->own_server || (f->options.max_crashes && f->crash_count >= f->options.max_crashes)) return false;
    if (server_start(&f->server)) return true;
    printf("cannot restart the server (%s)\n", f->server.log_path);
    return false;
}

// ---- the run ------------------------------------------------------------------------------

static bool budget_left(const struct fuzzer *f, int64_t start) {
    if (f->options.requests && f->stats.requests >= f->options.requests) return false;
    if (f->options.duration > 0 && (double)(now_ms() - start) >= f->options.duration * 1000) return false;
    return true;
}

/// Each distinct crash site once, with how often it came and the first connection to replay.
static void print_distinct_failures(const struct fuzzer *f) {
    unsigned kept = f->crash_count < MAX_CRASHES_KEPT ? f->crash_count : MAX_CRASHES_KEPT;
    if (kept) printf("distinct failures (how many, where, the first seed and connection to replay):\n");
    for (unsigned i = 0; i < kept; i++) {
        bool seen = false;
        unsigned times = 0;
        for (unsigned j = 0; j < kept; j++) {
            bool same = strcmp(f->crashes[i].signature, f->crashes[j].signature) == 0;
            seen |= same && j < i;
            times += same;
        }
        if (!seen)
            printf("  %4u x %s at %s  (--seed %llu --connection %u)\n", times, f->crashes[i].hang ? "hang " : "crash",
                   f->crashes[i].signature, (unsigned long long)f->options.seed, f->crashes[i].connection);
    }
}

/// Most frequent first, then by name.
static int by_count(const void *a, const void *b) {
    const struct tally *x = a, *y = b;
    if (x->count != y->count) return x->count < y->count ? 1 : -1;
    return strcmp(x->key, y->key);
}

static void print_concurrent(const struct concurrent_run *r) {
    printf("%u clients at once beside %lu input events; the witness (no input region) got %lu touch downs or pointer enters\n",
           r->clients, r->input_events, r->witness_violations);
    printf("probe round trips: %zu, median %lld ms, 99th percentile %lld ms, worst %lld ms, %zu over 50 ms\n", r->probe_count,
           (long long)r->probe_p50_ms, (long long)r->probe_p99_ms, (long long)r->probe_worst_ms, r->probes_slow);
    if (r->sample_count) {
        printf("server resident memory every %u s (MB):", r->sample_every_s);
        for (unsigned i = 0; i < r->sample_count; i++) printf(" %.1f", r->samples_kb[i] / 1024.0);
        printf("\n");
    }
    if (r->rss_after_kb) printf("server resident memory after every client left: %.1f MB\n", r->rss_after_kb / 1024.0);
}

/// The soak's judgement: the last sample within flat_percent of the one a third of the way
/// through the run (the first sample is the server before its first client). The hostile
/// load reaches its high-water mark (the most objects its clients hold at once, which the
/// heap keeps) within the first minutes; on a busy machine (CI runs the soak beside two
/// sanitizer builds) a minute in is not enough: one run read 29.4 MB at one minute, then
/// 33.0 to 33.4 MB, flat, from the third to the tenth. A leak still shows over the last two
/// thirds: 10% in seven minutes of ten.
static const char *memory_grew(const struct fuzzer *f) {
    const struct concurrent_run *r = &f->concurrent;
    if (f->options.flat_percent <= 0) return NULL;
    if (r->sample_count < 3) return "too few memory samples to judge growth (run longer than two sample intervals)";
    unsigned base = (r->sample_count - 1) / 3;
    if (base < 1) base = 1;
    double baseline = (double)r->samples_kb[base], last = (double)r->samples_kb[r->sample_count - 1];
    static char why[200];
    if (last <= baseline * (1 + f->options.flat_percent / 100)) return NULL;
    snprintf(why, sizeof why, "memory grew: last sample %.1f MB is more than %.0f%% above sample %u (a third of the way), %.1f MB", last / 1024,
             f->options.flat_percent, base + 1, baseline / 1024);
    return why;
}

static void print_summary(const struct fuzzer *f, double seconds) {
    unsigned hangs = 0;
    for (unsigned i = 0; i < f->crash_count && i < MAX_CRASHES_KEPT; i++) hangs += f->crashes[i].hang;
    printf("\n== protocol fuzz summary ==\n");
    printf("seed %llu: %u connections, %lu requests, %.1f s\n", (unsigned long long)f->options.seed,
           f->stats.connections, f->stats.requests, seconds);
    printf("endings:");
    for (int i = 0; i < 4; i++) printf("%s %u %s", i ? "," : "", f->stats.endings[i], ending_names[i]);
    printf("\nconnections ended by the server (protocol errors by interface and code, other disconnects):\n");
    struct tally sorted[sizeof f->stats.errors / sizeof f->stats.errors[0]];
    memcpy(sorted, f->stats.errors, sizeof sorted);
    qsort(sorted, f->stats.error_kinds, sizeof sorted[0], by_count);
    for (unsigned i = 0; i < f->stats.error_kinds; i++) printf("  %6u  %s\n", sorted[i].count, sorted[i].key);
    print_distinct_failures(f);
    if (f->options.clients > 1) print_concurrent(&f->concurrent);
    if (f->stats.rss_start_kb)
        printf("server resident memory: %.1f MB at the start, %.1f MB at most, %.1f MB at the end (after every connection closed)\n",
               f->stats.rss_start_kb / 1024.0, f->stats.rss_peak_kb / 1024.0, f->stats.rss_last_kb / 1024.0);
    printf("result: %u crashes, %u hangs%s%s\n", f->crash_count - hangs, hangs, f->failure ? ", " : "", f->failure ? f->failure : "");
}

/// Removes our runtime directory (logs, socket) when nothing there is worth keeping.
static void remove_runtime_dir(const char *path) {
    DIR *dir = opendir(path);
    if (!dir) return;
    char file[512];
    for (struct dirent *entry; (entry = readdir(dir));) {
        if (entry->d_name[0] == '.') continue;
        snprintf(file, sizeof file, "%s/%s", path, entry->d_name);
        unlink(file);
    }
    closedir(dir);
    rmdir(path);
}

static unsigned long own_server_rss(const void *server) {
    return server_rss_kb(server);
}

static void run_many_at_once(struct fuzzer *f) {
    struct concurrent_run *r = &f->concurrent;
    *r = (struct concurrent_run){ .socket = f->options.socket, .seed = f->options.seed, .duration = f->options.duration,
                                  .clients = f->options.clients, .sample_every_s = f->options.sample_every_s };
    if (f->own_server) {
        r->rss = own_server_rss;
        r->rss_context = &f->server;
        f->stats.rss_start_kb = server_rss_kb(&f->server);
    }
    enum probe_result result = run_concurrent(r, &f->stats);
    if (r->ended[0]) printf("%s\n", r->ended);
    if (result != PROBE_ALIVE) {
        printf("connections in flight when the server failed (each replays alone, but the failure may need the others):");
        for (unsigned w = 0; w < r->clients; w++) printf(" %u", r->in_flight[w]);
        printf("\n");
        f->options.max_crashes = 1; // the others' connections are lost: no restart
        handle_failure(f, r->in_flight[0], result);
        return;
    }
    f->stats.rss_last_kb = r->rss_after_kb;
    if (r->witness_violations) f->failure = "the witness received input meant for other clients";
    else f->failure = memory_grew(f);
}

static int run(struct fuzzer *f) {
    int64_t start = now_ms();
    if (f->options.clients > 1 && f->options.connection < 0) {
        run_many_at_once(f);
    } else if (f->options.connection >= 0) {
        run_connection(f, (unsigned)f->options.connection);
        enum probe_result result = probe(f->options.socket, probe_timeout_ms);
        if (result != PROBE_ALIVE) handle_failure(f, (unsigned)f->options.connection, result);
    } else {
        if (f->own_server) f->stats.rss_start_kb = server_rss_kb(&f->server);
        for (unsigned index = 0; budget_left(f, start); index++) {
            run_connection(f, index);
            enum probe_result result = probe(f->options.socket, probe_timeout_ms);
            if (result != PROBE_ALIVE && !handle_failure(f, index, result)) break;
            if (f->own_server) {
                f->stats.rss_last_kb = server_rss_kb(&f->server);
                if (f->stats.rss_last_kb > f->stats.rss_peak_kb) f->stats.rss_peak_kb = f->stats.rss_last_kb;
            }
        }
    }
    print_summary(f, (double)(now_ms() - start) / 1000);
    return f->crash_count || f->failure ? 1 : 0;
}

// ---- command line -------------------------------------------------------------------------

static void usage(FILE *out) {
    fprintf(out,
            "usage: TactileProtocolFuzz [--server PATH | --socket NAME] [options]\n"
            "  --server PATH       start `PATH serve --test-input` ourselves, restart it after a crash\n"
            "  --socket NAME       the server's socket (default: $WAYLAND_DISPLAY; with --server, our own)\n"
            "  --seed S            master seed (default: random, printed)\n"
            "  --requests N        request budget (default %d unless --duration is given)\n"
            "  --duration SECONDS  time budget\n"
            "  --connection I      replay only connection I of the seed\n"
            "  --max-crashes N     with --server: stop after N crashes or hangs (default 1; 0: never)\n"
            "  --no-gdb            with --server: run it directly, not under gdb (default when gdb is\n"
            "                      installed: gdb prints the crashing thread's stack, Swift's own\n"
            "                      backtracer cannot unwind through libwayland here)\n"
            "  --clients N         N connections at once, each in a worker process, beside an input\n"
            "                      fuzz, a witness window no input may reach and a probe timing round\n"
            "                      trips (needs --duration; default 1: one at a time, each probed)\n"
            "  --sample-every S    with --clients: sample the server's memory every S seconds (default 60)\n"
            "  --flat PERCENT      with --clients: fail when the last memory sample is more than PERCENT\n"
            "                      above the one a third of the way through (the soak's judgement)\n"
            "  --probe-timeout MS  how long an answer to wl_display.sync may take before the server\n"
            "                      counts as hung (default 2000)\n"
            "  --verbose           log every request to stderr as interface@id.request(args)\n",
            DEFAULT_REQUESTS);
}

static bool parse_options(int argc, char **argv, struct options *o) {
    static const struct option longs[] = {
        { "seed", required_argument, 0, 's' },      { "requests", required_argument, 0, 'r' },
        { "duration", required_argument, 0, 'd' },  { "connection", required_argument, 0, 'c' },
        { "socket", required_argument, 0, 'S' },    { "server", required_argument, 0, 'x' },
        { "max-crashes", required_argument, 0, 'm' }, { "no-gdb", no_argument, 0, 'g' },
        { "verbose", no_argument, 0, 'v' },         { "help", no_argument, 0, 'h' },
        { "clients", required_argument, 0, 'n' },   { "sample-every", required_argument, 0, 'e' },
        { "flat", required_argument, 0, 'f' },     { "probe-timeout", required_argument, 0, 'p' },
        { 0, 0, 0, 0 },
    };
    *o = (struct options){ .seed = ((uint64_t)now_ms() << 20) ^ (uint64_t)getpid(), .connection = -1, .max_crashes = 1,
                          .clients = 1, .sample_every_s = 60 };
    o->under_gdb = system("command -v gdb >/dev/null 2>&1") == 0;
    for (int opt; (opt = getopt_long(argc, argv, "", longs, NULL)) != -1;) {
        switch (opt) {
        case 's': o->seed = strtoull(optarg, NULL, 0); break;
        case 'p': probe_timeout_ms = (int)strtol(optarg, NULL, 0); if (probe_timeout_ms < 100) probe_timeout_ms = 100; break;
        case 'r': o->requests = strtoul(optarg, NULL, 0); break;
        case 'd': o->duration = strtod(optarg, NULL); break;
        case 'c': o->connection = strtol(optarg, NULL, 0); break;
        case 'S': o->socket = optarg; break;
        case 'x': o->server = optarg; break;
        case 'm': o->max_crashes = (unsigned)strtoul(optarg, NULL, 0); break;
        case 'g': o->under_gdb = false; break;
        case 'v': o->verbose = true; break;
        case 'n': o->clients = (unsigned)strtoul(optarg, NULL, 0); break;
        case 'e': o->sample_every_s = (unsigned)strtoul(optarg, NULL, 0); break;
        case 'f': o->flat_percent = strtod(optarg, NULL); break;
        case 'h': usage(stdout); exit(0);
        default: return false;
        }
    }
    if (o->clients < 1 || o->clients > MAX_CLIENTS || o->sample_every_s < 1) return false;
    if (o->clients > 1 && (o->duration <= 0 || o->requests)) {
        fprintf(stderr, "--clients runs for a --duration, not a number of requests\n");
        return false;
    }
    if (!o->requests && o->duration <= 0) o->requests = DEFAULT_REQUESTS;
    if (!o->socket && !o->server) o->socket = getenv("WAYLAND_DISPLAY");
    return optind == argc && (o->socket || o->server);
}

static void log_libwayland(const char *format, va_list args) {
    fprintf(stderr, "libwayland: ");
    vfprintf(stderr, format, args);
}

static void quiet(const char *format, va_list args) {
    (void)format, (void)args;
}

/// Makes a private XDG_RUNTIME_DIR for our server and starts it.
static bool start_own_server(struct fuzzer *f, char *socket, size_t size) {
    struct server *s = &f->server;
    snprintf(s->runtime_dir, sizeof s->runtime_dir, "/tmp/tactile-fuzz-XXXXXX");
    if (!mkdtemp(s->runtime_dir)) return false;
    setenv("XDG_RUNTIME_DIR", s->runtime_dir, 1);
    if (!f->options.socket) {
        snprintf(socket, size, "tactile-fuzz-%d", (int)getpid());
        f->options.socket = socket;
    }
    s->executable = f->options.server;
    s->socket = f->options.socket;
    s->under_gdb = f->options.under_gdb;
    f->own_server = true;
    return server_start(s);
}

int main(int argc, char **argv) {
    struct fuzzer f = { .program = argv[0] };
    if (!parse_options(argc, argv, &f.options)) {
        usage(stderr);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    // libwayland-client prints every protocol error; the summary counts them instead.
    wl_log_set_handler_client(f.options.verbose ? log_libwayland : quiet);
    setvbuf(stdout, NULL, _IOLBF, 0);
    char socket[64];
    if (f.options.server && !start_own_server(&f, socket, sizeof socket)) {
        fprintf(stderr, "cannot start %s (log: %s)\n", f.options.server, f.server.log_path);
        server_print_log(&f.server);
        return 2;
    }
    printf("fuzzing %s with seed %llu\n", f.options.socket, (unsigned long long)f.options.seed);
    int status = run(&f);
    if (f.own_server) {
        if (!server_stop(&f.server)) {
            printf("the server did not exit cleanly on SIGTERM (log: %s)\n", f.server.log_path);
            server_print_log(&f.server);
            f.crash_count++;
            status = 1;
        }
        if (f.crash_count == 0) remove_runtime_dir(f.server.runtime_dir);
        else printf("server logs kept in %s\n", f.server.runtime_dir);
    }
    return status;
}
