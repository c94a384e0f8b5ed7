/*
 * Input devices in, the router's decisions out. wlroots reads the devices and keeps the
 * protocol state (serials, resources, touch points); the router decides where every event
 * goes, and tactile_event callbacks become wlr_seat calls on the surface it named.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wlr/backend/headless.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_pointer.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_touch.h>
#include <wlr/types/wlr_xcursor_manager.h>
#include <wlr/util/log.h>
#include <xkbcommon/xkbcommon.h>
#include "kiosk.h"

struct kiosk_touch {
	struct kiosk *kiosk;
	/* Its number for the router: its touches pass the filters its devices: entries give. */
	tactile_device device;
	struct wl_listener down, up, motion, cancel, frame, destroy;
};

struct kiosk_keyboard {
	struct kiosk *kiosk;
	struct wlr_input_device *device;
	struct wl_list link;
	struct wl_listener key, modifiers, destroy;
};

uint64_t kiosk_now_usec(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000000 + (uint64_t)now.tv_nsec / 1000;
}

/* wlroots' event times are CLOCK_MONOTONIC milliseconds cut to 32 bits, which wrap after 49.7
 * days of uptime. The router needs times that never go back, on the clock of the deadlines'
 * now_usec: the latest moment up to now whose low 32 bits are the event's. */
static uint64_t event_usec(uint32_t time_msec)
{
	uint64_t now_msec = kiosk_now_usec() / 1000;
	uint32_t age = (uint32_t)now_msec - time_msec;
	if (age > UINT32_MAX / 2)
		age = 0; /* stamped a hair after our clock read: it is now */
	return (now_msec - age) * 1000;
}

/* ---- The router's deadlines ---------------------------------------------------------- */

static void arm_deadline(struct kiosk *k)
{
	uint64_t deadline = tactile_next_deadline(k->router);
	int delay_msec = 0; /* 0 disarms the timer */
	if (deadline != 0) {
		uint64_t now = kiosk_now_usec();
		uint64_t wait = deadline > now ? (deadline - now + 999) / 1000 : 1;
		delay_msec = wait > INT_MAX ? INT_MAX : (int)wait;
	}
	wl_event_source_timer_update(k->deadline_timer, delay_msec);
}

void kiosk_route(struct kiosk *k, tactile_status status, const char *what)
{
	if (status == TACTILE_ERROR_IGNORED)
		wlr_log(WLR_DEBUG, "%s ignored: %s", what, tactile_router_error(k->router));
	else if (status != TACTILE_OK)
		fprintf(stderr, "tactile-wlr-kiosk: %s: %s\n", what, tactile_router_error(k->router));
	arm_deadline(k);
}

static int handle_deadline(void *data)
{
	struct kiosk *k = data;
	kiosk_route(k, tactile_fire_deadlines(k->router, kiosk_now_usec()), "deadlines");
	return 0;
}

/* ---- Decisions out: the router's events as wlr_seat calls ---------------------------- */

/* A cancel names the client, not always a surface; wlroots wants a surface to find the client
 * by, so take the one its touches went down on. */
static struct wlr_surface *touch_surface_of(struct kiosk *k, const struct tactile_event *event)
{
	if (event->surface_data != NULL)
		return event->surface_data;
	struct wlr_touch_point *point;
	wl_list_for_each (point, &k->seat->touch_state.touch_points, link) {
		if (point->surface != NULL && (tactile_client)(uintptr_t)point->client->client == event->client)
			return point->surface;
	}
	return NULL;
}

static void cancel_touches(struct kiosk *k, const struct tactile_event *event)
{
	struct wlr_surface *surface = touch_surface_of(k, event);
	if (surface != NULL) {
		/* Debian's 0.15.1 carries upstream's "seat: Allow to cancel touches": this sends
		 * wl_touch.cancel and drops the client's touch points, as the protocol says. */
		wlr_seat_touch_notify_cancel(k->seat, surface);
		return;
	}
	/* No surface of the client is down in wlroots' books (it was destroyed): tell the
	 * client directly. */
	struct wlr_seat_client *seat_client =
		wlr_seat_client_for_wl_client(k->seat, (struct wl_client *)(uintptr_t)event->client);
	if (seat_client == NULL)
		return;
	struct wl_resource *resource;
	wl_resource_for_each (resource, &seat_client->touches)
		wl_touch_send_cancel(resource);
}

