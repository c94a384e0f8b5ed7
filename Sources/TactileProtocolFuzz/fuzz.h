// TactileProtocolFuzz: a hostile Wayland client that sends random, metadata-driven requests
// to `tactile serve --test-input` and checks after every connection that the server still
// answers. Everything random comes from a PRNG derived from (master seed, connection index),
// so one connection can be replayed alone.
#ifndef TACTILE_PROTOCOL_FUZZ_H
#define TACTILE_PROTOCOL_FUZZ_H

#define WL_HIDE_DEPRECATED 1
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wayland-client.h>

#include "wayland-core.h"
#include "ext-foreign-toplevel-list-v1-client-protocol.h"
#include "ext-image-capture-source-v1-client-protocol.h"
#include "ext-image-copy-capture-v1-client-protocol.h"
#include "alpha-modifier-v1-client-protocol.h"
#include "content-type-v1-client-protocol.h"
#include "tearing-control-v1-client-protocol.h"
#include "xdg-system-bell-v1-client-protocol.h"
#include "xdg-dialog-v1-client-protocol.h"
#include "keyboard-shortcuts-inhibit-unstable-v1-client-protocol.h"
#include "xdg-toplevel-icon-v1-client-protocol.h"
#include "fifo-v1-client-protocol.h"
#include "commit-timing-v1-client-protocol.h"
#include "tactile-edge-deferral-v1-client-protocol.h"
#include "tactile-test-input-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"
#include "xdg-shell-unstable-v6-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "xdg-output-unstable-v1-client-protocol.h"
#include "wlr-output-management-unstable-v1-client-protocol.h"
#include "single-pixel-buffer-v1-client-protocol.h"
#include "tablet-unstable-v2-client-protocol.h"
#include "cursor-shape-v1-client-protocol.h"
#include "fractional-scale-v1-client-protocol.h"
#include "wlr-screencopy-unstable-v1-client-protocol.h"
#include "xdg-decoration-unstable-v1-client-protocol.h"
#include "tactile-inspector-v1-client-protocol.h"
#include "weston-touch-calibration-client-protocol.h"
#include "tactile-touchscreen-mapping-v1-client-protocol.h"
#include "wlr-data-control-unstable-v1-client-protocol.h"
#include "ext-data-control-v1-client-protocol.h"
#include "wl-fixes-client-protocol.h"
#include "xdg-toplevel-tag-v1-client-protocol.h"
#include "ext-transient-seat-v1-client-protocol.h"
#include "wlr-layer-shell-unstable-v1-client-protocol.h"
#include "virtual-keyboard-unstable-v1-client-protocol.h"
#include "text-input-unstable-v3-client-protocol.h"
#include "input-method-unstable-v2-client-protocol.h"
#include "wlr-foreign-toplevel-management-unstable-v1-client-protocol.h"
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"
#include "primary-selection-unstable-v1-client-protocol.h"
#include "gtk-primary-selection-client-protocol.h"
#include "relative-pointer-unstable-v1-client-protocol.h"
#include "pointer-constraints-unstable-v1-client-protocol.h"
#include "pointer-gestures-unstable-v1-client-protocol.h"
#include "idle-inhibit-unstable-v1-client-protocol.h"
#include "ext-idle-notify-v1-client-protocol.h"
#include "wlr-output-power-management-unstable-v1-client-protocol.h"
#include "ext-session-lock-v1-client-protocol.h"
#include "presentation-time-client-protocol.h"
#include "input-timestamps-unstable-v1-client-protocol.h"
#include "xdg-activation-v1-client-protocol.h"
#include "security-context-v1-client-protocol.h"
#include "linux-dmabuf-unstable-v1-client-protocol.h"

// ---- rng.c: the PRNG and edge-biased values ----------------------------------------------

struct rng {
    uint64_t state;
};

struct rng rng_for_connection(uint64_t seed, uint64_t index);
uint64_t rng_next(struct rng *rng);
/// Uniform in [0, n); 0 when n is 0.
uint32_t rng_below(struct rng *rng, uint32_t n);
/// True with the given probability in percent.
bool rng_chance(struct rng *rng, uint32_t percent);

// ---- objects.c: a connection and the proxies it owns -------------------------------------

