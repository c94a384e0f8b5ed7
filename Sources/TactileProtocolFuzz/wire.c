// Talking to the server with deadlines. libwayland's own wl_display_roundtrip and
// wl_display_dispatch block forever on a hung server; the fuzzer must notice a hang instead.
#include <errno.h>
#include <poll.h>
#include <time.h>

#include "fuzz.h"

int64_t now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

void sleep_ms(int ms) {
    struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000L };
    while (nanosleep(&t, &t) < 0 && errno == EINTR) {}
}

bool wire_flush(struct wl_display *display, int timeout_ms) {
    while (wl_display_flush(display) < 0) {
        // EAGAIN: the socket is full because the server is not reading yet; wait for room.
        if (errno != EAGAIN) return false;
        struct pollfd p = { .fd = wl_display_get_fd(display), .events = POLLOUT };
        if (poll(&p, 1, timeout_ms) <= 0) return false;
    }
    return true;
}

int wire_pump(struct wl_display *display, int timeout_ms, bool flush_first) {
    // Events already queued must be dispatched before libwayland lets us read more.
    while (wl_display_prepare_read(display) != 0)
        if (wl_display_dispatch_pending(display) < 0) return -1;
    // A failed flush is not the end yet: a protocol error may be waiting to be read.
    if (flush_first) wire_flush(display, timeout_ms);
    struct pollfd p = { .fd = wl_display_get_fd(display), .events = POLLIN };
    int ready = poll(&p, 1, timeout_ms);
    if (ready <= 0) {
        wl_display_cancel_read(display);
        return ready == 0 ? 0 : -1;
    }
    if (wl_display_read_events(display) < 0) {
        wl_display_dispatch_pending(display); // delivers a wl_display.error read just before EOF
        return -1;
    }
    return wl_display_dispatch_pending(display) < 0 ? -1 : 1;
}

static void sync_done(void *data, struct wl_callback *callback, uint32_t serial) {
    (void)callback;
    (void)serial;
    *(bool *)data = true;
}

static const struct wl_callback_listener sync_listener = { sync_done };

int wire_roundtrip(struct wl_display *display, int timeout_ms) {
    bool done = false;
    struct wl_callback *callback = wl_display_sync(display);
    if (!callback) return 0;
    wl_callback_add_listener(callback, &sync_listener, &done);
    int64_t deadline = now_ms() + timeout_ms;
    int result = 1;
    while (!done) {
        int64_t left = deadline - now_ms();
        if (left <= 0) {
            result = -1;
            break;
        }
        if (wire_pump(display, (int)left, true) < 0) {
            result = 0;
            break;
        }
    }
    wl_callback_destroy(callback);
    return result;
}