static enum wlr_axis_source wlr_axis_source(tactile_axis_source source)
{
	switch (source) {
	case TACTILE_AXIS_SOURCE_FINGER:
		return WLR_AXIS_SOURCE_FINGER;
	case TACTILE_AXIS_SOURCE_CONTINUOUS:
		return WLR_AXIS_SOURCE_CONTINUOUS;
	case TACTILE_AXIS_SOURCE_WHEEL_TILT:
		return WLR_AXIS_SOURCE_WHEEL_TILT;
	case TACTILE_AXIS_SOURCE_WHEEL:
	default:
		return WLR_AXIS_SOURCE_WHEEL;
	}
}

/* wlroots 0.15 carries one axis per call, and a stop as a value of 0 (wl_pointer.axis_stop);
 * its discrete value is whole wheel clicks. */
static void send_axis(struct kiosk *k, uint32_t time_msec, enum wlr_axis_orientation orientation, double value,
		      int32_t value120, int stop, enum wlr_axis_source source)
{
	if (value != 0 || value120 != 0)
		wlr_seat_pointer_notify_axis(k->seat, time_msec, orientation, value, value120 / 120, source);
	if (stop)
		wlr_seat_pointer_notify_axis(k->seat, time_msec, orientation, 0, 0, source);
}

static void handle_router_event(void *data, const struct tactile_event *event)
{
	struct kiosk *k = data;
	struct wlr_seat *seat = k->seat;
	struct wlr_surface *surface = event->surface_data;
	uint32_t time_msec = (uint32_t)(event->time_usec / 1000);

	switch (event->type) {
	case TACTILE_EVENT_TOUCH_DOWN:
		if (surface != NULL)
			wlr_seat_touch_notify_down(seat, surface, time_msec, event->touch_id, event->x, event->y);
		break;
	case TACTILE_EVENT_TOUCH_MOTION:
		wlr_seat_touch_notify_motion(seat, time_msec, event->touch_id, event->x, event->y);
		break;
	case TACTILE_EVENT_TOUCH_UP:
		wlr_seat_touch_notify_up(seat, time_msec, event->touch_id);
		break;
	case TACTILE_EVENT_TOUCH_FRAME:
		wlr_seat_touch_notify_frame(seat);
		break;
	case TACTILE_EVENT_TOUCH_CANCEL:
		cancel_touches(k, event);
		break;
	case TACTILE_EVENT_POINTER_ENTER:
		if (surface != NULL)
			wlr_seat_pointer_notify_enter(seat, surface, event->x, event->y);
		break;
	case TACTILE_EVENT_POINTER_LEAVE:
		/* wlroots' enter already left the old surface: clear only a focus still on it. */
		if (surface == NULL || seat->pointer_state.focused_surface == surface)
			wlr_seat_pointer_clear_focus(seat);
		break;
	case TACTILE_EVENT_POINTER_MOTION:
		wlr_seat_pointer_notify_motion(seat, time_msec, event->x, event->y);
		break;
	case TACTILE_EVENT_POINTER_BUTTON:
		wlr_seat_pointer_notify_button(seat, time_msec, event->code,
					       event->pressed ? WLR_BUTTON_PRESSED : WLR_BUTTON_RELEASED);
		break;
	case TACTILE_EVENT_POINTER_AXIS: {
		enum wlr_axis_source source = wlr_axis_source(event->axis.source);
		send_axis(k, time_msec, WLR_AXIS_ORIENTATION_VERTICAL, event->axis.vertical,
			  event->axis.vertical_value120, event->axis.stop_vertical, source);
		send_axis(k, time_msec, WLR_AXIS_ORIENTATION_HORIZONTAL, event->axis.horizontal,
			  event->axis.horizontal_value120, event->axis.stop_horizontal, source);
		break;
	}
	case TACTILE_EVENT_POINTER_FRAME:
		wlr_seat_pointer_notify_frame(seat);
		break;
	case TACTILE_EVENT_KEYBOARD_ENTER:
		if (surface != NULL) {
			struct wlr_keyboard *keyboard = wlr_seat_get_keyboard(seat);
			/* wlroots only reads the keys; its prototype just lacks the const. */
			wlr_seat_keyboard_notify_enter(seat, surface, (uint32_t *)event->keys, event->key_count,
						       keyboard != NULL ? &keyboard->modifiers : NULL);
		}
		break;
	case TACTILE_EVENT_KEYBOARD_LEAVE:
		if (surface == NULL || seat->keyboard_state.focused_surface == surface)
			wlr_seat_keyboard_clear_focus(seat);
		break;
	case TACTILE_EVENT_KEY:
		wlr_seat_keyboard_notify_key(seat, time_msec, event->code,
					     event->pressed ? WL_KEYBOARD_KEY_STATE_PRESSED
							    : WL_KEYBOARD_KEY_STATE_RELEASED);
		break;
	default:
		/* A newer library's event: the header says to ignore it. */
		break;
	}
}

