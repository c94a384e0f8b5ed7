// Requests built from interface metadata alone: a request's signature and types[] say what
// each argument is, so one generator covers every interface, ours and libwayland's.
#define _GNU_SOURCE
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

enum { MAX_ARGS = 20, STRING_SIZE = 1024 };

/// A request's arguments and what they own until the request is sent.
struct built {
    const struct wl_message *message;
    union wl_argument args[MAX_ARGS];
    const struct wl_interface *new_iface;
    int fds[MAX_ARGS];
    size_t fd_sizes[MAX_ARGS];
    struct wl_array arrays[MAX_ARGS];
    char strings[2][STRING_SIZE];
    int fd_count, array_count, string_count;
};

/// One argument of a signature: its type letter and whether it may be null.
struct arg_spec {
    char type;
    bool nullable;
};

/// Splits a signature into argument specs; returns how many.
static int parse_signature(const char *signature, struct arg_spec *specs) {
    int n = 0;
    bool nullable = false;
    for (const char *s = signature; *s && n < MAX_ARGS; s++) {
        if (*s >= '0' && *s <= '9') continue;
        if (*s == '?') {
            nullable = true;
            continue;
        }
        specs[n++] = (struct arg_spec){ *s, nullable };
        nullable = false;
    }
    return n;
}

uint32_t message_since(const struct wl_message *message) {
    uint32_t since = 0;
    for (const char *s = message->signature; *s >= '0' && *s <= '9'; s++) since = since * 10 + (uint32_t)(*s - '0');
    return since ? since : 1;
}

bool message_is_destructor(const struct wl_message *message) {
    return strcmp(message->name, "destroy") == 0 || strcmp(message->name, "release") == 0;
}

// ---- values -------------------------------------------------------------------------------

uint32_t recent_serial(struct conn *c) {
    // Always one draw, whatever has arrived: events must not shift the PRNG's stream.
    return c->recent[rng_below(&c->rng, RECENT_VALUES)];
}

static uint32_t random_object_id(struct conn *c) {
    uint32_t pick = rng_below(&c->rng, 1 << 16);
    return c->count ? c->objects[pick % c->count]->id : 1;
}

int32_t edge_int(struct conn *c) {
    switch (rng_below(&c->rng, 13)) {
    case 0: return 0;
    case 1: return 1;
    case 2: return -1;
    case 3: return INT32_MIN;
    case 4: return INT32_MAX;
    case 5: return 2147483000;
    case 6: return -2147483000;
    case 7: return (int32_t)rng_below(&c->rng, 16);
    case 8: return (int32_t)rng_below(&c->rng, 2048);
    case 9: return -(int32_t)rng_below(&c->rng, 2048);
    case 10: return (int32_t)random_object_id(c);
    case 11: return (int32_t)(1 << rng_below(&c->rng, 31));
    default: return (int32_t)rng_next(&c->rng);
    }
}

uint32_t edge_uint(struct conn *c) {
    switch (rng_below(&c->rng, 11)) {
    case 0: return 0;
    case 1: return 1;
    case 2: return UINT32_MAX;
    case 3: return 0x80000000u;
    case 4: return 2147483000u;
    case 5: return rng_below(&c->rng, 16); // enum values and bit sets
    case 6:
    case 7: return recent_serial(c);
    case 8: return random_object_id(c);
    case 9: return rng_below(&c->rng, 0x300); // evdev key and button codes
    default: return (uint32_t)rng_next(&c->rng);
    }
}

wl_fixed_t edge_fixed(struct conn *c) {
    switch (rng_below(&c->rng, 8)) {
    case 0: return 0;
    case 1: return INT32_MIN;
    case 2: return INT32_MAX;
    case 3: return wl_fixed_from_int(-(int)rng_below(&c->rng, 64));
    case 4: return (wl_fixed_t)rng_next(&c->rng);
    default: return (wl_fixed_t)rng_below(&c->rng, 1400 * 256); // on the output, with fractions
    }
}

static const char *random_string(struct conn *c, bool nullable, char *buffer) {
    switch (rng_below(&c->rng, 8)) {
    case 0:
        if (nullable) return NULL;
        return "";
    case 1: return "";
    case 2: return "text/plain;charset=utf-8";
    case 3: {
        // Long, but well under libwayland's 4096-byte message limit.
        size_t n = rng_below(&c->rng, STRING_SIZE - 24);
        memset(buffer, 'x', n);
        buffer[n] = 0;
        return buffer;
    }
    case 4: {
        // Bytes that are not UTF-8, and printf directives.
        size_t n = 1 + rng_below(&c->rng, 64);
        for (size_t i = 0; i < n; i++) buffer[i] = (char)(1 + rng_below(&c->rng, 255));
        buffer[n] = 0;
        return buffer;
    }
    case 5: return "%s%n%x";
    default: return "tactile-fuzz";
    }
}

