// tactile-dmabuf-probe: a client that makes real dmabufs and hands them to the compositor
// through zwp_linux_dmabuf_v1, as GPU-rendering clients (browsers, video players) do. Its
// buffers are dumb buffers of the device the compositor's feedback names as its main device
// (as a client allocates where the compositor reads), opened through that device's card
// node (dumb buffers are not made on render nodes), filled through their mapping, exported
// with PRIME, and sent with the implied modifier (DRM_FORMAT_MOD_INVALID: the driver's own
// layout, linear for dumb buffers), which every importer takes.
//
// Usage:
//   tactile-dmabuf-probe feedback      prints `main_device MAJOR:MINOR`, `formats N` (the
//                                      table's entries), `XR24 implicit yes|no` (XRGB8888 with
//                                      the driver's implied layout), `tranches N`
//   tactile-dmabuf-probe show RRGGBB   a full-screen window showing a 256x256 dmabuf of that
//                                      colour (`created` or `failed` printed), until killed
//   tactile-dmabuf-probe scanout RRGGBB [torn]  a full-screen window showing a dmabuf of
//                                      that colour as large as the window, which the
//                                      compositor may scan out; prints `created` and `shown
//                                      WxH` or `failed`. `torn`: the surface asks to be shown
//                                      torn (wp_tearing_control_v1 async), as games do
//   tactile-dmabuf-probe capture OUTPUT.ppm WINDOW.ppm  through ext-image-copy-capture, the
//                                      first output and then the first listed window copied
//                                      into dmabufs of the main device, each written as a
//                                      PPM; prints each session's constraints (`dmabuf_device
//                                      main|other`, `XR24 implicit yes|no`, `size WxH`), what
//                                      a dmabuf of half the width got (`smaller failed R`),
//                                      and `ready` or `failed R` for the copy
//   tactile-dmabuf-probe bad CASE      one wrong use, printing `error CODE` (the protocol
//                                      error it got), `created` or `failed`. CASE: plane-idx,
//                                      plane-set, incomplete, format, dimensions, bounds,
//                                      used, not-dmabuf, flags, immed-not-dmabuf,
//                                      other-device (a buffer of a device besides the main one)
// Exits 2 when the compositor offers no linux-dmabuf or its main device has no card node.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <wayland-client.h>
#include <sys/stat.h>
#include <xf86drm.h>
#include <drm_fourcc.h>

#include "linux-dmabuf-unstable-v1-client-protocol.h"
#include "tearing-control-v1-client-protocol.h"
#include "ext-foreign-toplevel-list-v1-client-protocol.h"
#include "ext-image-capture-source-v1-client-protocol.h"
#include "ext-image-copy-capture-v1-client-protocol.h"
#include "probe_client.h"

static struct {
    struct probe_globals globals;
    struct zwp_linux_dmabuf_v1 *dmabuf;
    struct wp_tearing_control_manager_v1 *tearing;
    struct ext_image_copy_capture_manager_v1 *capture;
    struct ext_output_image_capture_source_manager_v1 *output_sources;
    struct ext_foreign_toplevel_image_capture_source_manager_v1 *window_sources;
    struct ext_foreign_toplevel_list_v1 *toplevels;
    struct ext_foreign_toplevel_handle_v1 *first_toplevel;
    struct wl_output *output;
    struct wl_buffer *buffer;
    int result;  // 0 waiting, 1 created, -1 failed
    int formats, tranches;
    bool xr24_implicit, configured, closed;
    // scanout: the first configure only acknowledged; its size is the buffer's.
    bool deferred;
    int width, height;
    dev_t main_device;
    bool quiet;  // the feedback read only for its main device
    struct wl_surface *surface;
    unsigned char *table;
    size_t table_size;
} app;

static void toplevel_listed(void *data, struct ext_foreign_toplevel_list_v1 *list, struct ext_foreign_toplevel_handle_v1 *handle) {
    if (!app.first_toplevel) app.first_toplevel = handle;
}
static void toplevels_finished(void *data, struct ext_foreign_toplevel_list_v1 *list) {}
static const struct ext_foreign_toplevel_list_v1_listener toplevels_listener = { toplevel_listed, toplevels_finished };

