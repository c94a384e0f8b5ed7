// An X11 client for the window manager's tests (XCB, run under Tactile's Xwayland).
//
//   TactileX11Probe menu X Y
//       A 400x300 blue toplevel; a press in it maps a 200x100 red override-redirect menu at
//       root X,Y; a press in the menu unmaps it. Prints "mapped toplevel", "press toplevel
//       RX RY", "menu mapped", "press menu RX RY" (root coordinates) as they happen.
//   TactileX11Probe fuzz SEED COUNT
//       COUNT hostile steps from SEED (replayable): windows made, mapped, unmapped, destroyed
//       and configured at random, absurd sizes and positions, random and huge properties
//       (titles, classes, protocols, hints, transient-for naming dead windows, types, states,
//       pids), client messages to the window manager naming any window, forged
//       WL_SURFACE_IDs. Prints "fuzz done N" when every request was answered.
//   TactileX11Probe owner SELECTION
//       Prints the window owning SELECTION (PRIMARY, CLIPBOARD) in hex, 0x0 for none: a
//       test waits on it for the window manager's bridge to have taken a selection over.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/xcb.h>

static xcb_connection_t *connection;
static xcb_screen_t *screen;

static xcb_atom_t atom(const char *name) {
    xcb_intern_atom_reply_t *reply = xcb_intern_atom_reply(connection, xcb_intern_atom(connection, 0, strlen(name), name), NULL);
    xcb_atom_t result = reply ? reply->atom : XCB_ATOM_NONE;
    free(reply);
    return result;
}

static xcb_window_t make_window(int x, int y, int width, int height, uint32_t colour, int override_redirect, uint32_t events) {
    xcb_window_t window = xcb_generate_id(connection);
    uint32_t values[] = {colour, (uint32_t)override_redirect, events};
    xcb_create_window(connection, XCB_COPY_FROM_PARENT, window, screen->root, x, y, width, height, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                      screen->root_visual, XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT | XCB_CW_EVENT_MASK, values);
    return window;
}

static void set_text(xcb_window_t window, xcb_atom_t property, xcb_atom_t type, const char *text, size_t length) {
    xcb_change_property(connection, XCB_PROP_MODE_REPLACE, window, property, type, 8, length, text);
}

static int menu(int menu_x, int menu_y) {
    xcb_atom_t protocols = atom("WM_PROTOCOLS"), delete_window = atom("WM_DELETE_WINDOW");
    uint32_t events = XCB_EVENT_MASK_BUTTON_PRESS | XCB_EVENT_MASK_STRUCTURE_NOTIFY;
    xcb_window_t toplevel = make_window(0, 0, 400, 300, 0x0000ff, 0, events);
    set_text(toplevel, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, "x11-probe", 9);
    set_text(toplevel, XCB_ATOM_WM_CLASS, XCB_ATOM_STRING, "probe\0X11Probe\0", 15);
    xcb_change_property(connection, XCB_PROP_MODE_REPLACE, toplevel, protocols, XCB_ATOM_ATOM, 32, 1, &delete_window);
    xcb_window_t popup = make_window(menu_x, menu_y, 200, 100, 0xff0000, 1, events);
    xcb_map_window(connection, toplevel);
    xcb_flush(connection);
    xcb_generic_event_t *event;
    while ((event = xcb_wait_for_event(connection))) {
        switch (event->response_type & 0x7f) {
        case XCB_MAP_NOTIFY: {
            xcb_map_notify_event_t *map = (xcb_map_notify_event_t *)event;
            printf("%s\n", map->window == toplevel ? "mapped toplevel" : "menu mapped");
            break;
        }
        case XCB_BUTTON_PRESS: {
            xcb_button_press_event_t *press = (xcb_button_press_event_t *)event;
            printf("press %s %d %d\n", press->event == toplevel ? "toplevel" : "menu", press->root_x, press->root_y);
            if (press->event == toplevel) xcb_map_window(connection, popup);
            else xcb_unmap_window(connection, popup);
            break;
        }
        case XCB_CLIENT_MESSAGE: {
            xcb_client_message_event_t *message = (xcb_client_message_event_t *)event;
            if (message->type == protocols && message->data.data32[0] == delete_window) {
                printf("closed by the window manager\n");
                return 0;
            }
            break;
        }
        }
        fflush(stdout);
        free(event);
        xcb_flush(connection);
    }
    return 1;
}

// splitmix64: the same steps from the same seed.
static uint64_t state;
static uint64_t next(void) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static uint32_t below(uint32_t n) { return (uint32_t)(next() % n); }

