/*
 * tactile-wlr-kiosk [--config FILE.yaml] [--trace] [--debug] -- APP [ARGS...]
 *
 * A kiosk compositor on wlroots 0.15: it runs APP full screen and exits with APP's status.
 * wlroots does the outputs, rendering (wlr_scene, for drawing only) and protocols; libtactile
 * makes every input routing decision and recognizes the configured gestures.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wlr/backend.h>
#include <wlr/backend/headless.h>
#include <wlr/backend/multi.h>
#include <wlr/render/allocator.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xcursor_manager.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>
#include "kiosk.h"

extern char **environ;

/* Outputs without modes of their own (headless, nested) get this size. */
#define DEFAULT_WIDTH 1280
#define DEFAULT_HEIGHT 800

struct kiosk_output {
	struct kiosk *kiosk;
	struct wlr_output *output;
	struct wl_listener frame, destroy;
};

/* ---- Children: the app and the gestures' commands ------------------------------------ */

/* The event loop receives SIGCHLD, SIGINT and SIGTERM through a signalfd, so they are blocked
 * here; a child starts with none blocked and default dispositions, as if run from a shell. */
static pid_t spawn(const char *file, char *const argv[], char *const envp[])
{
	posix_spawnattr_t attr;
	sigset_t none, all;
	sigemptyset(&none);
	sigfillset(&all);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &all);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	pid_t pid = 0;
	int error = posix_spawnp(&pid, file, NULL, &attr, argv, envp);
	posix_spawnattr_destroy(&attr);
	if (error != 0) {
		fprintf(stderr, "tactile-wlr-kiosk: %s: %s\n", file, strerror(error));
		return 0;
	}
	return pid;
}

static int handle_sigchld(int signal_number, void *data)
{
	struct kiosk *k = data;
	int status;
	pid_t pid;
	/* Gesture commands are reaped here too; only the app's end matters. */
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		if (pid != k->app)
			continue;
		k->app = 0;
		k->exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		wl_display_terminate(k->display);
	}
	return 0;
}

static int handle_terminate(int signal_number, void *data)
{
	struct kiosk *k = data;
	wl_display_terminate(k->display);
	return 0;
}

/* ---- Gestures ----------------------------------------------------------------------- */

static const char *state_name(tactile_gesture_state state)
{
	switch (state) {
	case TACTILE_GESTURE_POSSIBLE:
		return "possible";
	case TACTILE_GESTURE_BEGAN:
		return "began";
	case TACTILE_GESTURE_CHANGED:
		return "changed";
	case TACTILE_GESTURE_ENDED:
		return "ended";
	case TACTILE_GESTURE_CANCELLED:
		return "cancelled";
	case TACTILE_GESTURE_FAILED:
		return "failed";
	case TACTILE_GESTURE_RECOGNIZED:
		return "recognized";
	}
	return "unknown";
}

/* `run:` goes to /bin/sh with the gesture in TACTILE_GESTURE*; those names are dropped from
 * the inherited environment so that a shell (which takes the last of duplicates) sees ours. */
static void run_command(const struct tactile_gesture_event *event)
{
	char name[512], state[64], x[64], y[64], dx[64], dy[64], scale[64], count[64];
	snprintf(name, sizeof(name), "TACTILE_GESTURE=%s", event->name != NULL ? event->name : "");
	snprintf(state, sizeof(state), "TACTILE_GESTURE_STATE=%s", state_name(event->state));
	snprintf(x, sizeof(x), "TACTILE_GESTURE_X=%g", event->x);
	snprintf(y, sizeof(y), "TACTILE_GESTURE_Y=%g", event->y);
	snprintf(dx, sizeof(dx), "TACTILE_GESTURE_DX=%g", event->dx);
	snprintf(dy, sizeof(dy), "TACTILE_GESTURE_DY=%g", event->dy);
	snprintf(scale, sizeof(scale), "TACTILE_GESTURE_SCALE=%g", event->scale);
	snprintf(count, sizeof(count), "TACTILE_GESTURE_COUNT=%d", event->count);
	char *ours[] = {name, state, x, y, dx, dy, scale, count};
	size_t n_ours = sizeof(ours) / sizeof(ours[0]);

	size_t n_environ = 0;
	while (environ[n_environ] != NULL)
		n_environ++;
	char **envp = calloc(n_ours + n_environ + 1, sizeof(*envp));
	if (envp == NULL)
		return;
	size_t n = 0;
	for (size_t i = 0; i < n_ours; i++)
		envp[n++] = ours[i];
	for (size_t i = 0; i < n_environ; i++) {
		if (strncmp(environ[i], "TACTILE_GESTURE", strlen("TACTILE_GESTURE")) != 0)
			envp[n++] = environ[i];
	}
	char *argv[] = {"sh", "-c", (char *)event->command, NULL};
	spawn("/bin/sh", argv, envp);
	free(envp);
}