/// One live proxy of ours, with what the generic request builder needs to know about it.
struct object {
    struct wl_proxy *proxy;
    const struct wl_interface *iface;
    uint32_t version;
    uint32_t id;
    /// Where this object sits in its connection's table (for O(1) removal).
    size_t slot;
    /// The serial of the last configure event (xdg_surface, zxdg_surface_v6).
    uint32_t configure_serial;
};

/// Counters kept over the whole run.
struct stats {
    /// The server's resident memory (VmRSS, kB) after its start, at most, and last, sampled
    /// after every connection (our own server only; 0 otherwise).
    unsigned long rss_start_kb, rss_peak_kb, rss_last_kb;
    unsigned connections;
    unsigned long requests;
    unsigned endings[4];
    /// Protocol errors and other disconnects, by "interface.code" or reason.
    struct tally {
        char key[96];
        unsigned count;
    } errors[128];
    unsigned error_kinds;
};

enum { RECENT_VALUES = 16 };

struct conn {
    struct wl_display *display;
    struct wl_registry *registry;
    struct rng rng;
    unsigned index;
    bool verbose;
    struct stats *stats;
    /// The proxies requests may target or name, in creation order.
    struct object **objects;
    size_t count, capacity;
    /// Proxies the server created through an event's new_id (wl_data_offer). Kept apart so
    /// that events, whose timing is not ours, never change what the PRNG picks.
    struct wl_proxy **orphans;
    size_t orphan_count, orphan_capacity;
    /// Serial-like values from events: the first uint of each event (serials come first).
    uint32_t recent[RECENT_VALUES];
    unsigned recent_next;
    /// The serial of the last wl_pointer.button: what grabs, moves and resizes must name.
    uint32_t button_serial;
    /// The last xdg_activation token the server gave us.
    char token[80];
    unsigned requests, budget;
    /// Only scripts, no random requests: a connection that lives long enough to go deep.
    bool scripts_only;
    /// Set when the connection cannot go on: a protocol error, a failed flush, a timeout.
    bool broken;
};

struct object *object_add(struct conn *c, struct wl_proxy *proxy, const struct wl_interface *iface, uint32_t version);
void object_remove(struct conn *c, struct object *obj);
/// A random object of this interface, or NULL if there is none.
struct object *object_any(struct conn *c, const struct wl_interface *iface);
/// How many objects of this interface there are.
size_t object_count(struct conn *c, const struct wl_interface *iface);
bool interface_is(const struct wl_interface *iface, const struct wl_interface *wanted);
/// Keeps a proxy the server created (an event's new_id), only to destroy it at disconnect.
void object_adopt_orphan(struct conn *c, struct wl_proxy *proxy);
/// Destroys every proxy locally (no requests) and frees the tables.
void objects_clear(struct conn *c);

// ---- wire.c: reading, flushing and round trips with timeouts -----------------------------

/// Flushes, waiting for the socket to drain for at most timeout_ms; false on failure.
bool wire_flush(struct wl_display *display, int timeout_ms);
/// Reads and dispatches whatever arrives within timeout_ms (0: only what is already there).
/// Returns -1 when the connection failed, 0 when nothing came, 1 otherwise.
int wire_pump(struct wl_display *display, int timeout_ms, bool flush_first);
/// wl_display_roundtrip with a deadline: 1 answered, 0 connection failed, -1 timed out.
int wire_roundtrip(struct wl_display *display, int timeout_ms);
/// Milliseconds on the monotonic clock.
int64_t now_ms(void);
void sleep_ms(int ms);

// ---- requests.c: building and sending requests -------------------------------------------

/// The request's `since` version, from the digits that start its signature.
uint32_t message_since(const struct wl_message *message);
bool message_is_destructor(const struct wl_message *message);
/// Sends one request of a random object, with arguments generated from its signature.
void send_random_request(struct conn *c);
/// Sends `request` on `target` with arguments given in signature order: 'i' int32_t,
/// 'u' uint32_t, 'f' wl_fixed_t, 's' const char *, 'o' struct object * (NULL only where
/// nullable), 'a' struct wl_array *, 'h' int; 'n' takes no argument. Returns the new object
/// for a constructor, the target otherwise, and NULL when nothing was sent (no target, no
/// such request at this version, a NULL object where none is allowed, budget spent).
struct object *call(struct conn *c, struct object *target, const char *request, ...);
/// Edge-biased values for arguments.
int32_t edge_int(struct conn *c);
uint32_t edge_uint(struct conn *c);
wl_fixed_t edge_fixed(struct conn *c);
/// A recent serial from an event (0 before any came).
uint32_t recent_serial(struct conn *c);
/// An anonymous file of the given size; -1 on failure.
int make_memfd(size_t size);

