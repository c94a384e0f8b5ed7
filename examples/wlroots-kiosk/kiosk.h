/*
 * tactile-wlr-kiosk: one app full screen on wlroots 0.15, every input routing decision made
 * by libtactile. wlroots draws, owns the devices and speaks the protocols; libtactile's router
 * decides which surface each touch, click and key goes to, and which gestures win.
 */
#ifndef TACTILE_WLR_KIOSK_H
#define TACTILE_WLR_KIOSK_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <tactile/tactile.h>
#include <wayland-server-core.h>

struct kiosk {
	struct wl_display *display;
	struct wl_event_loop *loop;
	struct wlr_backend *backend;
	/* The headless backend inside the multi-backend, when that is what autocreate made. */
	struct wlr_backend *headless;
	struct wlr_renderer *renderer;
	struct wlr_allocator *allocator;
	struct wlr_scene *scene;
	struct wlr_output_layout *layout;
	/* The output the app fills and touchscreens map onto: the first one announced. */
	struct wlr_output *output;
	struct wlr_xdg_shell *xdg_shell;
	struct wlr_seat *seat;
	struct wlr_cursor *cursor;
	struct wlr_xcursor_manager *xcursors;
	bool cursor_shown;
	const char *socket;

	tactile_router *router;
	struct wl_event_source *deadline_timer;
	/* --config's text, kept for each touchscreen's devices: entries (its filters), and the
	 * number the next touchscreen is given for tactile_device_touch_*. */
	char *config_text;
	size_t config_length;
	const char *config_path;
	tactile_device next_touch_device;
	struct wl_event_source *signals[3];

	struct wl_list views;    /* kiosk_view.link */
	struct wl_list clients;  /* kiosk_client.link */
	struct wl_list keyboards; /* kiosk_keyboard.link */

	pid_t app;
	int exit_status;

	struct wl_listener new_output, layout_change, new_input, new_xdg_surface;
	struct wl_listener request_set_selection;
	struct wl_listener cursor_motion, cursor_motion_absolute, cursor_button, cursor_axis;
};

/* A client that has (or had) a toplevel: the router knows it by its wl_client pointer. */
struct kiosk_client {
	struct kiosk *kiosk;
	struct wl_client *client;
	struct wl_list link;
	struct wl_listener destroy;
};

/* A wl_surface of a toplevel's tree (its main surface or a subsurface) and its router node. */
struct kiosk_surface {
	struct kiosk *kiosk;
	struct wlr_surface *surface;
	/* NULL for a toplevel's main surface, which its view places and syncs. */
	struct wlr_subsurface *subsurface;
	/* NULL for a main surface, or for a subsurface whose parent was destroyed first. */
	struct kiosk_surface *parent;
	struct wl_list children; /* kiosk_surface.link */
	struct wl_list link;
	/* Where a main surface sits in the layout (set by its view). */
	int32_t x, y;
	bool toplevel;
	/* 0 while the surface is not in the router's scene (unmapped, or its parent is not). */
	tactile_node node;
	struct wl_listener commit, new_subsurface, map, unmap, destroy;
};

/* An xdg toplevel: the app's window, shown full screen on the kiosk's output. */
struct kiosk_view {
	struct kiosk *kiosk;
	struct wlr_xdg_surface *xdg;
	struct wlr_scene_node *scene_node;
	struct kiosk_surface *root;
	struct wl_list link;
	struct wl_listener map, unmap, commit, destroy;
};

/* input.c: devices in, the router's decisions out to the seat, its deadlines. */
void input_init(struct kiosk *k);
/* Removes input's event sources; the router takes no more calls afterwards. */
void input_finish(struct kiosk *k);
/* Logs a router call's failure (TACTILE_ERROR_IGNORED at debug only) and re-arms the deadline
 * timer, which any call may have moved: every router call goes through here. */
void kiosk_route(struct kiosk *k, tactile_status status, const char *what);
uint64_t kiosk_now_usec(void);
/* The TACTILE_WLR_KIOSK_INPUT test hook: a headless touchscreen fed by text lines. */
bool test_input_init(struct kiosk *k, const char *path);

/* surfaces.c: a toplevel's surface tree mirrored as router nodes. */
struct kiosk_surface *surface_track(struct kiosk *k, struct wlr_surface *surface, struct wlr_subsurface *subsurface,
				    struct kiosk_surface *parent);
/* Adds the surface (if mapped) and its mapped descendants under `parent_node`. */
void surface_attach(struct kiosk_surface *ks, tactile_node parent_node);
/* Takes the surface and its subtree out of the router's scene. */
void surface_detach(struct kiosk_surface *ks);
/* The router already dropped these nodes (their client went away): only forget them. */
void surface_forget(struct kiosk_surface *ks);
/* Sends the committed size, input region, position and subsurface order to the router. */
void surface_sync(struct kiosk_surface *ks);
void surface_untrack(struct kiosk_surface *ks);

#endif