static void handle_gesture(void *data, const struct tactile_gesture_event *event)
{
	switch (event->state) {
	case TACTILE_GESTURE_BEGAN:
	case TACTILE_GESTURE_RECOGNIZED:
	case TACTILE_GESTURE_ENDED:
	case TACTILE_GESTURE_CANCELLED:
		fprintf(stderr, "tactile-wlr-kiosk: gesture %s %s\n", event->name != NULL ? event->name : "(unnamed)",
			state_name(event->state));
		break;
	default:
		break;
	}
	if (event->command == NULL)
		return;
	/* `when: recognized` (the default) runs a discrete gesture as it is recognized and a
	 * continuous one as it begins; `when: ended` once a continuous one ends. */
	bool at_end = event->when != NULL && strcmp(event->when, "ended") == 0;
	bool due = at_end ? event->state == TACTILE_GESTURE_ENDED
			  : event->state == TACTILE_GESTURE_RECOGNIZED || event->state == TACTILE_GESTURE_BEGAN;
	if (due)
		run_command(event);
}

static void handle_trace(void *data, const char *line)
{
	fprintf(stderr, "trace: %s\n", line);
}

static bool load_gestures(struct kiosk *k, const char *path)
{
	FILE *file = fopen(path, "rb");
	if (file == NULL) {
		fprintf(stderr, "tactile-wlr-kiosk: %s: %s\n", path, strerror(errno));
		return false;
	}
	char *text = NULL;
	size_t length = 0, capacity = 0;
	for (;;) {
		if (length == capacity) {
			capacity = capacity != 0 ? capacity * 2 : 4096;
			char *bigger = realloc(text, capacity);
			if (bigger == NULL)
				break;
			text = bigger;
		}
		size_t n = fread(text + length, 1, capacity - length, file);
		length += n;
		if (n == 0)
			break;
	}
	bool read_all = !ferror(file) && feof(file);
	fclose(file);
	if (!read_all) {
		fprintf(stderr, "tactile-wlr-kiosk: %s: cannot read it\n", path);
		free(text);
		return false;
	}
	tactile_status status = tactile_gestures_load_yaml(k->router, text, length, path);
	/* Every devices: entry is checked now, whatever device it will match, so that a mistake
	 * stops the kiosk at start rather than at a touchscreen's arrival. */
	if (status == TACTILE_OK)
		status = tactile_device_load_touch_filters_yaml(k->router, 0, "", NULL, text, length, path);
	/* accessibility: holds every touch of every device; this kiosk draws no ring for it,
	 * and no magnified view, so accessibility.zoom stays off here. */
	if (status == TACTILE_OK)
		status = tactile_load_accommodations_yaml(k->router, text, length, path);
	if (status == TACTILE_OK)
		status = tactile_set_zoom(k->router, NULL);
	if (status != TACTILE_OK) {
		fprintf(stderr, "tactile-wlr-kiosk: %s\n", tactile_router_error(k->router));
		free(text);
		return false;
	}
	tactile_device_set_touch_filters(k->router, 0, NULL);
	k->config_text = text;
	k->config_length = length;
	k->config_path = path;
	return true;
}

/* ---- The app's window: full screen on the kiosk's output ------------------------------ */

static struct wlr_box output_box(struct kiosk *k)
{
	struct wlr_box *box = k->output != NULL ? wlr_output_layout_get_box(k->layout, k->output) : NULL;
	return box != NULL ? *box : (struct wlr_box){0};
}

/* The window's geometry (what the client calls its window, shadows left out) fills the
 * output: the surface sits that much up and left of the output's corner. */
static void view_place(struct kiosk_view *view)
{
	struct wlr_box box = output_box(view->kiosk), geometry;
	wlr_xdg_surface_get_geometry(view->xdg, &geometry);
	view->root->x = box.x - geometry.x;
	view->root->y = box.y - geometry.y;
	wlr_scene_node_set_position(view->scene_node, view->root->x, view->root->y);
}

static void view_fit(struct kiosk_view *view)
{
	struct wlr_box box = output_box(view->kiosk);
	wlr_xdg_toplevel_set_size(view->xdg, box.width, box.height);
	wlr_xdg_toplevel_set_fullscreen(view->xdg, true);
	wlr_xdg_toplevel_set_activated(view->xdg, true);
}