// ---- scripts.c: request sequences that reach deep server code ----------------------------

/// Runs one randomly chosen script.
void run_random_script(struct conn *c);

// ---- events.c: the dispatcher installed on every proxy of ours ---------------------------

void events_attach(struct conn *c, struct object *obj);

// ---- server.c: starting the server, probing it, reporting its death ----------------------

struct server {
    const char *executable;
    const char *socket;
    bool under_gdb;
    char runtime_dir[256];
    char log_path[320];
    int pid;
    unsigned instance;
};

/// Starts `executable serve --test-input --config RUNTIME/fuzz.yaml --socket NAME` (the
/// file: screens that sleep after a second) and waits until it accepts clients.
bool server_start(struct server *server);

/// The server's resident memory in kB (VmRSS), 0 when unknown.
unsigned long server_rss_kb(const struct server *server);
/// After a failed probe: waits for the server to finish dying (a crashing Swift process
/// prints its backtrace first), kills a hung one, and describes what happened.
void server_reap(struct server *server, bool hung, char *what, size_t size);
/// Stops the server with SIGTERM, as systemd would; false when it did not exit with status 0
/// (a sanitizer's report at exit, a hang on the way out). Not judged under gdb.
bool server_stop(struct server *server);
/// Prints the server's log from the crash report on (or its tail), indented.
void server_print_log(const struct server *server);
/// A one-line name for the crash in the server's log, to tell distinct crashes apart.
void server_crash_signature(const struct server *server, char *signature, size_t size);

enum probe_result { PROBE_ALIVE, PROBE_DEAD, PROBE_HUNG };
/// A fresh connection must round-trip, twice with a frame's wait between, within timeout_ms.
enum probe_result probe(const char *socket, int timeout_ms);

// ---- main.c: one connection, and the counters ---------------------------------------------

/// Connection `index` of the seed: binds every global, sends its requests, ends its way.
void fuzz_connection(const char *socket, uint64_t seed, unsigned index, bool verbose, struct stats *stats);
/// Adds a worker's counters to the run's.
void stats_merge(struct stats *into, const struct stats *from);

// ---- concurrent.c: many hostile clients at once -------------------------------------------

enum { MAX_CLIENTS = 64, MAX_SAMPLES = 4096, SHARED_TOKENS = 16 };

/// What the worker processes share, in one MAP_SHARED mapping made before they fork.
struct shared {
    int stop;
    /// xdg_activation tokens the server gave any client, for any other to use.
    unsigned token_next;
    char tokens[SHARED_TOKENS][80];
    /// The connection each worker is in, to name when the server dies.
    unsigned current[MAX_CLIENTS];
    struct stats stats[]; // one per worker
};

/// Set in a concurrent run (and inherited by its workers), NULL otherwise.
extern struct shared *shared;
/// Keeps an activation token the server handed out; does nothing outside a concurrent run.
void shared_token_put(const char *token);
/// Some client's token, when a concurrent run has seen one.
bool shared_token_any(struct rng *rng, char *token, size_t size);

struct concurrent_run {
    // What to run.
    const char *socket;
    uint64_t seed;
    double duration;
    unsigned clients;
    /// The server's resident memory in kB, sampled every sample_every_s seconds; NULL when
    /// the server is not ours.
    unsigned long (*rss)(const void *context);
    const void *rss_context;
    unsigned sample_every_s;
    // What came of it.
    unsigned long samples_kb[MAX_SAMPLES];
    unsigned sample_count;
    unsigned long rss_after_kb; // after every client left
    unsigned long input_events, witness_violations;
    size_t probe_count, probes_slow;
    int64_t probe_p50_ms, probe_p99_ms, probe_worst_ms;
    unsigned in_flight[MAX_CLIENTS];
    /// Which of our own connections ended the run early, and how ("" when none did).
    char ended[200];
};

/// Runs `clients` worker processes of connections (worker w runs connections w, w + clients,
/// …) beside the input fuzz, the witness and the probe, for `duration` seconds or until the
/// server fails. Workers' counters are added to `totals`.
enum probe_result run_concurrent(struct concurrent_run *run, struct stats *totals);

#endif