/* ---- Touchscreens ------------------------------------------------------------------- */

/* The router picks between a client's wl_touch and pointer emulation by what it has bound,
 * which changes whenever the client asks: ask wlroots just before each new touch. */
static void refresh_capabilities(struct kiosk *k)
{
	struct kiosk_client *client;
	wl_list_for_each (client, &k->clients, link) {
		struct wlr_seat_client *seat_client = wlr_seat_client_for_wl_client(k->seat, client->client);
		uint32_t capabilities = 0;
		if (seat_client != NULL) {
			if (!wl_list_empty(&seat_client->touches))
				capabilities |= TACTILE_CAPABILITY_TOUCH;
			if (!wl_list_empty(&seat_client->pointers))
				capabilities |= TACTILE_CAPABILITY_POINTER;
			if (!wl_list_empty(&seat_client->keyboards))
				capabilities |= TACTILE_CAPABILITY_KEYBOARD;
		}
		kiosk_route(k,
			    tactile_client_set_capabilities(k->router, (tactile_client)(uintptr_t)client->client,
							    capabilities),
			    "client capabilities");
	}
}

/* Touchscreens report 0..1 across their screen: the kiosk's output. */
static bool touch_position(struct kiosk *k, double nx, double ny, double *x, double *y)
{
	struct wlr_box *box = k->output != NULL ? wlr_output_layout_get_box(k->layout, k->output) : NULL;
	if (box == NULL)
		return false;
	*x = box->x + nx * box->width;
	*y = box->y + ny * box->height;
	return true;
}

static void handle_touch_down(struct wl_listener *listener, void *data)
{
	struct kiosk_touch *touch = wl_container_of(listener, touch, down);
	struct kiosk *k = touch->kiosk;
	struct wlr_event_touch_down *event = data;
	double x, y;
	if (!touch_position(k, event->x, event->y, &x, &y))
		return;
	refresh_capabilities(k);
	kiosk_route(k, tactile_device_touch_down(k->router, touch->device, event->touch_id, x, y, event_usec(event->time_msec)),
		    "touch down");
}

static void handle_touch_motion(struct wl_listener *listener, void *data)
{
	struct kiosk_touch *touch = wl_container_of(listener, touch, motion);
	struct kiosk *k = touch->kiosk;
	struct wlr_event_touch_motion *event = data;
	double x, y;
	if (!touch_position(k, event->x, event->y, &x, &y))
		return;
	kiosk_route(k, tactile_device_touch_motion(k->router, touch->device, event->touch_id, x, y, event_usec(event->time_msec)),
		    "touch motion");
}

static void handle_touch_up(struct wl_listener *listener, void *data)
{
	struct kiosk_touch *touch = wl_container_of(listener, touch, up);
	struct wlr_event_touch_up *event = data;
	kiosk_route(touch->kiosk, tactile_device_touch_up(touch->kiosk->router, touch->device, event->touch_id, event_usec(event->time_msec)),
		    "touch up");
}

static void handle_touch_cancel(struct wl_listener *listener, void *data)
{
	struct kiosk_touch *touch = wl_container_of(listener, touch, cancel);
	struct wlr_event_touch_cancel *event = data;
	kiosk_route(touch->kiosk,
		    tactile_device_touch_cancel(touch->kiosk->router, touch->device, event->touch_id, event_usec(event->time_msec)),
		    "touch cancel");
}