static void handle_view_map(struct wl_listener *listener, void *data)
{
	struct kiosk_view *view = wl_container_of(listener, view, map);
	view_place(view);
	surface_attach(view->root, tactile_router_root(view->kiosk->router));
}

static void handle_view_unmap(struct wl_listener *listener, void *data)
{
	struct kiosk_view *view = wl_container_of(listener, view, unmap);
	surface_detach(view->root);
}

/* The main surface is synced here rather than by its own listener: it must be placed first. */
static void handle_view_commit(struct wl_listener *listener, void *data)
{
	struct kiosk_view *view = wl_container_of(listener, view, commit);
	view_place(view);
	surface_sync(view->root);
}

static void handle_view_destroy(struct wl_listener *listener, void *data)
{
	struct kiosk_view *view = wl_container_of(listener, view, destroy);
	surface_untrack(view->root);
	wl_list_remove(&view->map.link);
	wl_list_remove(&view->unmap.link);
	wl_list_remove(&view->commit.link);
	wl_list_remove(&view->destroy.link);
	wl_list_remove(&view->link);
	free(view);
}

/* The router forgets a client's nodes and touches when told it left (without sending its
 * touches an up, as removing them one by one would). libwayland announces a client's end
 * before it destroys the client's surfaces. */
static void handle_client_destroy(struct wl_listener *listener, void *data)
{
	struct kiosk_client *client = wl_container_of(listener, client, destroy);
	struct kiosk *k = client->kiosk;
	kiosk_route(k, tactile_client_disconnected(k->router, (tactile_client)(uintptr_t)client->client),
		    "client disconnected");
	struct kiosk_view *view;
	wl_list_for_each (view, &k->views, link) {
		if (wl_resource_get_client(view->xdg->resource) == client->client)
			surface_forget(view->root);
	}
	wl_list_remove(&client->destroy.link);
	wl_list_remove(&client->link);
	free(client);
}

static void track_client(struct kiosk *k, struct wl_client *wl_client)
{
	struct kiosk_client *client;
	wl_list_for_each (client, &k->clients, link) {
		if (client->client == wl_client)
			return;
	}
	client = calloc(1, sizeof(*client));
	if (client == NULL)
		return;
	client->kiosk = k;
	client->client = wl_client;
	client->destroy.notify = handle_client_destroy;
	wl_client_add_destroy_listener(wl_client, &client->destroy);
	wl_list_insert(&k->clients, &client->link);
}

static void handle_new_xdg_surface(struct wl_listener *listener, void *data)
{
	struct kiosk *k = wl_container_of(listener, k, new_xdg_surface);
	struct wlr_xdg_surface *xdg = data;
	/* Popups are neither drawn nor routed: a kiosk app's menus are its own widgets. */
	if (xdg->role != WLR_XDG_SURFACE_ROLE_TOPLEVEL)
		return;
	struct kiosk_view *view = calloc(1, sizeof(*view));
	if (view == NULL)
		return;
	view->kiosk = k;
	view->xdg = xdg;
	view->scene_node = wlr_scene_xdg_surface_create(&k->scene->node, xdg);
	view->root = view->scene_node != NULL ? surface_track(k, xdg->surface, NULL, NULL) : NULL;
	if (view->root == NULL) {
		if (view->scene_node != NULL)
			wlr_scene_node_destroy(view->scene_node);
		wl_client_post_no_memory(wl_resource_get_client(xdg->resource));
		free(view);
		return;
	}
	view->root->toplevel = true;
	track_client(k, wl_resource_get_client(xdg->resource));

	view->map.notify = handle_view_map;
	wl_signal_add(&xdg->events.map, &view->map);
	view->unmap.notify = handle_view_unmap;
	wl_signal_add(&xdg->events.unmap, &view->unmap);
	view->commit.notify = handle_view_commit;
	wl_signal_add(&xdg->surface->events.commit, &view->commit);
	view->destroy.notify = handle_view_destroy;
	wl_signal_add(&xdg->events.destroy, &view->destroy);
	wl_list_insert(&k->views, &view->link);
	view_fit(view);
}

/* ---- Outputs ------------------------------------------------------------------------ */

/* Edge gestures measure from the root's bounds, and every window fills the kiosk's output. */
static void handle_layout_change(struct wl_listener *listener, void *data)
{
	struct kiosk *k = wl_container_of(listener, k, layout_change);
	struct wlr_box *box = wlr_output_layout_get_box(k->layout, NULL);
	kiosk_route(k,
		    tactile_node_set_geometry(k->router, tactile_router_root(k->router), box->x, box->y, box->width,
					      box->height),
		    "root geometry");
	struct kiosk_view *view;
	wl_list_for_each (view, &k->views, link) {
		view_fit(view);
		view_place(view);
		surface_sync(view->root);
	}
}