static void registry_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    if (probe_bind(&app.globals, registry, name, interface, version)) return;
    if (strcmp(interface, "zwp_linux_dmabuf_v1") == 0 && version >= 4)
        app.dmabuf = wl_registry_bind(registry, name, &zwp_linux_dmabuf_v1_interface, 4);
    if (strcmp(interface, "wp_tearing_control_manager_v1") == 0)
        app.tearing = wl_registry_bind(registry, name, &wp_tearing_control_manager_v1_interface, 1);
    if (strcmp(interface, "ext_image_copy_capture_manager_v1") == 0)
        app.capture = wl_registry_bind(registry, name, &ext_image_copy_capture_manager_v1_interface, 1);
    if (strcmp(interface, "ext_output_image_capture_source_manager_v1") == 0)
        app.output_sources = wl_registry_bind(registry, name, &ext_output_image_capture_source_manager_v1_interface, 1);
    if (strcmp(interface, "ext_foreign_toplevel_image_capture_source_manager_v1") == 0)
        app.window_sources = wl_registry_bind(registry, name, &ext_foreign_toplevel_image_capture_source_manager_v1_interface, 1);
    if (strcmp(interface, "ext_foreign_toplevel_list_v1") == 0) {
        app.toplevels = wl_registry_bind(registry, name, &ext_foreign_toplevel_list_v1_interface, 1);
        // Listened to at once: the windows are listed in the answer to the bind.
        ext_foreign_toplevel_list_v1_add_listener(app.toplevels, &toplevels_listener, NULL);
    }
    if (strcmp(interface, "wl_output") == 0 && !app.output)
        app.output = wl_registry_bind(registry, name, &wl_output_interface, 1);
}
static void registry_remove(void *data, struct wl_registry *registry, uint32_t name) {}
static const struct wl_registry_listener registry_listener = { registry_global, registry_remove };

// A dumb buffer on the card node of the compositor's main device (or, `elsewhere`, of another
// device), `width` x `height` XRGB8888 of `colour`, as a PRIME fd.
static int make_dmabuf_on(bool elsewhere, int width, int height, uint32_t colour, uint32_t *stride) {
    drmDevicePtr main = NULL;
    if (drmGetDeviceFromDevId(app.main_device, 0, &main) != 0) {
        fprintf(stderr, "tactile-dmabuf-probe: the main device %u:%u is no DRM device\n", major(app.main_device), minor(app.main_device));
        exit(2);
    }
    DIR *dri = opendir("/dev/dri");
    struct dirent *entry;
    int card = -1;
    while (dri && (entry = readdir(dri))) {
        if (strncmp(entry->d_name, "card", 4) != 0) continue;
        char path[300];
        snprintf(path, sizeof path, "/dev/dri/%s", entry->d_name);
        int fd = open(path, O_RDWR | O_CLOEXEC);
        if (fd < 0) continue;
        drmDevicePtr device = NULL;
        bool same = drmGetDevice2(fd, 0, &device) == 0 && drmDevicesEqual(device, main);
        drmFreeDevice(&device);
        if (same != elsewhere) { card = fd; break; }
        close(fd);
    }
    if (dri) closedir(dri);
    drmFreeDevice(&main);
    if (card < 0) {
        fprintf(stderr, "tactile-dmabuf-probe: no card node %s the main device %u:%u in /dev/dri\n", elsewhere ? "besides" : "of",
                major(app.main_device), minor(app.main_device));
        exit(2);
    }
    struct drm_mode_create_dumb create = { .width = width, .height = height, .bpp = 32 };
    struct drm_mode_map_dumb map = { 0 };
    if (drmIoctl(card, DRM_IOCTL_MODE_CREATE_DUMB, &create) != 0) { perror("create dumb"); exit(1); }
    map.handle = create.handle;
    if (drmIoctl(card, DRM_IOCTL_MODE_MAP_DUMB, &map) != 0) { perror("map dumb"); exit(1); }
    uint32_t *pixels = mmap(NULL, create.size, PROT_READ | PROT_WRITE, MAP_SHARED, card, map.offset);
    if (pixels == MAP_FAILED) { perror("mmap"); exit(1); }
    for (uint32_t y = 0; y < (uint32_t)height; y++)
        for (uint32_t x = 0; x < (uint32_t)width; x++) pixels[y * (create.pitch / 4) + x] = 0xff000000 | colour;
    munmap(pixels, create.size);
    int prime = -1;
    if (drmPrimeHandleToFD(card, create.handle, DRM_CLOEXEC | DRM_RDWR, &prime) != 0) { perror("prime export"); exit(1); }
    *stride = create.pitch;
    return prime;
}