static void handle_touch_frame(struct wl_listener *listener, void *data)
{
	struct kiosk_touch *touch = wl_container_of(listener, touch, frame);
	kiosk_route(touch->kiosk, tactile_device_touch_frame(touch->kiosk->router, touch->device), "touch frame");
}

static void handle_touch_destroy(struct wl_listener *listener, void *data)
{
	struct kiosk_touch *touch = wl_container_of(listener, touch, destroy);
	tactile_device_set_touch_filters(touch->kiosk->router, touch->device, NULL);
	wl_list_remove(&touch->down.link);
	wl_list_remove(&touch->up.link);
	wl_list_remove(&touch->motion.link);
	wl_list_remove(&touch->cancel.link);
	wl_list_remove(&touch->frame.link);
	wl_list_remove(&touch->destroy.link);
	free(touch);
}

static void add_touch(struct kiosk *k, struct wlr_input_device *device)
{
	struct kiosk_touch *touch = calloc(1, sizeof(*touch));
	if (touch == NULL)
		return;
	touch->kiosk = k;
	touch->device = ++k->next_touch_device;
	if (k->config_text != NULL) {
		/* Dead zones are the output's: the touch's coordinates are the layout's. */
		struct wlr_box *box = k->output != NULL ? wlr_output_layout_get_box(k->layout, k->output) : NULL;
		struct tactile_rect output = box != NULL ? (struct tactile_rect){box->x, box->y, box->width, box->height}
							 : (struct tactile_rect){0};
		if (tactile_device_load_touch_filters_yaml(k->router, touch->device, device->name,
							   box != NULL && box->width > 0 ? &output : NULL, k->config_text,
							   k->config_length, k->config_path) != TACTILE_OK)
			fprintf(stderr, "tactile-wlr-kiosk: %s: no filters: %s\n", device->name,
				tactile_router_error(k->router));
	}
	touch->down.notify = handle_touch_down;
	wl_signal_add(&device->touch->events.down, &touch->down);
	touch->motion.notify = handle_touch_motion;
	wl_signal_add(&device->touch->events.motion, &touch->motion);
	touch->up.notify = handle_touch_up;
	wl_signal_add(&device->touch->events.up, &touch->up);
	touch->cancel.notify = handle_touch_cancel;
	wl_signal_add(&device->touch->events.cancel, &touch->cancel);
	touch->frame.notify = handle_touch_frame;
	wl_signal_add(&device->touch->events.frame, &touch->frame);
	touch->destroy.notify = handle_touch_destroy;
	wl_signal_add(&device->events.destroy, &touch->destroy);
}

/* ---- Pointers, through a wlr_cursor (it turns relative motion into a position) ------- */

static void pointer_moved(struct kiosk *k, uint32_t time_msec)
{
	/* The arrow shows once a pointer moves: a touch-only kiosk never shows one. */
	if (!k->cursor_shown) {
		wlr_xcursor_manager_set_cursor_image(k->xcursors, "left_ptr", k->cursor);
		k->cursor_shown = true;
	}
	kiosk_route(k, tactile_pointer_motion(k->router, k->cursor->x, k->cursor->y, event_usec(time_msec)),
		    "pointer motion");
}

static void handle_cursor_motion(struct wl_listener *listener, void *data)
{
	struct kiosk *k = wl_container_of(listener, k, cursor_motion);
	struct wlr_event_pointer_motion *event = data;
	wlr_cursor_move(k->cursor, event->device, event->delta_x, event->delta_y);
	pointer_moved(k, event->time_msec);
}

static void handle_cursor_motion_absolute(struct wl_listener *listener, void *data)
{
	struct kiosk *k = wl_container_of(listener, k, cursor_motion_absolute);
	struct wlr_event_pointer_motion_absolute *event = data;
	wlr_cursor_warp_absolute(k->cursor, event->device, event->x, event->y);
	pointer_moved(k, event->time_msec);
}