static void handle_frame(struct wl_listener *listener, void *data)
{
	struct kiosk_output *output = wl_container_of(listener, output, frame);
	struct wlr_scene_output *scene_output = wlr_scene_get_scene_output(output->kiosk->scene, output->output);
	wlr_scene_output_commit(scene_output);
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	wlr_scene_output_send_frame_done(scene_output, &now);
}

static void handle_output_destroy(struct wl_listener *listener, void *data)
{
	struct kiosk_output *output = wl_container_of(listener, output, destroy);
	struct kiosk *k = output->kiosk;
	if (k->output == output->output)
		k->output = NULL;
	wl_list_remove(&output->frame.link);
	wl_list_remove(&output->destroy.link);
	free(output);
}

static void handle_new_output(struct wl_listener *listener, void *data)
{
	struct kiosk *k = wl_container_of(listener, k, new_output);
	struct wlr_output *wlr_output = data;
	if (!wlr_output_init_render(wlr_output, k->allocator, k->renderer)) {
		fprintf(stderr, "tactile-wlr-kiosk: output %s cannot be rendered to\n", wlr_output->name);
		return;
	}
	struct wlr_output_mode *mode = wlr_output_preferred_mode(wlr_output);
	if (mode != NULL)
		wlr_output_set_mode(wlr_output, mode);
	else
		wlr_output_set_custom_mode(wlr_output, DEFAULT_WIDTH, DEFAULT_HEIGHT, 0);
	wlr_output_enable(wlr_output, true);
	if (!wlr_output_commit(wlr_output)) {
		fprintf(stderr, "tactile-wlr-kiosk: output %s cannot be enabled\n", wlr_output->name);
		return;
	}
	struct kiosk_output *output = calloc(1, sizeof(*output));
	if (output == NULL)
		return;
	output->kiosk = k;
	output->output = wlr_output;
	output->frame.notify = handle_frame;
	wl_signal_add(&wlr_output->events.frame, &output->frame);
	output->destroy.notify = handle_output_destroy;
	wl_signal_add(&wlr_output->events.destroy, &output->destroy);
	if (k->output == NULL)
		k->output = wlr_output;
	/* The scene, attached to the layout, makes the output's scene output itself; the layout
	 * then emits its change, which resizes the root and the windows. */
	wlr_output_layout_add_auto(k->layout, wlr_output);
}

/* ---- Setup ---------------------------------------------------------------------------- */

static void handle_request_set_selection(struct wl_listener *listener, void *data)
{
	struct kiosk *k = wl_container_of(listener, k, request_set_selection);
	struct wlr_seat_request_set_selection_event *event = data;
	wlr_seat_set_selection(k->seat, event->source, event->serial);
}

static void find_headless(struct wlr_backend *backend, void *data)
{
	if (wlr_backend_is_headless(backend))
		*(struct wlr_backend **)data = backend;
}

static void usage(FILE *stream)
{
	fprintf(stream, "usage: tactile-wlr-kiosk [--config FILE.yaml] [--trace] [--debug] -- APP [ARGS...]\n");
}

static void die(const char *message)
{
	fprintf(stderr, "tactile-wlr-kiosk: %s\n", message);
	exit(1);
}

