// Replays a stream of scene changes and input through libtactile and prints every decision,
// one line each, in the format Tests/LibTactileTests/DifferentialTests.swift prints the Swift
// core's decisions for the same stream: the two outputs must be equal, line for line.
//
//   replay STREAM     (a file of the lines below; `-` for stdin)
//
// Stream lines (nodes are numbered from 1 in the order they were added; 0 is the root):
//   root W H                          the root's size
//   yaml LENGTH                       followed by LENGTH bytes of YAML: tactile_gestures_load_yaml
//   add PARENT CLIENT X Y W H FLAGS   FLAGS as tactile_node_flag bits
//   remove N | geometry N X Y W H | region N COUNT (X Y W H)... | infinite N | top N | bottom N
//   caps CLIENT MASK | gone CLIENT
//   down ID X Y T | motion ID X Y T | up ID T | cancel ID T | frame
//   pointer X Y T | button CODE PRESSED T | key CODE PRESSED T | deadline T
//   devices LENGTH                    followed by LENGTH bytes of YAML: tactile_device_load_touch_filters_yaml
//                                     for device 1, named "Panel", with no output
//   ddown DEV ID X Y T | dmotion DEV ID X Y T | dup DEV ID T | dcancel DEV ID T | dframe DEV
//                                     touches of device DEV, through its filters
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tactile/tactile.h>

#define MAX_NODES 100000

static tactile_node nodes[MAX_NODES];
static int node_count = 1;

static int index_of(void *user_data) { return (int)(intptr_t)user_data; }

static void on_event(void *data, const struct tactile_event *e) {
    (void)data;
    int n = index_of(e->surface_data);
    switch (e->type) {
    case TACTILE_EVENT_TOUCH_DOWN:
        printf("touch-down c=%" PRIu64 " n=%d id=%d %.3f %.3f t=%" PRIu64 "\n", e->client, n, e->touch_id, e->x, e->y, e->time_usec);
        break;
    case TACTILE_EVENT_TOUCH_MOTION:
        printf("touch-motion c=%" PRIu64 " n=%d id=%d %.3f %.3f t=%" PRIu64 "\n", e->client, n, e->touch_id, e->x, e->y, e->time_usec);
        break;
    case TACTILE_EVENT_TOUCH_UP: printf("touch-up c=%" PRIu64 " id=%d t=%" PRIu64 "\n", e->client, e->touch_id, e->time_usec); break;
    case TACTILE_EVENT_TOUCH_FRAME: printf("touch-frame c=%" PRIu64 "\n", e->client); break;
    case TACTILE_EVENT_TOUCH_CANCEL: printf("touch-cancel c=%" PRIu64 "\n", e->client); break;
    case TACTILE_EVENT_POINTER_ENTER: printf("pointer-enter c=%" PRIu64 " n=%d %.3f %.3f\n", e->client, n, e->x, e->y); break;
    case TACTILE_EVENT_POINTER_LEAVE: printf("pointer-leave c=%" PRIu64 " n=%d\n", e->client, n); break;
    case TACTILE_EVENT_POINTER_MOTION:
        printf("pointer-motion c=%" PRIu64 " n=%d %.3f %.3f t=%" PRIu64 "\n", e->client, n, e->x, e->y, e->time_usec);
        break;
    case TACTILE_EVENT_POINTER_BUTTON:
        printf("pointer-button c=%" PRIu64 " %u %d t=%" PRIu64 "\n", e->client, e->code, e->pressed, e->time_usec);
        break;
    case TACTILE_EVENT_POINTER_AXIS: printf("pointer-axis c=%" PRIu64 "\n", e->client); break;
    case TACTILE_EVENT_POINTER_FRAME: printf("pointer-frame c=%" PRIu64 "\n", e->client); break;
    case TACTILE_EVENT_KEYBOARD_ENTER:
        printf("keyboard-enter c=%" PRIu64 " n=%d keys", e->client, n);
        for (size_t k = 0; k < e->key_count; k++) printf(" %u", e->keys[k]);
        printf("\n");
        break;
    case TACTILE_EVENT_KEYBOARD_LEAVE: printf("keyboard-leave c=%" PRIu64 " n=%d\n", e->client, n); break;
    case TACTILE_EVENT_KEY: printf("key c=%" PRIu64 " %u %d t=%" PRIu64 "\n", e->client, e->code, e->pressed, e->time_usec); break;
    default: printf("unknown event %d\n", (int)e->type); break;
    }
}