static void handle_cursor_button(struct wl_listener *listener, void *data)
{
	struct kiosk *k = wl_container_of(listener, k, cursor_button);
	struct wlr_event_pointer_button *event = data;
	kiosk_route(k,
		    tactile_pointer_button(k->router, event->button, event->state == WLR_BUTTON_PRESSED,
					   event_usec(event->time_msec)),
		    "pointer button");
}

static tactile_axis_source tactile_axis_source_of(enum wlr_axis_source source)
{
	switch (source) {
	case WLR_AXIS_SOURCE_FINGER:
		return TACTILE_AXIS_SOURCE_FINGER;
	case WLR_AXIS_SOURCE_CONTINUOUS:
		return TACTILE_AXIS_SOURCE_CONTINUOUS;
	case WLR_AXIS_SOURCE_WHEEL_TILT:
		return TACTILE_AXIS_SOURCE_WHEEL_TILT;
	case WLR_AXIS_SOURCE_WHEEL:
	default:
		return TACTILE_AXIS_SOURCE_WHEEL;
	}
}

static void handle_cursor_axis(struct wl_listener *listener, void *data)
{
	struct kiosk *k = wl_container_of(listener, k, cursor_axis);
	struct wlr_event_pointer_axis *event = data;
	struct tactile_axis axis = {.source = tactile_axis_source_of(event->source)};
	/* libinput says a finger or continuous scroll stopped with a 0 on that axis. */
	int stop = event->delta == 0;
	if (event->orientation == WLR_AXIS_ORIENTATION_VERTICAL) {
		axis.vertical = event->delta;
		axis.vertical_value120 = event->delta_discrete * 120;
		axis.stop_vertical = stop;
	} else {
		axis.horizontal = event->delta;
		axis.horizontal_value120 = event->delta_discrete * 120;
		axis.stop_horizontal = stop;
	}
	kiosk_route(k, tactile_pointer_axis(k->router, &axis, event_usec(event->time_msec)), "pointer axis");
}

/* ---- Keyboards ---------------------------------------------------------------------- */

/* Touch and pointer are offered whether or not such a device is plugged in yet: a kiosk's
 * touchscreen may come late, and clients bind what the seat offers as they start. The
 * keyboard only while there is one: wlroots has no keymap to send without one, and clients
 * (wev, for one) crash on wl_keyboard.enter/modifiers before any keymap. */
static void update_seat_capabilities(struct kiosk *k)
{
	uint32_t capabilities = WL_SEAT_CAPABILITY_TOUCH | WL_SEAT_CAPABILITY_POINTER;
	if (!wl_list_empty(&k->keyboards))
		capabilities |= WL_SEAT_CAPABILITY_KEYBOARD;
	wlr_seat_set_capabilities(k->seat, capabilities);
}

static void handle_key(struct wl_listener *listener, void *data)
{
	struct kiosk_keyboard *keyboard = wl_container_of(listener, keyboard, key);
	struct kiosk *k = keyboard->kiosk;
	struct wlr_event_keyboard_key *event = data;
	/* wlr_seat sends the keymap and modifiers of its one current keyboard. */
	wlr_seat_set_keyboard(k->seat, keyboard->device);
	kiosk_route(k,
		    tactile_key(k->router, event->keycode, event->state == WL_KEYBOARD_KEY_STATE_PRESSED,
				event_usec(event->time_msec)),
		    "key");
}

/* The router routes keys, not XKB state: wlroots tracks the modifiers and sends them to
 * whichever surface the router gave the keyboard to. */
static void handle_modifiers(struct wl_listener *listener, void *data)
{
	struct kiosk_keyboard *keyboard = wl_container_of(listener, keyboard, modifiers);
	wlr_seat_set_keyboard(keyboard->kiosk->seat, keyboard->device);
	wlr_seat_keyboard_notify_modifiers(keyboard->kiosk->seat, &keyboard->device->keyboard->modifiers);
}

static void handle_keyboard_destroy(struct wl_listener *listener, void *data)
{
	struct kiosk_keyboard *keyboard = wl_container_of(listener, keyboard, destroy);
	wl_list_remove(&keyboard->key.link);
	wl_list_remove(&keyboard->modifiers.link);
	wl_list_remove(&keyboard->destroy.link);
	wl_list_remove(&keyboard->link);
	update_seat_capabilities(keyboard->kiosk);
	free(keyboard);
}

