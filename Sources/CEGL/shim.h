#ifndef TACTILE_CEGL_SHIM_H
#define TACTILE_CEGL_SHIM_H
// EGL without X11's or Wayland's native types: Tactile's displays are surfaceless, device
// or GBM ones, and its windows are never EGL surfaces.
#define EGL_NO_X11
#define EGL_NO_PLATFORM_SPECIFIC_TYPES
#include <EGL/egl.h>
#include <EGL/eglext.h>
// GLES 3 for row lengths in uploads and readbacks; gl2ext.h for BGRA, which GLES 3's header
// leaves to the extensions.
#include <GLES3/gl3.h>
#include <GLES2/gl2ext.h>
#endif