static int make_dmabuf(int width, int height, uint32_t colour, uint32_t *stride) {
    return make_dmabuf_on(false, width, height, colour, stride);
}

static void params_created(void *data, struct zwp_linux_buffer_params_v1 *params, struct wl_buffer *buffer) {
    app.buffer = buffer;
    app.result = 1;
}
static void params_failed(void *data, struct zwp_linux_buffer_params_v1 *params) { app.result = -1; }
static const struct zwp_linux_buffer_params_v1_listener params_listener = { params_created, params_failed };

static void feedback_done(void *data, struct zwp_linux_dmabuf_feedback_v1 *feedback) { app.result = 1; }
static void feedback_table(void *data, struct zwp_linux_dmabuf_feedback_v1 *feedback, int32_t fd, uint32_t size) {
    app.table = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    app.table_size = app.table == MAP_FAILED ? 0 : size;
    app.formats = (int)(size / 16);
    close(fd);
}
static void feedback_device(void *data, struct zwp_linux_dmabuf_feedback_v1 *feedback, struct wl_array *device) {
    dev_t dev;
    if (device->size != sizeof dev) { printf("main_device size %zu\n", device->size); return; }
    memcpy(&dev, device->data, sizeof dev);
    app.main_device = dev;
    if (!app.quiet) printf("main_device %u:%u\n", major(dev), minor(dev));
}
static void tranche_done(void *data, struct zwp_linux_dmabuf_feedback_v1 *feedback) { app.tranches++; }
static void tranche_device(void *data, struct zwp_linux_dmabuf_feedback_v1 *feedback, struct wl_array *device) {}
static void tranche_formats(void *data, struct zwp_linux_dmabuf_feedback_v1 *feedback, struct wl_array *indices) {
    uint16_t *index;
    wl_array_for_each(index, indices) {
        if (app.table_size == 0 || (size_t)*index * 16 + 16 > app.table_size) continue;
        uint32_t format;
        uint64_t modifier;
        memcpy(&format, app.table + *index * 16, 4);
        memcpy(&modifier, app.table + *index * 16 + 8, 8);
        if (format == DRM_FORMAT_XRGB8888 && modifier == DRM_FORMAT_MOD_INVALID) app.xr24_implicit = true;
    }
}
static void tranche_flags(void *data, struct zwp_linux_dmabuf_feedback_v1 *feedback, uint32_t flags) {}
static const struct zwp_linux_dmabuf_feedback_v1_listener feedback_listener = {
    feedback_done, feedback_table, feedback_device, tranche_done, tranche_device, tranche_formats, tranche_flags,
};

static void toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t width, int32_t height, struct wl_array *states) {
    app.width = width;
    app.height = height;
}
static void toplevel_close(void *data, struct xdg_toplevel *toplevel) { app.closed = true; }
static const struct xdg_toplevel_listener toplevel_listener = { toplevel_configure, toplevel_close };
static void surface_configure(void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
    xdg_surface_ack_configure(xdg_surface, serial);
    if (app.configured) return;
    app.configured = true;
    if (app.deferred) return;
    wl_surface_attach(app.surface, app.buffer, 0, 0);
    wl_surface_damage_buffer(app.surface, 0, 0, 256, 256);
    wl_surface_commit(app.surface);
    printf("shown\n");
    fflush(stdout);
}
static const struct xdg_surface_listener surface_listener = { surface_configure };

#define HIGH (uint32_t)(DRM_FORMAT_MOD_INVALID >> 32)
#define LOW (uint32_t)(DRM_FORMAT_MOD_INVALID & 0xffffffff)

// A wl_buffer of a dumb buffer of the main device, `width` x `height` of `colour`, made with
// create (the compositor answers created or failed); its PRIME fd in `fd` (kept, to read a
// copy back), NULL when the compositor refused it.
static struct wl_buffer *dmabuf_buffer(struct wl_display *display, int width, int height, uint32_t colour, int *fd, uint32_t *stride) {
    *fd = make_dmabuf(width, height, colour, stride);
    struct zwp_linux_buffer_params_v1 *params = zwp_linux_dmabuf_v1_create_params(app.dmabuf);
    zwp_linux_buffer_params_v1_add_listener(params, &params_listener, NULL);
    zwp_linux_buffer_params_v1_add(params, *fd, 0, 0, *stride, HIGH, LOW);
    zwp_linux_buffer_params_v1_create(params, width, height, DRM_FORMAT_XRGB8888, 0);
    app.result = 0;
    while (app.result == 0 && wl_display_dispatch(display) >= 0) {}
    return app.result > 0 ? app.buffer : NULL;
}

