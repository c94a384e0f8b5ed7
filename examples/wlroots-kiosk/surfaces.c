/*
 * A toplevel's surface tree (its main surface, subsurfaces, theirs) kept in the router's scene:
 * one node per mapped surface, under its parent's node, with the committed size, position,
 * input region and stacking. The router hit-tests these nodes; wlroots' own surface_at is never
 * asked.
 */
#include <stdlib.h>
#include <wlr/types/wlr_surface.h>
#include "kiosk.h"

static tactile_client client_of(struct wlr_surface *surface)
{
	return (tactile_client)(uintptr_t)wl_resource_get_client(surface->resource);
}

static int32_t node_x(struct kiosk_surface *ks)
{
	return ks->subsurface ? ks->subsurface->current.x : ks->x;
}

static int32_t node_y(struct kiosk_surface *ks)
{
	return ks->subsurface ? ks->subsurface->current.y : ks->y;
}

static struct kiosk_surface *child_for(struct kiosk_surface *ks, struct wlr_subsurface *subsurface)
{
	struct kiosk_surface *child;
	wl_list_for_each (child, &ks->children, link) {
		if (child->subsurface == subsurface)
			return child;
	}
	return NULL;
}

/* wlroots clips input_region to the surface's size, so the region is always finite here. */
static void sync_input_region(struct kiosk_surface *ks)
{
	int count = 0;
	pixman_box32_t *boxes = pixman_region32_rectangles(&ks->surface->input_region, &count);
	struct tactile_rect *rects = calloc(count > 0 ? (size_t)count : 1, sizeof(*rects));
	if (rects == NULL)
		return;
	for (int i = 0; i < count; i++) {
		rects[i] = (struct tactile_rect){
			.x = boxes[i].x1,
			.y = boxes[i].y1,
			.width = boxes[i].x2 - boxes[i].x1,
			.height = boxes[i].y2 - boxes[i].y1,
		};
	}
	kiosk_route(ks->kiosk,
		    tactile_node_set_input_region(ks->kiosk->router, ks->node, rects, (size_t)count, 0),
		    "input region");
	free(rects);
}

static void sync_geometry(struct kiosk_surface *ks)
{
	kiosk_route(ks->kiosk,
		    tactile_node_set_geometry(ks->kiosk->router, ks->node, node_x(ks), node_y(ks),
					      ks->surface->current.width, ks->surface->current.height),
		    "node geometry");
}

/* The router's children follow wl_subsurface's order: those placed below the parent go just
 * under the parent's own content, bottom one first, the others on top in order. */
static void restack_children(struct kiosk_surface *ks)
{
	struct kiosk *k = ks->kiosk;
	struct wlr_subsurface *subsurface;
	wl_list_for_each (subsurface, &ks->surface->current.subsurfaces_below, current.link) {
		struct kiosk_surface *child = child_for(ks, subsurface);
		if (child != NULL && child->node != 0)
			kiosk_route(k, tactile_node_restack(k->router, child->node, TACTILE_STACK_BELOW, ks->node),
				    "restack");
	}
	wl_list_for_each (subsurface, &ks->surface->current.subsurfaces_above, current.link) {
		struct kiosk_surface *child = child_for(ks, subsurface);
		if (child != NULL && child->node != 0)
			kiosk_route(k, tactile_node_restack(k->router, child->node, TACTILE_STACK_TOP, 0), "restack");
	}
}

void surface_sync(struct kiosk_surface *ks)
{
	if (ks->node == 0)
		return;
	sync_geometry(ks);
	sync_input_region(ks);
	/* Subsurface positions and order take effect when the parent commits. */
	struct kiosk_surface *child;
	wl_list_for_each (child, &ks->children, link) {
		if (child->node != 0)
			sync_geometry(child);
	}
	restack_children(ks);
}

void surface_attach(struct kiosk_surface *ks, tactile_node parent_node)
{
	if (ks->node != 0 || (ks->subsurface != NULL && !ks->subsurface->mapped))
		return;
	struct kiosk *k = ks->kiosk;
	struct tactile_node_desc desc = {
		.client = client_of(ks->surface),
		.x = node_x(ks),
		.y = node_y(ks),
		.width = ks->surface->current.width,
		.height = ks->surface->current.height,
		.flags = TACTILE_NODE_MAPPED | (ks->toplevel ? TACTILE_NODE_TOPLEVEL : 0),
		.alpha = 1.0,
		.user_data = ks->surface,
	};
	tactile_node node = 0;
	kiosk_route(k, tactile_node_add(k->router, parent_node, &desc, &node), "node add");
	if (node == 0)
		return;
	ks->node = node;
	sync_input_region(ks);
	struct kiosk_surface *child;
	wl_list_for_each (child, &ks->children, link)
		surface_attach(child, node);
	restack_children(ks);
}