int make_memfd(size_t size) {
    int fd = memfd_create("tactile-fuzz", MFD_CLOEXEC);
    if (fd < 0) return -1;
    if (ftruncate(fd, (off_t)size) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static size_t random_file_size(struct conn *c) {
    static const size_t sizes[] = { 0, 1, 4096, 65536, 1 << 20 };
    uint32_t roll = rng_below(&c->rng, 7);
    return roll < 5 ? sizes[roll] : rng_below(&c->rng, 4 << 20);
}

// ---- building arguments -------------------------------------------------------------------

static void built_release(struct built *b) {
    for (int i = 0; i < b->fd_count; i++) close(b->fds[i]);
    for (int i = 0; i < b->array_count; i++) wl_array_release(&b->arrays[i]);
    b->fd_count = b->array_count = 0;
}

static int add_fd(struct built *b, size_t size) {
    int fd = make_memfd(size);
    if (fd >= 0) {
        b->fd_sizes[b->fd_count] = size;
        b->fds[b->fd_count++] = fd;
    }
    return fd;
}

static struct wl_array *add_array(struct conn *c, struct built *b) {
    struct wl_array *array = &b->arrays[b->array_count++];
    wl_array_init(array);
    static const size_t sizes[] = { 0, 3, 4, 8 };
    uint32_t roll = rng_below(&c->rng, 5);
    size_t n = roll < 4 ? sizes[roll] : rng_below(&c->rng, 256);
    uint8_t *bytes = wl_array_add(array, n);
    for (size_t i = 0; bytes && i < n; i++) bytes[i] = (uint8_t)rng_next(&c->rng);
    return array;
}

/// An object argument: mostly one of the expected interface, sometimes null where allowed,
/// sometimes any object at all (a wrong interface, which the server must refuse).
static bool random_object_arg(struct conn *c, const struct wl_interface *type, bool nullable, struct object **out) {
    uint32_t roll = rng_below(&c->rng, 100);
    *out = NULL;
    if (nullable && roll < 10) return true;
    if (roll < 16) {
        uint32_t pick = rng_below(&c->rng, 1 << 16);
        if (c->count) *out = c->objects[pick % c->count];
        return *out != NULL || nullable;
    }
    *out = type ? object_any(c, type) : NULL;
    return *out != NULL || nullable;
}

/// An int: after an fd in the same request it is most likely that file's size (wl_shm's
/// create_pool and resize), sometimes more than the file holds.
static int32_t random_int_arg(struct conn *c, const struct built *b) {
    if (b->fd_count > 0) {
        size_t size = b->fd_sizes[b->fd_count - 1];
        uint32_t roll = rng_below(&c->rng, 100);
        if (roll < 60) return (int32_t)size;
        if (roll < 75) return (int32_t)(size + 1 + rng_below(&c->rng, 1 << 16));
    }
    return edge_int(c);
}

static bool build_random_args(struct conn *c, const struct wl_message *message, struct built *b) {
    struct arg_spec specs[MAX_ARGS];
    int n = parse_signature(message->signature, specs);
    b->message = message;
    for (int i = 0; i < n; i++) {
        union wl_argument *arg = &b->args[i];
        switch (specs[i].type) {
        case 'i': arg->i = random_int_arg(c, b); break;
        case 'u': arg->u = edge_uint(c); break;
        case 'f': arg->f = edge_fixed(c); break;
        case 's': arg->s = random_string(c, specs[i].nullable, b->strings[b->string_count++ % 2]); break;
        case 'a': arg->a = add_array(c, b); break;
        case 'h':
            arg->h = add_fd(b, random_file_size(c));
            if (arg->h < 0) return false;
            break;
        case 'n':
            // An untyped new_id is wl_registry.bind's: only the initial binding sends it.
            if (!message->types[i]) return false;
            b->new_iface = message->types[i];
            arg->o = NULL;
            break;
        case 'o': {
            struct object *obj;
            if (!random_object_arg(c, message->types[i], specs[i].nullable, &obj)) return false;
            arg->o = obj ? (struct wl_object *)obj->proxy : NULL;
            break;
        }
        default: return false;
        }
    }
    return true;
}

// ---- logging ------------------------------------------------------------------------------

static void append(char *line, size_t size, const char *format, ...) {
    size_t used = strlen(line);
    if (used >= size) return;
    va_list ap;
    va_start(ap, format);
    vsnprintf(line + used, size - used, format, ap);
    va_end(ap);
}

static void append_proxy(char *line, size_t size, struct wl_proxy *proxy) {
    if (proxy) append(line, size, "%s@%u", wl_proxy_get_class(proxy), wl_proxy_get_id(proxy));
    else append(line, size, "NULL");
}

/// Prints `interface@id.request(args)`, in a form that can be turned back into a test.
static void log_request(struct conn *c, const char *target, uint32_t target_id, const struct built *b, struct wl_proxy *made) {
    char line[1400] = "";
    struct arg_spec specs[MAX_ARGS];
    int n = parse_signature(b->message->signature, specs);
    append(line, sizeof line, "c%u #%u %s@%u.%s(", c->index, c->requests, target, target_id, b->message->name);
    for (int i = 0; i < n; i++) {
        const union wl_argument *arg = &b->args[i];
        if (i) append(line, sizeof line, ", ");
        switch (specs[i].type) {
        case 'i': append(line, sizeof line, "%d", arg->i); break;
        case 'u': append(line, sizeof line, "%u", arg->u); break;
        case 'f': append(line, sizeof line, "%.4f", wl_fixed_to_double(arg->f)); break;
        case 's':
            if (arg->s) append(line, sizeof line, "\"%.48s\"%s", arg->s, strlen(arg->s) > 48 ? "…" : "");
            else append(line, sizeof line, "NULL");
            break;
        case 'a': append(line, sizeof line, "array[%zu]", arg->a->size); break;
        case 'h': {
            struct stat st;
            append(line, sizeof line, "fd(size %lld)", fstat(arg->h, &st) == 0 ? (long long)st.st_size : -1LL);
            break;
        }
        case 'n': append(line, sizeof line, "new "), append_proxy(line, sizeof line, made); break;
        case 'o': append_proxy(line, sizeof line, (struct wl_proxy *)arg->o); break;
        }
    }
    fprintf(stderr, "%s)\n", line);
}

// ---- sending ------------------------------------------------------------------------------

static bool can_send(struct conn *c) {
    return !c->broken && c->requests < c->budget;
}

static int find_request(const struct object *target, const char *name) {
    for (int i = 0; i < target->iface->method_count; i++)
        if (strcmp(target->iface->methods[i].name, name) == 0)
            return message_since(&target->iface->methods[i]) <= target->version ? i : -1;
    return -1;
}

/// Marshals the request, keeps the object table in step with it, and flushes most of the
/// time (not always, so that an abrupt disconnect may still drop a few requests).
static struct object *send_built(struct conn *c, struct object *target, uint32_t opcode, struct built *b) {
    bool destructor = message_is_destructor(b->message);
    uint32_t flags = destructor ? WL_MARSHAL_FLAG_DESTROY : 0;
    const char *target_class = target->iface->name;
    uint32_t target_id = target->id;
    struct wl_proxy *made =
        wl_proxy_marshal_array_flags(target->proxy, opcode, b->new_iface, target->version, flags, b->args);
    c->requests++;
    c->stats->requests++;
    if (c->verbose) log_request(c, target_class, target_id, b, made);
    uint32_t version = target->version;
    if (destructor) object_remove(c, target);
    struct object *result = made ? object_add(c, made, b->new_iface, version) : (destructor ? NULL : target);
    if (rng_chance(&c->rng, 75) && !wire_flush(c->display, 2000)) c->broken = true;
    return result;
}

void send_random_request(struct conn *c) {
    // A few tries to land on an object with a request to send at its version.
    for (int attempt = 0; attempt < 8 && c->count && can_send(c); attempt++) {
        struct object *target = c->objects[rng_below(&c->rng, (uint32_t)c->count)];
        if (target->iface->method_count == 0) continue;
        uint32_t opcode = rng_below(&c->rng, (uint32_t)target->iface->method_count);
        const struct wl_message *message = &target->iface->methods[opcode];
        if (message_since(message) > target->version) continue;
        // A destructor ends the object's usefulness to later requests: send few of them.
        if (message_is_destructor(message) && !rng_chance(&c->rng, 25)) continue;
        struct built b = { 0 };
        if (build_random_args(c, message, &b)) send_built(c, target, opcode, &b);
        built_release(&b);
        return;
    }
}

/// Fills `b` from the caller's variadic arguments; false when the request must not go out.
static bool build_given_args(struct built *b, const struct wl_message *message, va_list ap) {
    struct arg_spec specs[MAX_ARGS];
    int n = parse_signature(message->signature, specs);
    b->message = message;
    for (int i = 0; i < n; i++) {
        union wl_argument *arg = &b->args[i];
        switch (specs[i].type) {
        case 'i': arg->i = va_arg(ap, int32_t); break;
        case 'u': arg->u = va_arg(ap, uint32_t); break;
        case 'f': arg->f = va_arg(ap, wl_fixed_t); break;
        case 's': arg->s = va_arg(ap, const char *); break;
        case 'a': arg->a = va_arg(ap, struct wl_array *); break;
        case 'h': arg->h = va_arg(ap, int); break; // the caller owns and closes it
        case 'n':
            b->new_iface = message->types[i];
            arg->o = NULL;
            if (!b->new_iface) return false;
            break;
        case 'o': {
            struct object *obj = va_arg(ap, struct object *);
            arg->o = obj ? (struct wl_object *)obj->proxy : NULL;
            // libwayland aborts the whole client on a null non-nullable object.
            if (!obj && !specs[i].nullable) return false;
            break;
        }
        }
        if (specs[i].type == 's' && !arg->s && !specs[i].nullable) return false;
        if (specs[i].type == 'h' && arg->h < 0) return false;
    }
    return true;
}

struct object *call(struct conn *c, struct object *target, const char *request, ...) {
    if (!target || !can_send(c)) return NULL;
    int opcode = find_request(target, request);
    if (opcode < 0) return NULL;
    struct built b = { 0 };
    va_list ap;
    va_start(ap, request);
    bool ok = build_given_args(&b, &target->iface->methods[opcode], ap);
    va_end(ap);
    return ok ? send_built(c, target, (uint32_t)opcode, &b) : NULL;
}