// What a capture session said, and how its frame ended.
static struct {
    int width, height;
    bool main_device, implicit, done, stopped;
    int frame;  // 0 waiting, 1 ready, -1 failed
    uint32_t reason;
} cap;

static void session_size(void *data, struct ext_image_copy_capture_session_v1 *s, uint32_t width, uint32_t height) {
    cap.width = (int)width;
    cap.height = (int)height;
}
static void session_shm(void *data, struct ext_image_copy_capture_session_v1 *s, uint32_t format) {}
static void session_device(void *data, struct ext_image_copy_capture_session_v1 *s, struct wl_array *device) {
    dev_t dev;
    cap.main_device = device->size == sizeof dev && (memcpy(&dev, device->data, sizeof dev), dev == app.main_device);
}
static void session_format(void *data, struct ext_image_copy_capture_session_v1 *s, uint32_t format, struct wl_array *modifiers) {
    uint64_t *modifier;
    wl_array_for_each(modifier, modifiers) {
        if (format == DRM_FORMAT_XRGB8888 && *modifier == DRM_FORMAT_MOD_INVALID) cap.implicit = true;
    }
}
static void session_done(void *data, struct ext_image_copy_capture_session_v1 *s) { cap.done = true; }
static void session_stopped(void *data, struct ext_image_copy_capture_session_v1 *s) { cap.stopped = true; }
static const struct ext_image_copy_capture_session_v1_listener session_listener = {
    session_size, session_shm, session_device, session_format, session_done, session_stopped,
};

static void frame_transform(void *data, struct ext_image_copy_capture_frame_v1 *f, uint32_t transform) {}
static void frame_damage(void *data, struct ext_image_copy_capture_frame_v1 *f, int32_t x, int32_t y, int32_t w, int32_t h) {}
static void frame_time(void *data, struct ext_image_copy_capture_frame_v1 *f, uint32_t hi, uint32_t lo, uint32_t ns) {}
static void frame_ready(void *data, struct ext_image_copy_capture_frame_v1 *f) { cap.frame = 1; }
static void frame_failed(void *data, struct ext_image_copy_capture_frame_v1 *f, uint32_t reason) {
    cap.frame = -1;
    cap.reason = reason;
}
static const struct ext_image_copy_capture_frame_v1_listener frame_listener = {
    frame_transform, frame_damage, frame_time, frame_ready, frame_failed,
};

// One frame of `session` into `buffer`; true when it is ready.
static bool capture_into(struct wl_display *display, struct ext_image_copy_capture_session_v1 *session, struct wl_buffer *buffer,
                         int width, int height) {
    struct ext_image_copy_capture_frame_v1 *frame = ext_image_copy_capture_session_v1_create_frame(session);
    ext_image_copy_capture_frame_v1_add_listener(frame, &frame_listener, NULL);
    ext_image_copy_capture_frame_v1_attach_buffer(frame, buffer);
    ext_image_copy_capture_frame_v1_damage_buffer(frame, 0, 0, width, height);
    ext_image_copy_capture_frame_v1_capture(frame);
    cap.frame = 0;
    while (cap.frame == 0 && wl_display_dispatch(display) >= 0) {}
    ext_image_copy_capture_frame_v1_destroy(frame);
    return cap.frame > 0;
}

// The dumb buffer behind `fd` (XRGB8888, `stride` bytes a row) as a binary PPM at `path`.
static void write_ppm(int fd, int width, int height, uint32_t stride, const char *path) {
    size_t size = (size_t)stride * (size_t)height;
    uint8_t *pixels = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
    if (pixels == MAP_FAILED) { perror("mmap the copy"); exit(1); }
    FILE *out = fopen(path, "wb");
    if (!out) { perror(path); exit(1); }
    fprintf(out, "P6\n%d %d\n255\n", width, height);
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            uint32_t pixel;
            memcpy(&pixel, pixels + (size_t)y * stride + (size_t)x * 4, 4);
            uint8_t rgb[3] = { (uint8_t)(pixel >> 16), (uint8_t)(pixel >> 8), (uint8_t)pixel };
            fwrite(rgb, 1, 3, out);
        }
    }
    fclose(out);
    munmap(pixels, size);
}