void surface_forget(struct kiosk_surface *ks)
{
	ks->node = 0;
	struct kiosk_surface *child;
	wl_list_for_each (child, &ks->children, link)
		surface_forget(child);
}

void surface_detach(struct kiosk_surface *ks)
{
	if (ks->node != 0)
		kiosk_route(ks->kiosk, tactile_node_remove(ks->kiosk->router, ks->node), "node remove");
	/* Removing a node removes its subtree: the children's handles are dead too. */
	surface_forget(ks);
}

static void handle_commit(struct wl_listener *listener, void *data)
{
	struct kiosk_surface *ks = wl_container_of(listener, ks, commit);
	surface_sync(ks);
}

static void handle_map(struct wl_listener *listener, void *data)
{
	struct kiosk_surface *ks = wl_container_of(listener, ks, map);
	if (ks->parent != NULL && ks->parent->node != 0) {
		surface_attach(ks, ks->parent->node);
		restack_children(ks->parent);
	}
}

static void handle_unmap(struct wl_listener *listener, void *data)
{
	struct kiosk_surface *ks = wl_container_of(listener, ks, unmap);
	surface_detach(ks);
}

static void handle_destroy(struct wl_listener *listener, void *data)
{
	struct kiosk_surface *ks = wl_container_of(listener, ks, destroy);
	surface_untrack(ks);
}

static void handle_new_subsurface(struct wl_listener *listener, void *data)
{
	struct kiosk_surface *ks = wl_container_of(listener, ks, new_subsurface);
	struct wlr_subsurface *subsurface = data;
	struct kiosk_surface *child = surface_track(ks->kiosk, subsurface->surface, subsurface, ks);
	if (child != NULL && ks->node != 0) {
		surface_attach(child, ks->node);
		restack_children(ks);
	}
}

struct kiosk_surface *surface_track(struct kiosk *k, struct wlr_surface *surface, struct wlr_subsurface *subsurface,
				    struct kiosk_surface *parent)
{
	struct kiosk_surface *ks = calloc(1, sizeof(*ks));
	if (ks == NULL)
		return NULL;
	ks->kiosk = k;
	ks->surface = surface;
	ks->subsurface = subsurface;
	ks->parent = parent;
	wl_list_init(&ks->children);
	if (parent != NULL)
		wl_list_insert(parent->children.prev, &ks->link);
	else
		wl_list_init(&ks->link);

	ks->new_subsurface.notify = handle_new_subsurface;
	wl_signal_add(&surface->events.new_subsurface, &ks->new_subsurface);
	if (subsurface != NULL) {
		ks->commit.notify = handle_commit;
		wl_signal_add(&surface->events.commit, &ks->commit);
		ks->map.notify = handle_map;
		wl_signal_add(&subsurface->events.map, &ks->map);
		ks->unmap.notify = handle_unmap;
		wl_signal_add(&subsurface->events.unmap, &ks->unmap);
		ks->destroy.notify = handle_destroy;
		wl_signal_add(&subsurface->events.destroy, &ks->destroy);
	}

	/* wlroots 0.15 announces a subsurface when its parent first commits, and xdg-shell
	 * announces a toplevel later in that same commit: subsurfaces made before it are
	 * already in the current lists, with no new_subsurface left to come. */
	struct wlr_subsurface *existing;
	wl_list_for_each (existing, &surface->current.subsurfaces_below, current.link)
		surface_track(k, existing->surface, existing, ks);
	wl_list_for_each (existing, &surface->current.subsurfaces_above, current.link)
		surface_track(k, existing->surface, existing, ks);
	return ks;
}

void surface_untrack(struct kiosk_surface *ks)
{
	surface_detach(ks);
	/* Children outlive their parent only until their own destroy, which follows. */
	struct kiosk_surface *child, *tmp;
	wl_list_for_each_safe (child, tmp, &ks->children, link) {
		child->parent = NULL;
		wl_list_remove(&child->link);
		wl_list_init(&child->link);
	}
	wl_list_remove(&ks->link);
	wl_list_remove(&ks->new_subsurface.link);
	if (ks->subsurface != NULL) {
		wl_list_remove(&ks->commit.link);
		wl_list_remove(&ks->map.link);
		wl_list_remove(&ks->unmap.link);
		wl_list_remove(&ks->destroy.link);
	}
	free(ks);
}
