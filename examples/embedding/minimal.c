// The smallest embedding of libtactile (docs/embedding.md walks through it): one client's
// surface full screen, an edge swipe from YAML, a tap and then a swipe from the left edge.
// Build: cc minimal.c $(pkg-config --cflags --libs tactile) -o minimal
#include <stdio.h>
#include <string.h>
#include <tactile/tactile.h>

static void deliver(void *data, const struct tactile_event *e) {
    (void)data;  // a compositor sends each as wl_touch / wl_pointer / wl_keyboard events
    unsigned long long client = (unsigned long long)e->client;
    switch (e->type) {
    case TACTILE_EVENT_TOUCH_DOWN:
    case TACTILE_EVENT_TOUCH_MOTION:
        printf("client %llu: touch %s %d on %s at %.0f,%.0f\n", client, e->type == TACTILE_EVENT_TOUCH_DOWN ? "down" : "motion",
               e->touch_id, (const char *)e->surface_data, e->x, e->y);
        break;
    case TACTILE_EVENT_TOUCH_UP: printf("client %llu: touch up %d\n", client, e->touch_id); break;
    case TACTILE_EVENT_TOUCH_CANCEL: printf("client %llu: touch cancel\n", client); break;
    case TACTILE_EVENT_KEYBOARD_ENTER: printf("client %llu: keyboard focus on %s\n", client, (const char *)e->surface_data); break;
    default: break;  // frames, and the pointer's events
    }
}

static void gesture(void *data, const struct tactile_gesture_event *g) {
    (void)data;  // run g->command here when it is set
    if (g->state == TACTILE_GESTURE_BEGAN) printf("gesture %s began: %s\n", g->name, g->command ? g->command : "");
}

int main(void) {
    tactile_router *router = tactile_router_create();
    tactile_node root = tactile_router_root(router);
    tactile_node_set_geometry(router, root, 0, 0, 1280, 800);  // the output
    tactile_router_set_event_callback(router, deliver, NULL);
    tactile_router_set_gesture_callback(router, gesture, NULL);

    const char *yaml = "gestures:\n  - {name: back, kind: edge-swipe, edge: left, run: go-back}\n";
    if (tactile_gestures_load_yaml(router, yaml, strlen(yaml), "minimal.yaml") != TACTILE_OK) {
        fprintf(stderr, "%s\n", tactile_router_error(router));
        return 1;
    }
    // Client 1 bound wl_touch and mapped a full-screen toplevel.
    tactile_client_set_capabilities(router, 1, TACTILE_CAPABILITY_TOUCH | TACTILE_CAPABILITY_KEYBOARD);
    struct tactile_node_desc app = {.client = 1, .width = 1280, .height = 800, .alpha = 1,
                                    .flags = TACTILE_NODE_MAPPED | TACTILE_NODE_TOPLEVEL, .user_data = "app"};
    tactile_node surface;
    tactile_node_add(router, root, &app, &surface);

    // A tap: down, frame, up, frame, as libinput reports it (times in microseconds).
    tactile_touch_down(router, 0, 400, 300, 1000000);
    tactile_touch_frame(router);
    tactile_touch_up(router, 0, 1050000);
    tactile_touch_frame(router);
    // From the left edge inwards: the app sees the touch until the swipe wins, then a cancel.
    tactile_touch_down(router, 1, 2, 400, 2000000);
    tactile_touch_frame(router);
    for (int x = 20; x <= 200; x += 30) {
        tactile_touch_motion(router, 1, x, 400, 2000000 + (uint64_t)x * 1000);
        tactile_touch_frame(router);
    }
    tactile_touch_up(router, 1, 2300000);
    tactile_touch_frame(router);
    tactile_router_destroy(router);
    return 0;
}