static void add_keyboard(struct kiosk *k, struct wlr_input_device *device)
{
	struct kiosk_keyboard *keyboard = calloc(1, sizeof(*keyboard));
	if (keyboard == NULL)
		return;
	keyboard->kiosk = k;
	keyboard->device = device;

	/* NULL names: the XKB_DEFAULT_* environment, else xkbcommon's defaults. */
	struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	struct xkb_keymap *keymap =
		context != NULL ? xkb_keymap_new_from_names(context, NULL, XKB_KEYMAP_COMPILE_NO_FLAGS) : NULL;
	if (keymap != NULL)
		wlr_keyboard_set_keymap(device->keyboard, keymap);
	else
		fprintf(stderr, "tactile-wlr-kiosk: no XKB keymap for %s\n", device->name);
	xkb_keymap_unref(keymap);
	xkb_context_unref(context);
	wlr_keyboard_set_repeat_info(device->keyboard, 25, 600);

	keyboard->key.notify = handle_key;
	wl_signal_add(&device->keyboard->events.key, &keyboard->key);
	keyboard->modifiers.notify = handle_modifiers;
	wl_signal_add(&device->keyboard->events.modifiers, &keyboard->modifiers);
	keyboard->destroy.notify = handle_keyboard_destroy;
	wl_signal_add(&device->events.destroy, &keyboard->destroy);
	wl_list_insert(&k->keyboards, &keyboard->link);
	wlr_seat_set_keyboard(k->seat, device);
	update_seat_capabilities(k);
}

static void handle_new_input(struct wl_listener *listener, void *data)
{
	struct kiosk *k = wl_container_of(listener, k, new_input);
	struct wlr_input_device *device = data;
	switch (device->type) {
	case WLR_INPUT_DEVICE_TOUCH:
		add_touch(k, device);
		break;
	case WLR_INPUT_DEVICE_POINTER:
		wlr_cursor_attach_input_device(k->cursor, device);
		break;
	case WLR_INPUT_DEVICE_KEYBOARD:
		add_keyboard(k, device);
		break;
	default:
		break;
	}
}

void input_init(struct kiosk *k)
{
	wl_list_init(&k->keyboards);
	k->deadline_timer = wl_event_loop_add_timer(k->loop, handle_deadline, k);
	tactile_router_set_event_callback(k->router, handle_router_event, k);

	update_seat_capabilities(k);

	k->new_input.notify = handle_new_input;
	wl_signal_add(&k->backend->events.new_input, &k->new_input);
	k->cursor_motion.notify = handle_cursor_motion;
	wl_signal_add(&k->cursor->events.motion, &k->cursor_motion);
	k->cursor_motion_absolute.notify = handle_cursor_motion_absolute;
	wl_signal_add(&k->cursor->events.motion_absolute, &k->cursor_motion_absolute);
	k->cursor_button.notify = handle_cursor_button;
	wl_signal_add(&k->cursor->events.button, &k->cursor_button);
	k->cursor_axis.notify = handle_cursor_axis;
	wl_signal_add(&k->cursor->events.axis, &k->cursor_axis);
}

/* ---- The test hook: a headless touchscreen fed by text lines ------------------------- */

/* Hosts without uinput have no touchscreen to drive: lines written to a FIFO become events
 * on a headless touch device, emitted on its wlr_touch signals so that they take the path a
 * real touchscreen's take. */
struct test_input {
	struct kiosk *kiosk;
	const char *path;
	struct wlr_input_device *device;
	int fd;
	struct wl_event_source *source;
	char line[4096];
	size_t length;
	/* Dropping a line too long for `line` until its newline comes. */
	bool overlong;
};

