#ifndef TACTILE_CDRM_SHIM_H
#define TACTILE_CDRM_SHIM_H
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

/* Function-like macros Swift cannot import. */
static const uint32_t tactile_drm_format_xrgb8888 = DRM_FORMAT_XRGB8888;
static const uint32_t tactile_drm_mode_type_preferred = DRM_MODE_TYPE_PREFERRED;
static const uint32_t tactile_drm_page_flip_event = DRM_MODE_PAGE_FLIP_EVENT;
static const uint32_t tactile_drm_page_flip_async = DRM_MODE_PAGE_FLIP_ASYNC;
static const uint32_t tactile_drm_fb_modifiers = DRM_MODE_FB_MODIFIERS;
#endif
