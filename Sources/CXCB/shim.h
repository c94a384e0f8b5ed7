#ifndef TACTILE_CXCB_SHIM_H
#define TACTILE_CXCB_SHIM_H
#include <xcb/xcb.h>
#include <xcb/composite.h>
#include <xcb/xfixes.h>
#include <xcb/res.h>

/// The event's kind without the bit that marks one sent by another client (SendEvent).
static inline uint8_t tactile_xcb_event_kind(const xcb_generic_event_t *event) {
    return event->response_type & 0x7f;
}

/// XFixes' event base on this connection (xcb_xfixes_id is a mutable global Swift 6 will not touch).
static inline uint8_t tactile_xcb_xfixes_first_event(xcb_connection_t *connection) {
    const xcb_query_extension_reply_t *reply = xcb_get_extension_data(connection, &xcb_xfixes_id);
    return reply && reply->present ? reply->first_event : 0;
}
#endif