// A session on `source`: its constraints printed under `name`, a dmabuf too narrow refused,
// then one of its size copied into and written to `path`.
static void capture_source(struct wl_display *display, struct ext_image_capture_source_v1 *source, const char *name, const char *path) {
    memset(&cap, 0, sizeof cap);
    struct ext_image_copy_capture_session_v1 *session = ext_image_copy_capture_manager_v1_create_session(app.capture, source, 0);
    ext_image_copy_capture_session_v1_add_listener(session, &session_listener, NULL);
    while (!cap.done && !cap.stopped && wl_display_dispatch(display) >= 0) {}
    printf("%s dmabuf_device %s\n%s XR24 implicit %s\n%s size %dx%d\n", name, cap.main_device ? "main" : "other", name,
           cap.implicit ? "yes" : "no", name, cap.width, cap.height);
    if (cap.stopped || cap.width <= 1 || cap.height <= 0) { printf("%s stopped\n", name); return; }
    int fd;
    uint32_t stride;
    struct wl_buffer *narrow = dmabuf_buffer(display, cap.width / 2, cap.height, 0, &fd, &stride);
    if (narrow && !capture_into(display, session, narrow, cap.width / 2, cap.height)) printf("%s smaller failed %u\n", name, cap.reason);
    close(fd);
    struct wl_buffer *buffer = dmabuf_buffer(display, cap.width, cap.height, 0, &fd, &stride);
    if (!buffer) { printf("%s buffer failed\n", name); return; }
    if (!capture_into(display, session, buffer, cap.width, cap.height)) {
        printf("%s failed %u\n", name, cap.reason);
        return;
    }
    write_ppm(fd, cap.width, cap.height, stride, path);
    printf("%s ready\n", name);
}