static void test_input_line(struct test_input *t, const char *line)
{
	struct wlr_touch *touch = t->device->touch;
	struct kiosk *k = t->kiosk;
	struct wlr_box *box = k->output != NULL ? wlr_output_layout_get_box(k->layout, k->output) : NULL;
	uint32_t time_msec = (uint32_t)(kiosk_now_usec() / 1000);
	int32_t id;
	double x, y;
	char word[8];

	if (sscanf(line, " %7s", word) != 1 || word[0] == '#')
		return;
	if (box == NULL || box->width <= 0 || box->height <= 0) {
		fprintf(stderr, "tactile-wlr-kiosk: %s: no output yet for \"%s\"\n", t->path, line);
	} else if (sscanf(line, " down %d %lf %lf", &id, &x, &y) == 3) {
		struct wlr_event_touch_down event = {
			t->device, time_msec, id, x / box->width, y / box->height,
		};
		wl_signal_emit(&touch->events.down, &event);
	} else if (sscanf(line, " motion %d %lf %lf", &id, &x, &y) == 3) {
		struct wlr_event_touch_motion event = {
			t->device, time_msec, id, x / box->width, y / box->height,
		};
		wl_signal_emit(&touch->events.motion, &event);
	} else if (sscanf(line, " up %d", &id) == 1) {
		struct wlr_event_touch_up event = {t->device, time_msec, id};
		wl_signal_emit(&touch->events.up, &event);
	} else if (sscanf(line, " cancel %d", &id) == 1) {
		struct wlr_event_touch_cancel event = {t->device, time_msec, id};
		wl_signal_emit(&touch->events.cancel, &event);
	} else if (strcmp(word, "frame") == 0) {
		wl_signal_emit(&touch->events.frame, NULL);
	} else {
		fprintf(stderr, "tactile-wlr-kiosk: %s: not a touch line: \"%s\"\n", t->path, line);
	}
}

static int test_input_readable(int fd, uint32_t mask, void *data);

static bool test_input_open(struct test_input *t)
{
	/* Non-blocking: a FIFO's open would otherwise wait for its first writer. */
	t->source = NULL;
	t->fd = open(t->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (t->fd < 0) {
		fprintf(stderr, "tactile-wlr-kiosk: %s: %s\n", t->path, strerror(errno));
		return false;
	}
	t->source = wl_event_loop_add_fd(t->kiosk->loop, t->fd, WL_EVENT_READABLE, test_input_readable, t);
	if (t->source == NULL) {
		fprintf(stderr, "tactile-wlr-kiosk: %s: cannot be polled (not a FIFO?)\n", t->path);
		close(t->fd);
		return false;
	}
	return true;
}

static int test_input_readable(int fd, uint32_t mask, void *data)
{
	struct test_input *t = data;
	for (;;) {
		ssize_t n = read(fd, t->line + t->length, sizeof(t->line) - 1 - t->length);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n <= 0)
			break;
		t->length += (size_t)n;
		t->line[t->length] = '\0';
		char *start = t->line, *end;
		while ((end = strchr(start, '\n')) != NULL) {
			*end = '\0';
			if (!t->overlong)
				test_input_line(t, start);
			t->overlong = false;
			start = end + 1;
		}
		t->length -= (size_t)(start - t->line);
		memmove(t->line, start, t->length);
		if (t->length == sizeof(t->line) - 1) {
			if (!t->overlong)
				fprintf(stderr, "tactile-wlr-kiosk: %s: line too long, dropped\n", t->path);
			t->overlong = true;
			t->length = 0;
		}
	}
	/* The last writer closed the FIFO: it now reads end-of-file (and polls as hung up)
	 * until someone opens it again, so start over with a fresh open. */
	if (t->length > 0 && !t->overlong) {
		t->line[t->length] = '\0';
		test_input_line(t, t->line);
	}
	t->length = 0;
	t->overlong = false;
	wl_event_source_remove(t->source);
	close(t->fd);
	test_input_open(t);
	return 0;
}

static struct test_input fifo;

bool test_input_init(struct kiosk *k, const char *path)
{
	fifo.kiosk = k;
	fifo.path = path;
	fifo.device = wlr_headless_add_input_device(k->headless, WLR_INPUT_DEVICE_TOUCH);
	if (fifo.device == NULL) {
		fprintf(stderr, "tactile-wlr-kiosk: no headless touch device\n");
		return false;
	}
	return test_input_open(&fifo);
}

void input_finish(struct kiosk *k)
{
	wl_event_source_remove(k->deadline_timer);
	if (fifo.source != NULL) {
		wl_event_source_remove(fifo.source);
		close(fifo.fd);
	}
}
