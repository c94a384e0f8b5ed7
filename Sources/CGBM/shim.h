#ifndef TACTILE_CGBM_SHIM_H
#define TACTILE_CGBM_SHIM_H
// GBM: buffer objects on a DRM card that its CRTCs scan out and a GPU renders into, and an
// EGL display on a card's primary node, where a CPU rasterizer can map dumb buffers.
#include <gbm.h>
#endif