// One wrong use of the params, by name; what the compositor answered.
static void bad(struct wl_display *display, const char *name) {
    uint32_t stride;
    int fd = make_dmabuf_on(strcmp(name, "other-device") == 0, 64, 64, 0x00ff00, &stride);
    struct zwp_linux_buffer_params_v1 *params = zwp_linux_dmabuf_v1_create_params(app.dmabuf);
    zwp_linux_buffer_params_v1_add_listener(params, &params_listener, NULL);
    uint32_t format = DRM_FORMAT_XRGB8888, flags = 0;
    int32_t width = 64, height = 64;
    bool immediate = false;
    if (strcmp(name, "plane-idx") == 0) {
        zwp_linux_buffer_params_v1_add(params, fd, 4, 0, stride, HIGH, LOW);
    } else if (strcmp(name, "plane-set") == 0) {
        zwp_linux_buffer_params_v1_add(params, fd, 0, 0, stride, HIGH, LOW);
        zwp_linux_buffer_params_v1_add(params, fd, 0, 0, stride, HIGH, LOW);
    } else if (strcmp(name, "incomplete") == 0) {
        zwp_linux_buffer_params_v1_add(params, fd, 1, 0, stride, HIGH, LOW);
    } else {
        int plane = fd;
        uint32_t offset = 0;
        if (strcmp(name, "not-dmabuf") == 0 || strcmp(name, "immed-not-dmabuf") == 0) {
            // A memfd as large as the buffer: every check passes but the import.
            plane = memfd_create("not-a-dmabuf", MFD_CLOEXEC);
            if (ftruncate(plane, (off_t)stride * 64) != 0) perror("ftruncate");
            immediate = strcmp(name, "immed-not-dmabuf") == 0;
        }
        if (strcmp(name, "bounds") == 0) offset = stride * 60;
        if (strcmp(name, "format") == 0) format = fourcc_code('Z', 'Z', 'Z', 'Z');
        if (strcmp(name, "dimensions") == 0) width = 0;
        if (strcmp(name, "flags") == 0) flags = ZWP_LINUX_BUFFER_PARAMS_V1_FLAGS_Y_INVERT;
        zwp_linux_buffer_params_v1_add(params, plane, 0, offset, stride, HIGH, LOW);
        if (strcmp(name, "used") == 0) zwp_linux_buffer_params_v1_create(params, width, height, format, flags);
    }
    if (immediate)
        zwp_linux_buffer_params_v1_create_immed(params, width, height, format, flags);
    else
        zwp_linux_buffer_params_v1_create(params, width, height, format, flags);
    while (app.result == 0 && wl_display_roundtrip(display) >= 0) {
        if (immediate) break;
    }
    int error = wl_display_get_error(display);
    if (error == EPROTO) {
        const struct wl_interface *interface;
        uint32_t id;
        printf("error %u\n", wl_display_get_protocol_error(display, &interface, &id));
    } else if (app.result != 0) {
        printf("%s\n", app.result > 0 ? "created" : "failed");
    } else {
        printf("nothing\n");
    }
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2) { fprintf(stderr, "usage: tactile-dmabuf-probe feedback | show RRGGBB | scanout RRGGBB [torn] | capture OUTPUT.ppm WINDOW.ppm | bad CASE\n"); return 1; }
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) { fprintf(stderr, "tactile-dmabuf-probe: no Wayland display\n"); return 1; }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!app.dmabuf) { printf("no linux-dmabuf v4\n"); return 2; }

    // Every mode reads the default feedback: its main device is where buffers are made.
    app.quiet = strcmp(argv[1], "feedback") != 0;
    struct zwp_linux_dmabuf_feedback_v1 *feedback = zwp_linux_dmabuf_v1_get_default_feedback(app.dmabuf);
    zwp_linux_dmabuf_feedback_v1_add_listener(feedback, &feedback_listener, NULL);
    while (app.result == 0 && wl_display_dispatch(display) >= 0) {}
    app.result = 0;
    if (!app.quiet) {
        printf("formats %d\nXR24 implicit %s\ntranches %d\n", app.formats, app.xr24_implicit ? "yes" : "no", app.tranches);
        return 0;
    }
    if (strcmp(argv[1], "bad") == 0 && argc > 2) {
        bad(display, argv[2]);
        return 0;
    }
    if (strcmp(argv[1], "show") == 0 && argc > 2) {
        int fd;
        uint32_t stride;
        bool made = dmabuf_buffer(display, 256, 256, (uint32_t)strtoul(argv[2], NULL, 16), &fd, &stride) != NULL;
        printf("%s\n", made ? "created" : "failed");
        if (!made) return 1;
        app.surface = probe_fullscreen_window(app.globals.compositor, app.globals.wm_base, "tactile-dmabuf-probe",
                                              &surface_listener, &toplevel_listener);
        while (!app.closed && wl_display_dispatch(display) >= 0) {}
        return 0;
    }
    if (strcmp(argv[1], "scanout") == 0 && argc > 2) {
        app.deferred = true;
        app.surface = probe_fullscreen_window(app.globals.compositor, app.globals.wm_base, "tactile-dmabuf-probe",
                                              &surface_listener, &toplevel_listener);
        while (!app.configured && wl_display_dispatch(display) >= 0) {}
        int width = app.width > 0 ? app.width : 1280, height = app.height > 0 ? app.height : 800;
        int fd;
        uint32_t stride;
        bool made = dmabuf_buffer(display, width, height, (uint32_t)strtoul(argv[2], NULL, 16), &fd, &stride) != NULL;
        printf("%s\n", made ? "created" : "failed");
        if (!made) return 1;
        if (argc > 3 && strcmp(argv[3], "torn") == 0) {
            if (!app.tearing) { printf("no wp_tearing_control_manager_v1\n"); return 2; }
            struct wp_tearing_control_v1 *control = wp_tearing_control_manager_v1_get_tearing_control(app.tearing, app.surface);
            wp_tearing_control_v1_set_presentation_hint(control, WP_TEARING_CONTROL_V1_PRESENTATION_HINT_ASYNC);
        }
        wl_surface_attach(app.surface, app.buffer, 0, 0);
        wl_surface_damage_buffer(app.surface, 0, 0, width, height);
        wl_surface_commit(app.surface);
        printf("shown %dx%d\n", width, height);
        while (!app.closed && wl_display_dispatch(display) >= 0) {}
        return 0;
    }
    if (strcmp(argv[1], "capture") == 0 && argc > 3) {
        if (!app.capture || !app.output_sources || !app.window_sources || !app.toplevels || !app.output) {
            printf("no ext-image-copy-capture (is the probe allowed screen-capture and window-management?)\n");
            return 2;
        }
        capture_source(display, ext_output_image_capture_source_manager_v1_create_source(app.output_sources, app.output), "output", argv[2]);
        wl_display_roundtrip(display);
        if (!app.first_toplevel) { printf("no window listed\n"); return 1; }
        capture_source(display, ext_foreign_toplevel_image_capture_source_manager_v1_create_source(app.window_sources, app.first_toplevel),
                       "window", argv[3]);
        return 0;
    }
    fprintf(stderr, "tactile-dmabuf-probe: unknown mode %s\n", argv[1]);
    return 1;
}
