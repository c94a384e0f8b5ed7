#include "tactile_wlcs_glue.h"

#include <stdlib.h>
#define WL_HIDE_DEPRECATED 1
#include <wayland-client.h>
#include <wayland-server-core.h>
#include <wlcs/display_server.h>
#include <wlcs/pointer.h>
#include <wlcs/touch.h>

// Implemented in Swift (Sources/TactileWLCS). `context` is a retained Swift object.
extern void *tactile_wlcs_create(int argc, char const **argv);
extern void tactile_wlcs_destroy(void *context);
extern void tactile_wlcs_run(void *context, int dispatcher_fd, void (*dispatch)(void *), void *dispatcher);
extern void tactile_wlcs_stop(void *context);
extern int tactile_wlcs_client_socket(void *context);
extern void tactile_wlcs_position(void *context, int client_fd, uint32_t surface_id, int x, int y);
extern void *tactile_wlcs_pointer_create(void *context);
extern void tactile_wlcs_pointer_move(void *pointer, double x, double y, int relative);
extern void tactile_wlcs_pointer_button(void *pointer, int button, int pressed);
extern void tactile_wlcs_pointer_destroy(void *pointer);
extern void *tactile_wlcs_touch_create(void *context);
extern void tactile_wlcs_touch(void *touch, int phase, double x, double y);
extern void tactile_wlcs_touch_destroy(void *touch);

struct server { WlcsDisplayServer base; void *context; };
struct pointer { WlcsPointer base; void *context; };
struct touch { WlcsTouch base; void *context; };

#define CONTEXT(type, p) (((struct type *)(p))->context)

// What the integration supports, with the versions it advertises.
static const WlcsExtensionDescriptor extensions[] = {
    {"wl_compositor", 5}, {"wl_subcompositor", 1}, {"wl_shm", 1}, {"wl_seat", 8}, {"wl_output", 4},
    {"wl_data_device_manager", 3}, {"xdg_wm_base", 5}, {"zxdg_shell_v6", 1}, {"wl_shell", 1},
    {"zwlr_layer_shell_v1", 5}, {"zwp_text_input_manager_v3", 1}, {"zwp_input_method_manager_v2", 1},
    {"zwp_virtual_keyboard_manager_v1", 1}, {"zxdg_output_manager_v1", 3}, {"zwlr_foreign_toplevel_manager_v1", 3},
    {"zwlr_virtual_pointer_manager_v1", 2}, {"zwp_primary_selection_device_manager_v1", 1},
    {"gtk_primary_selection_device_manager", 1}, {"zwp_relative_pointer_manager_v1", 1},
    {"zwp_pointer_constraints_v1", 1},
};
static const WlcsIntegrationDescriptor descriptor = {1, sizeof extensions / sizeof extensions[0], extensions};

static const WlcsIntegrationDescriptor *get_descriptor(WlcsDisplayServer const *server) {
    (void)server;
    return &descriptor;
}

static void dispatch_wlcs(void *loop) { wl_event_loop_dispatch((struct wl_event_loop *)loop, 0); }

static void start_on_this_thread(WlcsDisplayServer *server, struct wl_event_loop *dispatcher) {
    tactile_wlcs_run(CONTEXT(server, server), wl_event_loop_get_fd(dispatcher), dispatch_wlcs, dispatcher);
}

static void stop(WlcsDisplayServer *server) { tactile_wlcs_stop(CONTEXT(server, server)); }

static int create_client_socket(WlcsDisplayServer *server) { return tactile_wlcs_client_socket(CONTEXT(server, server)); }

// WLCS hands over its own client-side objects: identify the client by the fd it connected
// with and the surface by its protocol id.
static void position_window_absolute(WlcsDisplayServer *server, struct wl_display *client, struct wl_surface *surface, int x, int y) {
    tactile_wlcs_position(CONTEXT(server, server), wl_display_get_fd(client), wl_proxy_get_id((struct wl_proxy *)surface), x, y);
}

static void pointer_move_absolute(WlcsPointer *p, wl_fixed_t x, wl_fixed_t y) {
    tactile_wlcs_pointer_move(CONTEXT(pointer, p), wl_fixed_to_double(x), wl_fixed_to_double(y), 0);
}
static void pointer_move_relative(WlcsPointer *p, wl_fixed_t dx, wl_fixed_t dy) {
    tactile_wlcs_pointer_move(CONTEXT(pointer, p), wl_fixed_to_double(dx), wl_fixed_to_double(dy), 1);
}
static void pointer_button_down(WlcsPointer *p, int button) { tactile_wlcs_pointer_button(CONTEXT(pointer, p), button, 1); }
static void pointer_button_up(WlcsPointer *p, int button) { tactile_wlcs_pointer_button(CONTEXT(pointer, p), button, 0); }
static void pointer_destroy(WlcsPointer *p) {
    tactile_wlcs_pointer_destroy(CONTEXT(pointer, p));
    free(p);
}

static WlcsPointer *create_pointer(WlcsDisplayServer *server) {
    struct pointer *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->base = (WlcsPointer){WLCS_POINTER_VERSION, pointer_move_absolute, pointer_move_relative, pointer_button_up, pointer_button_down, pointer_destroy};
    p->context = tactile_wlcs_pointer_create(CONTEXT(server, server));
    return &p->base;
}

// WLCS 1.5 passes plain integer pixels to the touch hooks although their prototype says
// wl_fixed_t (its pointer hooks pass real wl_fixed_t).
static void touch_down(WlcsTouch *t, wl_fixed_t x, wl_fixed_t y) { tactile_wlcs_touch(CONTEXT(touch, t), 0, (double)x, (double)y); }
static void touch_move(WlcsTouch *t, wl_fixed_t x, wl_fixed_t y) { tactile_wlcs_touch(CONTEXT(touch, t), 1, (double)x, (double)y); }
static void touch_up(WlcsTouch *t) { tactile_wlcs_touch(CONTEXT(touch, t), 2, 0, 0); }
static void touch_destroy(WlcsTouch *t) {
    tactile_wlcs_touch_destroy(CONTEXT(touch, t));
    free(t);
}

static WlcsTouch *create_touch(WlcsDisplayServer *server) {
    struct touch *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->base = (WlcsTouch){WLCS_TOUCH_VERSION, touch_down, touch_move, touch_up, touch_destroy};
    t->context = tactile_wlcs_touch_create(CONTEXT(server, server));
    return &t->base;
}

static WlcsDisplayServer *create_server(int argc, char const **argv) {
    struct server *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->context = tactile_wlcs_create(argc, argv);
    if (!s->context) {
        free(s);
        return NULL;
    }
    s->base = (WlcsDisplayServer){
        .version = 3,
        .start = NULL,
        .stop = stop,
        .create_client_socket = create_client_socket,
        .position_window_absolute = position_window_absolute,
        .create_pointer = create_pointer,
        .create_touch = create_touch,
        .get_descriptor = get_descriptor,
        .start_on_this_thread = start_on_this_thread,
    };
    return &s->base;
}

static void destroy_server(WlcsDisplayServer *server) {
    tactile_wlcs_destroy(CONTEXT(server, server));
    free(server);
}

const WlcsServerIntegration wlcs_server_integration = {1, create_server, destroy_server};