int main(int argc, char *argv[])
{
	static const struct option options[] = {
		{"config", required_argument, NULL, 'c'},
		{"trace", no_argument, NULL, 't'},
		{"debug", no_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	const char *config = NULL;
	bool trace = false, debug = false;
	int option;
	/* "+": the app's own options are the app's. */
	while ((option = getopt_long(argc, argv, "+c:tdh", options, NULL)) != -1) {
		switch (option) {
		case 'c':
			config = optarg;
			break;
		case 't':
			trace = true;
			break;
		case 'd':
			debug = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	wlr_log_init(debug ? WLR_DEBUG : WLR_ERROR, NULL);

	struct kiosk kiosk = {0}, *k = &kiosk;
	wl_list_init(&k->views);
	wl_list_init(&k->clients);
	k->router = tactile_router_create();
	if (k->router == NULL)
		die("out of memory");
	tactile_router_set_gesture_callback(k->router, handle_gesture, k);
	if (trace)
		tactile_router_set_trace_callback(k->router, handle_trace, k);
	if (config != NULL && !load_gestures(k, config))
		return 1;

	k->display = wl_display_create();
	k->loop = wl_display_get_event_loop(k->display);
	/* WLR_BACKENDS picks: DRM and libinput on a console, headless or nested for tests. */
	k->backend = wlr_backend_autocreate(k->display);
	if (k->backend == NULL)
		die("no wlroots backend");
	if (wlr_backend_is_multi(k->backend))
		wlr_multi_for_each_backend(k->backend, find_headless, &k->headless);
	k->renderer = wlr_renderer_autocreate(k->backend);
	if (k->renderer == NULL)
		die("no renderer");
	wlr_renderer_init_wl_display(k->renderer, k->display);
	k->allocator = wlr_allocator_autocreate(k->backend, k->renderer);
	if (k->allocator == NULL)
		die("no allocator");

	/* wlroots 0.15's compositor global brings wl_subcompositor with it. */
	wlr_compositor_create(k->display, k->renderer);
	wlr_data_device_manager_create(k->display);

	k->layout = wlr_output_layout_create();
	k->scene = wlr_scene_create();
	wlr_scene_attach_output_layout(k->scene, k->layout);
	k->layout_change.notify = handle_layout_change;
	wl_signal_add(&k->layout->events.change, &k->layout_change);
	k->new_output.notify = handle_new_output;
	wl_signal_add(&k->backend->events.new_output, &k->new_output);

	k->xdg_shell = wlr_xdg_shell_create(k->display);
	k->new_xdg_surface.notify = handle_new_xdg_surface;
	wl_signal_add(&k->xdg_shell->events.new_surface, &k->new_xdg_surface);

	k->seat = wlr_seat_create(k->display, "seat0");
	k->request_set_selection.notify = handle_request_set_selection;
	wl_signal_add(&k->seat->events.request_set_selection, &k->request_set_selection);
	k->cursor = wlr_cursor_create();
	wlr_cursor_attach_output_layout(k->cursor, k->layout);
	k->xcursors = wlr_xcursor_manager_create(NULL, 24);
	wlr_xcursor_manager_load(k->xcursors, 1);
	input_init(k);

	const char *test_input = getenv("TACTILE_WLR_KIOSK_INPUT");
	if (test_input != NULL && test_input[0] != '\0') {
		if (k->headless == NULL)
			die("TACTILE_WLR_KIOSK_INPUT needs the headless backend (WLR_BACKENDS=headless)");
		if (!test_input_init(k, test_input))
			return 1;
	}

	k->socket = wl_display_add_socket_auto(k->display);
	if (k->socket == NULL)
		die("no Wayland socket (is XDG_RUNTIME_DIR set?)");
	k->signals[0] = wl_event_loop_add_signal(k->loop, SIGCHLD, handle_sigchld, k);
	k->signals[1] = wl_event_loop_add_signal(k->loop, SIGTERM, handle_terminate, k);
	k->signals[2] = wl_event_loop_add_signal(k->loop, SIGINT, handle_terminate, k);
	if (!wlr_backend_start(k->backend))
		die("the backend does not start");
	/* wlroots' autocreate gives headless WLR_HEADLESS_OUTPUTS outputs (1 unless set): make
	 * one when that was 0, since a kiosk without a screen has nothing to fill. */
	if (k->headless != NULL && k->output == NULL)
		wlr_headless_add_output(k->headless, DEFAULT_WIDTH, DEFAULT_HEIGHT);

	setenv("WAYLAND_DISPLAY", k->socket, 1);
	k->app = spawn(argv[optind], &argv[optind], environ);
	if (k->app == 0)
		k->exit_status = 127;
	else
		wl_display_run(k->display);

	if (k->app != 0)
		kill(k->app, SIGTERM);
	wl_display_destroy_clients(k->display);
	/* The outputs go with the backend, inside wl_display_destroy: nothing to refit then, and
	 * no router call may re-arm a timer of a loop on its way out. */
	wl_list_remove(&k->layout_change.link);
	input_finish(k);
	for (size_t i = 0; i < sizeof(k->signals) / sizeof(k->signals[0]); i++)
		wl_event_source_remove(k->signals[i]);
	wl_display_destroy(k->display);
	wlr_xcursor_manager_destroy(k->xcursors);
	wlr_cursor_destroy(k->cursor);
	/* In this order: 0.15's scene forgets the layout when the layout goes, not when it does. */
	wlr_output_layout_destroy(k->layout);
	wlr_scene_node_destroy(&k->scene->node);
	wlr_allocator_destroy(k->allocator);
	wlr_renderer_destroy(k->renderer);
	tactile_router_destroy(k->router);
	free(k->config_text);
	return k->exit_status;
}