static int fuzz(uint64_t seed, int count) {
    state = seed;
    const char *names[] = {"WM_NAME", "_NET_WM_NAME", "WM_CLASS", "WM_PROTOCOLS", "WM_HINTS", "WM_TRANSIENT_FOR", "_NET_WM_WINDOW_TYPE",
                           "_NET_WM_STATE", "_NET_WM_PID", "WM_NORMAL_HINTS", "UTF8_STRING", "WM_DELETE_WINDOW", "WM_TAKE_FOCUS",
                           "_NET_WM_STATE_FULLSCREEN", "_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_WINDOW_TYPE_DIALOG", "_NET_WM_WINDOW_TYPE_MENU"};
    enum { atom_count = sizeof names / sizeof *names };
    xcb_atom_t atoms[atom_count];
    for (int k = 0; k < atom_count; k++) atoms[k] = atom(names[k]);
    xcb_atom_t messages[] = {atom("_NET_WM_STATE"), atom("_NET_ACTIVE_WINDOW"), atom("WM_CHANGE_STATE"), atom("WL_SURFACE_ID"), atom("WM_PROTOCOLS")};
    enum { pool = 24 };
    xcb_window_t windows[pool] = {0};
    static char big[70000];
    for (int step = 0; step < count; step++) {
        int slot = below(pool);
        xcb_window_t window = windows[slot] ? windows[slot] : (xcb_window_t)(next() & 0xffffffff);
        switch (below(10)) {
        case 0:
            if (windows[slot]) xcb_destroy_window(connection, windows[slot]);
            windows[slot] = make_window((int16_t)next(), (int16_t)next(), 1 + below(below(8) ? 600 : 4000), 1 + below(below(8) ? 600 : 4000),
                                        (uint32_t)next(), below(3) == 0, XCB_EVENT_MASK_STRUCTURE_NOTIFY);
            break;
        case 1: case 2:
            xcb_map_window(connection, window);
            break;
        case 3:
            xcb_unmap_window(connection, window);
            break;
        case 4:
            // The dead window stays in the pool: later steps name it.
            xcb_destroy_window(connection, window);
            break;
        case 5: {
            uint32_t values[] = {(uint32_t)(int16_t)next(), (uint32_t)(int16_t)next(), 1 + below(below(4) ? 800 : 65535), 1 + below(below(4) ? 800 : 65535),
                                 below(3), below(5)};
            xcb_configure_window(connection, window, XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y | XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT
                                 | XCB_CONFIG_WINDOW_BORDER_WIDTH | XCB_CONFIG_WINDOW_STACK_MODE, values);
            break;
        }
        case 6: case 7: {
            // A property of any type and format; sometimes 64 KiB of bytes.
            uint32_t length = below(4) ? below(64) : sizeof big / 4;
            for (uint32_t k = 0; k < length * 4; k++) big[k] = (char)next();
            if (below(2)) for (uint32_t k = 0; k < length && k < 16; k++) ((uint32_t *)big)[k] = below(2) ? atoms[below(atom_count)] : windows[below(pool)];
            uint8_t format = below(3) == 0 ? 8 : 32;
            xcb_atom_t type = below(2) ? XCB_ATOM_ATOM : (below(2) ? XCB_ATOM_CARDINAL : atoms[10]);
            xcb_change_property(connection, XCB_PROP_MODE_REPLACE, window, atoms[below(9)], type, format, format == 8 ? length * 4 : length, big);
            break;
        }
        case 8: case 9: {
            xcb_client_message_event_t message = {0};
            message.response_type = XCB_CLIENT_MESSAGE;
            message.format = 32;
            message.window = window;
            message.type = messages[below(5)];
            for (int k = 0; k < 5; k++) message.data.data32[k] = below(2) ? (uint32_t)next() : (below(2) ? atoms[below(atom_count)] : below(4));
            xcb_send_event(connection, 0, screen->root, XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY, (const char *)&message);
            break;
        }
        }
        // Errors (BadWindow for the dead ones) are expected: read and dropped.
        xcb_generic_event_t *event;
        while ((event = xcb_poll_for_event(connection))) free(event);
        if (step % 64 == 0) free(xcb_get_input_focus_reply(connection, xcb_get_input_focus(connection), NULL));
    }
    // A round trip: every request above was handled.
    free(xcb_get_input_focus_reply(connection, xcb_get_input_focus(connection), NULL));
    printf("fuzz done %d\n", count);
    return xcb_connection_has_error(connection) ? 1 : 0;
}

static int owner(const char *selection) {
    xcb_get_selection_owner_reply_t *reply =
        xcb_get_selection_owner_reply(connection, xcb_get_selection_owner(connection, atom(selection)), NULL);
    if (!reply) return 1;
    printf("0x%x\n", reply->owner);
    free(reply);
    return 0;
}

int main(int argc, char **argv) {
    connection = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(connection)) {
        fprintf(stderr, "cannot connect to DISPLAY\n");
        return 2;
    }
    screen = xcb_setup_roots_iterator(xcb_get_setup(connection)).data;
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc == 4 && strcmp(argv[1], "menu") == 0) return menu(atoi(argv[2]), atoi(argv[3]));
    if (argc == 4 && strcmp(argv[1], "fuzz") == 0) return fuzz(strtoull(argv[2], NULL, 10), atoi(argv[3]));
    if (argc == 3 && strcmp(argv[1], "owner") == 0) return owner(argv[2]);
    fprintf(stderr, "usage: TactileX11Probe menu X Y | fuzz SEED COUNT | owner SELECTION\n");
    return 2;
}
