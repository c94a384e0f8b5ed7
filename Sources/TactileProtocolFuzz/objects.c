// A connection's table of live proxies. Requests pick their target and their object
// arguments from it, so it changes only when we send a request: never on an event.
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static void *grow(void *array, size_t *capacity, size_t element) {
    *capacity = *capacity ? *capacity * 2 : 64;
    void *grown = realloc(array, *capacity * element);
    if (!grown) abort();
    return grown;
}

struct object *object_add(struct conn *c, struct wl_proxy *proxy, const struct wl_interface *iface, uint32_t version) {
    struct object *obj = calloc(1, sizeof *obj);
    if (!obj) abort();
    *obj = (struct object){ .proxy = proxy, .iface = iface, .version = version, .id = wl_proxy_get_id(proxy) };
    if (c->count == c->capacity) c->objects = grow(c->objects, &c->capacity, sizeof *c->objects);
    obj->slot = c->count;
    c->objects[c->count++] = obj;
    events_attach(c, obj);
    return obj;
}

/// Forgets an object whose proxy is already destroyed. Swapping in the last object keeps
/// removal cheap; the order changes deterministically, so replays still agree.
void object_remove(struct conn *c, struct object *obj) {
    struct object *last = c->objects[--c->count];
    c->objects[obj->slot] = last;
    last->slot = obj->slot;
    free(obj);
}

/// The same interface, whichever table made it: wl_surface objects come from the newer core
/// tables (wayland-core.h) while the scripts name libwayland's.
bool interface_is(const struct wl_interface *iface, const struct wl_interface *wanted) {
    return iface == wanted || strcmp(iface->name, wanted->name) == 0;
}

size_t object_count(struct conn *c, const struct wl_interface *iface) {
    size_t n = 0;
    for (size_t i = 0; i < c->count; i++)
        if (interface_is(c->objects[i]->iface, iface)) n++;
    return n;
}

struct object *object_any(struct conn *c, const struct wl_interface *iface) {
    size_t n = object_count(c, iface);
    if (n == 0) return NULL;
    size_t pick = rng_below(&c->rng, (uint32_t)n);
    for (size_t i = 0; i < c->count; i++)
        if (interface_is(c->objects[i]->iface, iface) && pick-- == 0) return c->objects[i];
    return NULL;
}

void objects_clear(struct conn *c) {
    for (size_t i = 0; i < c->count; i++) {
        wl_proxy_destroy(c->objects[i]->proxy);
        free(c->objects[i]);
    }
    for (size_t i = 0; i < c->orphan_count; i++) wl_proxy_destroy(c->orphans[i]);
    free(c->objects);
    free(c->orphans);
    c->objects = NULL;
    c->orphans = NULL;
    c->count = c->capacity = c->orphan_count = c->orphan_capacity = 0;
}

void object_adopt_orphan(struct conn *c, struct wl_proxy *proxy) {
    if (c->orphan_count == c->orphan_capacity) c->orphans = grow(c->orphans, &c->orphan_capacity, sizeof *c->orphans);
    c->orphans[c->orphan_count++] = proxy;
}