static const char *state_names[] = {"possible", "began", "changed", "ended", "cancelled", "failed", "recognized"};

static void on_gesture(void *data, const struct tactile_gesture_event *g) {
    (void)data;
    printf("gesture %s %s t=%" PRIu64 "\n", g->name, state_names[g->state], g->time_usec);
}

static tactile_node node(int n) { return n >= 0 && n < node_count ? nodes[n] : 0; }

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: replay STREAM\n");
        return 2;
    }
    FILE *in = strcmp(argv[1], "-") == 0 ? stdin : fopen(argv[1], "r");
    if (!in) {
        perror(argv[1]);
        return 2;
    }
    tactile_router *router = tactile_router_create();
    nodes[0] = tactile_router_root(router);
    tactile_router_set_event_callback(router, on_event, NULL);
    tactile_router_set_gesture_callback(router, on_gesture, NULL);
    char op[32];
    while (fscanf(in, "%31s", op) == 1) {
        int n = 0, id = 0, count = 0, pressed = 0;
        int32_t x = 0, y = 0, w = 0, h = 0;
        unsigned flags = 0, code = 0;
        uint64_t client = 0, t = 0;
        double fx = 0, fy = 0;
        if (strcmp(op, "root") == 0 && fscanf(in, "%d %d", &w, &h) == 2) {
            tactile_node_set_geometry(router, nodes[0], 0, 0, w, h);
        } else if (strcmp(op, "yaml") == 0 && fscanf(in, "%d", &count) == 1 && fgetc(in) != EOF) {
            char *text = malloc((size_t)count + 1);
            size_t got = fread(text, 1, (size_t)count, in);
            if (tactile_gestures_load_yaml(router, text, got, "stream") != TACTILE_OK) {
                fprintf(stderr, "replay: %s\n", tactile_router_error(router));
                return 1;
            }
            free(text);
        } else if (strcmp(op, "devices") == 0 && fscanf(in, "%d", &count) == 1 && fgetc(in) != EOF) {
            char *text = malloc((size_t)count + 1);
            size_t got = fread(text, 1, (size_t)count, in);
            if (tactile_device_load_touch_filters_yaml(router, 1, "Panel", NULL, text, got, "stream") != TACTILE_OK) {
                fprintf(stderr, "replay: %s\n", tactile_router_error(router));
                return 1;
            }
            free(text);
        } else if (strcmp(op, "ddown") == 0 && fscanf(in, "%u %d %lf %lf %" SCNu64, &code, &id, &fx, &fy, &t) == 5) {
            tactile_device_touch_down(router, code, id, fx, fy, t);
        } else if (strcmp(op, "dmotion") == 0 && fscanf(in, "%u %d %lf %lf %" SCNu64, &code, &id, &fx, &fy, &t) == 5) {
            tactile_device_touch_motion(router, code, id, fx, fy, t);
        } else if (strcmp(op, "dup") == 0 && fscanf(in, "%u %d %" SCNu64, &code, &id, &t) == 3) {
            tactile_device_touch_up(router, code, id, t);
        } else if (strcmp(op, "dcancel") == 0 && fscanf(in, "%u %d %" SCNu64, &code, &id, &t) == 3) {
            tactile_device_touch_cancel(router, code, id, t);
        } else if (strcmp(op, "dframe") == 0 && fscanf(in, "%u", &code) == 1) {
            tactile_device_touch_frame(router, code);
        } else if (strcmp(op, "add") == 0 && fscanf(in, "%d %" SCNu64 " %d %d %d %d %u", &n, &client, &x, &y, &w, &h, &flags) == 7) {
            struct tactile_node_desc d = {client, x, y, w, h, flags, 1.0, (void *)(intptr_t)node_count};
            tactile_node made = 0;
            if (tactile_node_add(router, node(n), &d, &made) == TACTILE_OK && node_count < MAX_NODES) nodes[node_count] = made;
            node_count++;
        } else if (strcmp(op, "remove") == 0 && fscanf(in, "%d", &n) == 1) {
            tactile_node_remove(router, node(n));
        } else if (strcmp(op, "geometry") == 0 && fscanf(in, "%d %d %d %d %d", &n, &x, &y, &w, &h) == 5) {
            tactile_node_set_geometry(router, node(n), x, y, w, h);
        } else if (strcmp(op, "region") == 0 && fscanf(in, "%d %d", &n, &count) == 2 && count >= 0 && count <= 64) {
            struct tactile_rect rects[64];
            for (int k = 0; k < count; k++)
                if (fscanf(in, "%d %d %d %d", &rects[k].x, &rects[k].y, &rects[k].width, &rects[k].height) != 4) return 1;
            tactile_node_set_input_region(router, node(n), rects, (size_t)count, 0);
        } else if (strcmp(op, "infinite") == 0 && fscanf(in, "%d", &n) == 1) {
            tactile_node_set_input_region(router, node(n), NULL, 0, 1);
        } else if (strcmp(op, "top") == 0 && fscanf(in, "%d", &n) == 1) {
            tactile_node_restack(router, node(n), TACTILE_STACK_TOP, 0);
        } else if (strcmp(op, "bottom") == 0 && fscanf(in, "%d", &n) == 1) {
            tactile_node_restack(router, node(n), TACTILE_STACK_BOTTOM, 0);
        } else if (strcmp(op, "caps") == 0 && fscanf(in, "%" SCNu64 " %u", &client, &flags) == 2) {
            tactile_client_set_capabilities(router, client, flags);
        } else if (strcmp(op, "gone") == 0 && fscanf(in, "%" SCNu64, &client) == 1) {
            tactile_client_disconnected(router, client);
        } else if (strcmp(op, "down") == 0 && fscanf(in, "%d %lf %lf %" SCNu64, &id, &fx, &fy, &t) == 4) {
            tactile_touch_down(router, id, fx, fy, t);
        } else if (strcmp(op, "motion") == 0 && fscanf(in, "%d %lf %lf %" SCNu64, &id, &fx, &fy, &t) == 4) {
            tactile_touch_motion(router, id, fx, fy, t);
        } else if (strcmp(op, "up") == 0 && fscanf(in, "%d %" SCNu64, &id, &t) == 2) {
            tactile_touch_up(router, id, t);
        } else if (strcmp(op, "cancel") == 0 && fscanf(in, "%d %" SCNu64, &id, &t) == 2) {
            tactile_touch_cancel(router, id, t);
        } else if (strcmp(op, "frame") == 0) {
            tactile_touch_frame(router);
        } else if (strcmp(op, "pointer") == 0 && fscanf(in, "%lf %lf %" SCNu64, &fx, &fy, &t) == 3) {
            tactile_pointer_motion(router, fx, fy, t);
        } else if (strcmp(op, "button") == 0 && fscanf(in, "%u %d %" SCNu64, &code, &pressed, &t) == 3) {
            tactile_pointer_button(router, code, pressed, t);
        } else if (strcmp(op, "key") == 0 && fscanf(in, "%u %d %" SCNu64, &code, &pressed, &t) == 3) {
            tactile_key(router, code, pressed, t);
        } else if (strcmp(op, "deadline") == 0 && fscanf(in, "%" SCNu64, &t) == 1) {
            tactile_fire_deadlines(router, t);
        } else {
            fprintf(stderr, "replay: cannot read '%s'\n", op);
            return 1;
        }
    }
    tactile_router_destroy(router);
    return 0;
}
