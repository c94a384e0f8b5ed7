// One generic dispatcher for every proxy of ours. It never sends requests and never draws
// from the PRNG, because when an event arrives depends on timing, not on the seed.
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static bool is_xdg_surface(const struct wl_interface *iface) {
    return iface == &xdg_surface_interface || iface == &zxdg_surface_v6_interface;
}

static int on_event(const void *implementation, void *target, uint32_t opcode, const struct wl_message *message,
                    union wl_argument *args) {
    (void)opcode;
    struct conn *c = (struct conn *)implementation;
    struct object *obj = wl_proxy_get_user_data(target);
    bool first_uint = true;
    int arg = 0;
    for (const char *s = message->signature; *s; s++) {
        switch (*s) {
        case 'u':
            // Serials come first in every event that has one (configure, enter, button,
            // key, down, ping), so the first uint is a good stand-in for "a recent serial".
            if (first_uint) {
                c->recent[c->recent_next++ % RECENT_VALUES] = args[arg].u;
                if (is_xdg_surface(obj->iface) && strcmp(message->name, "configure") == 0)
                    obj->configure_serial = args[arg].u;
                if (interface_is(obj->iface, &wl_pointer_interface) && strcmp(message->name, "button") == 0)
                    c->button_serial = args[arg].u;
            }
            first_uint = false;
            break;
        case 'n':
            // A server-made object (wl_data_offer): libwayland made its proxy already.
            if (args[arg].o) object_adopt_orphan(c, (struct wl_proxy *)args[arg].o);
            break;
        case 's':
            if (obj->iface == &xdg_activation_token_v1_interface && args[arg].s) {
                snprintf(c->token, sizeof c->token, "%s", args[arg].s);
                shared_token_put(args[arg].s);
            }
            break;
        case 'h':
            close(args[arg].h); // keymaps and the like: we keep no fds
            break;
        case '?':
            continue;
        default:
            if (*s >= '0' && *s <= '9') continue;
            break;
        }
        arg++;
    }
    return 0;
}

void events_attach(struct conn *c, struct object *obj) {
    wl_proxy_add_dispatcher(obj->proxy, on_event, c, obj);
}
