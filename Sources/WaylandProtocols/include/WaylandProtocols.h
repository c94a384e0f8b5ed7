// wayland-scanner output for xdg-shell (stable, unstable v6), viewporter, xdg-output, xdg-decoration,
// text-input v3, wlr-screencopy, wlr-layer-shell, wlr-foreign-toplevel-management,
// wlr-virtual-pointer, wlr-output-management, primary selection (zwp and GTK), relative pointer, pointer constraints,
// input-method v2, virtual-keyboard, linux-dmabuf, idle inhibit, idle notify, session lock, wlr-output-power, data control (wlr, ext), weston touch calibration, wl_fixes, xdg toplevel tag, transient seat and our protocols, server and client sides (the generated headers and code
// come from protocol/generate; this file is not generated).
#ifndef TACTILE_WAYLAND_PROTOCOLS_H
#define TACTILE_WAYLAND_PROTOCOLS_H

#define WL_HIDE_DEPRECATED 1
#include "xdg-shell-server-protocol.h"
#include "xdg-shell-client-protocol.h"
#include "xdg-shell-unstable-v6-server-protocol.h"
#include "xdg-shell-unstable-v6-client-protocol.h"
#include "viewporter-server-protocol.h"
#include "viewporter-client-protocol.h"
#include "xdg-output-unstable-v1-server-protocol.h"
#include "xdg-output-unstable-v1-client-protocol.h"
#include "xdg-decoration-unstable-v1-server-protocol.h"
#include "xdg-decoration-unstable-v1-client-protocol.h"
#include "wlr-screencopy-unstable-v1-server-protocol.h"
#include "wlr-screencopy-unstable-v1-client-protocol.h"
#include "wlr-layer-shell-unstable-v1-server-protocol.h"
#include "wlr-layer-shell-unstable-v1-client-protocol.h"
#include "text-input-unstable-v3-server-protocol.h"
#include "text-input-unstable-v3-client-protocol.h"
#include "wlr-foreign-toplevel-management-unstable-v1-server-protocol.h"
#include "wlr-foreign-toplevel-management-unstable-v1-client-protocol.h"
#include "wlr-virtual-pointer-unstable-v1-server-protocol.h"
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"
#include "wlr-output-management-unstable-v1-server-protocol.h"
#include "wlr-output-management-unstable-v1-client-protocol.h"
#include "primary-selection-unstable-v1-server-protocol.h"
#include "primary-selection-unstable-v1-client-protocol.h"
#include "gtk-primary-selection-server-protocol.h"
#include "gtk-primary-selection-client-protocol.h"
#include "relative-pointer-unstable-v1-server-protocol.h"
#include "relative-pointer-unstable-v1-client-protocol.h"
#include "pointer-constraints-unstable-v1-server-protocol.h"
#include "pointer-constraints-unstable-v1-client-protocol.h"
#include "pointer-gestures-unstable-v1-server-protocol.h"
#include "pointer-gestures-unstable-v1-client-protocol.h"
#include "single-pixel-buffer-v1-server-protocol.h"
#include "single-pixel-buffer-v1-client-protocol.h"
#include "fractional-scale-v1-server-protocol.h"
#include "fractional-scale-v1-client-protocol.h"
#include "tablet-unstable-v2-server-protocol.h"
#include "tablet-unstable-v2-client-protocol.h"
#include "cursor-shape-v1-server-protocol.h"
#include "cursor-shape-v1-client-protocol.h"
#include "input-method-unstable-v2-server-protocol.h"
#include "input-method-unstable-v2-client-protocol.h"
#include "virtual-keyboard-unstable-v1-server-protocol.h"
#include "virtual-keyboard-unstable-v1-client-protocol.h"
#include "idle-inhibit-unstable-v1-server-protocol.h"
#include "idle-inhibit-unstable-v1-client-protocol.h"
#include "ext-idle-notify-v1-server-protocol.h"
#include "ext-idle-notify-v1-client-protocol.h"
#include "linux-dmabuf-unstable-v1-server-protocol.h"
#include "linux-dmabuf-unstable-v1-client-protocol.h"
#include "ext-session-lock-v1-server-protocol.h"
#include "ext-session-lock-v1-client-protocol.h"
#include "wlr-output-power-management-unstable-v1-server-protocol.h"
#include "wlr-output-power-management-unstable-v1-client-protocol.h"
#include "presentation-time-server-protocol.h"
#include "presentation-time-client-protocol.h"
#include "input-timestamps-unstable-v1-server-protocol.h"
#include "input-timestamps-unstable-v1-client-protocol.h"
#include "xdg-activation-v1-server-protocol.h"
#include "xdg-activation-v1-client-protocol.h"
#include "security-context-v1-server-protocol.h"
#include "security-context-v1-client-protocol.h"
#include "wayland-core.h"
#include "fifo-v1-server-protocol.h"
#include "fifo-v1-client-protocol.h"
#include "commit-timing-v1-server-protocol.h"
#include "commit-timing-v1-client-protocol.h"
#include "xdg-toplevel-icon-v1-server-protocol.h"
#include "xdg-toplevel-icon-v1-client-protocol.h"
#include "keyboard-shortcuts-inhibit-unstable-v1-server-protocol.h"
#include "keyboard-shortcuts-inhibit-unstable-v1-client-protocol.h"
#include "xdg-dialog-v1-server-protocol.h"
#include "xdg-dialog-v1-client-protocol.h"
#include "tearing-control-v1-server-protocol.h"
#include "tearing-control-v1-client-protocol.h"
#include "xdg-system-bell-v1-server-protocol.h"
#include "xdg-system-bell-v1-client-protocol.h"
#include "alpha-modifier-v1-server-protocol.h"
#include "alpha-modifier-v1-client-protocol.h"
#include "content-type-v1-server-protocol.h"
#include "content-type-v1-client-protocol.h"
#include "ext-foreign-toplevel-list-v1-server-protocol.h"
#include "ext-foreign-toplevel-list-v1-client-protocol.h"
#include "ext-image-capture-source-v1-server-protocol.h"
#include "ext-image-capture-source-v1-client-protocol.h"
#include "ext-image-copy-capture-v1-server-protocol.h"
#include "ext-image-copy-capture-v1-client-protocol.h"
#include "tactile-test-input-v1-server-protocol.h"
#include "tactile-test-input-v1-client-protocol.h"
#include "tactile-edge-deferral-v1-server-protocol.h"
#include "tactile-edge-deferral-v1-client-protocol.h"
#include "tactile-inspector-v1-server-protocol.h"
#include "tactile-inspector-v1-client-protocol.h"
#include "wlr-data-control-unstable-v1-server-protocol.h"
#include "wlr-data-control-unstable-v1-client-protocol.h"
#include "ext-data-control-v1-server-protocol.h"
#include "ext-data-control-v1-client-protocol.h"
#include "tactile-touchscreen-mapping-v1-server-protocol.h"
#include "tactile-touchscreen-mapping-v1-client-protocol.h"
#include "weston-touch-calibration-server-protocol.h"
#include "weston-touch-calibration-client-protocol.h"
#include "wl-fixes-server-protocol.h"
#include "wl-fixes-client-protocol.h"
#include "xdg-toplevel-tag-v1-server-protocol.h"
#include "xdg-toplevel-tag-v1-client-protocol.h"
#include "ext-transient-seat-v1-server-protocol.h"
#include "ext-transient-seat-v1-client-protocol.h"

/// Swift imports the interface constants by value; these return their real addresses.
#define TACTILE_PROTOCOL_INTERFACE(name) \
    static inline const struct wl_interface *tactile_##name##_interface(void) { return &name##_interface; }
TACTILE_PROTOCOL_INTERFACE(xdg_wm_base)
TACTILE_PROTOCOL_INTERFACE(xdg_positioner)
TACTILE_PROTOCOL_INTERFACE(xdg_surface)
TACTILE_PROTOCOL_INTERFACE(xdg_toplevel)
TACTILE_PROTOCOL_INTERFACE(xdg_popup)
TACTILE_PROTOCOL_INTERFACE(zxdg_shell_v6)
TACTILE_PROTOCOL_INTERFACE(zxdg_positioner_v6)
TACTILE_PROTOCOL_INTERFACE(zxdg_surface_v6)
TACTILE_PROTOCOL_INTERFACE(zxdg_toplevel_v6)
TACTILE_PROTOCOL_INTERFACE(zxdg_popup_v6)
TACTILE_PROTOCOL_INTERFACE(wp_viewporter)
TACTILE_PROTOCOL_INTERFACE(wp_viewport)
TACTILE_PROTOCOL_INTERFACE(zxdg_output_manager_v1)
TACTILE_PROTOCOL_INTERFACE(zxdg_output_v1)
TACTILE_PROTOCOL_INTERFACE(zxdg_decoration_manager_v1)
TACTILE_PROTOCOL_INTERFACE(zxdg_toplevel_decoration_v1)
TACTILE_PROTOCOL_INTERFACE(zwlr_screencopy_manager_v1)
TACTILE_PROTOCOL_INTERFACE(zwlr_screencopy_frame_v1)
TACTILE_PROTOCOL_INTERFACE(zwlr_layer_shell_v1)
TACTILE_PROTOCOL_INTERFACE(zwlr_layer_surface_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_text_input_manager_v3)
TACTILE_PROTOCOL_INTERFACE(zwp_text_input_v3)
TACTILE_PROTOCOL_INTERFACE(zwlr_foreign_toplevel_manager_v1)
TACTILE_PROTOCOL_INTERFACE(zwlr_foreign_toplevel_handle_v1)
TACTILE_PROTOCOL_INTERFACE(zwlr_virtual_pointer_manager_v1)
TACTILE_PROTOCOL_INTERFACE(zwlr_virtual_pointer_v1)
TACTILE_PROTOCOL_INTERFACE(zwlr_output_manager_v1)
TACTILE_PROTOCOL_INTERFACE(zwlr_output_head_v1)
TACTILE_PROTOCOL_INTERFACE(zwlr_output_mode_v1)
TACTILE_PROTOCOL_INTERFACE(zwlr_output_configuration_v1)
TACTILE_PROTOCOL_INTERFACE(zwlr_output_configuration_head_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_primary_selection_device_manager_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_primary_selection_device_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_primary_selection_offer_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_primary_selection_source_v1)
TACTILE_PROTOCOL_INTERFACE(gtk_primary_selection_device_manager)
TACTILE_PROTOCOL_INTERFACE(gtk_primary_selection_device)
TACTILE_PROTOCOL_INTERFACE(gtk_primary_selection_offer)
TACTILE_PROTOCOL_INTERFACE(gtk_primary_selection_source)
TACTILE_PROTOCOL_INTERFACE(zwp_relative_pointer_manager_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_relative_pointer_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_pointer_constraints_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_locked_pointer_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_confined_pointer_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_pointer_gestures_v1)
TACTILE_PROTOCOL_INTERFACE(wp_single_pixel_buffer_manager_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_linux_dmabuf_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_linux_buffer_params_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_linux_dmabuf_feedback_v1)
TACTILE_PROTOCOL_INTERFACE(wp_fractional_scale_manager_v1)
TACTILE_PROTOCOL_INTERFACE(wp_fractional_scale_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_idle_inhibit_manager_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_idle_inhibitor_v1)
TACTILE_PROTOCOL_INTERFACE(ext_idle_notifier_v1)
TACTILE_PROTOCOL_INTERFACE(ext_idle_notification_v1)
TACTILE_PROTOCOL_INTERFACE(ext_session_lock_manager_v1)
TACTILE_PROTOCOL_INTERFACE(ext_session_lock_v1)
TACTILE_PROTOCOL_INTERFACE(ext_session_lock_surface_v1)
TACTILE_PROTOCOL_INTERFACE(zwlr_output_power_manager_v1)
TACTILE_PROTOCOL_INTERFACE(zwlr_output_power_v1)
TACTILE_PROTOCOL_INTERFACE(wp_presentation)
TACTILE_PROTOCOL_INTERFACE(wp_presentation_feedback)
TACTILE_PROTOCOL_INTERFACE(zwp_input_timestamps_manager_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_input_timestamps_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_tablet_manager_v2)
TACTILE_PROTOCOL_INTERFACE(zwp_tablet_seat_v2)
TACTILE_PROTOCOL_INTERFACE(zwp_tablet_v2)
TACTILE_PROTOCOL_INTERFACE(zwp_tablet_tool_v2)
TACTILE_PROTOCOL_INTERFACE(zwp_tablet_pad_v2)
TACTILE_PROTOCOL_INTERFACE(zwp_tablet_pad_group_v2)
TACTILE_PROTOCOL_INTERFACE(zwp_tablet_pad_ring_v2)
TACTILE_PROTOCOL_INTERFACE(zwp_tablet_pad_strip_v2)
TACTILE_PROTOCOL_INTERFACE(xdg_activation_v1)
TACTILE_PROTOCOL_INTERFACE(xdg_activation_token_v1)
TACTILE_PROTOCOL_INTERFACE(wp_security_context_manager_v1)
TACTILE_PROTOCOL_INTERFACE(wp_security_context_v1)
TACTILE_PROTOCOL_INTERFACE(wp_cursor_shape_manager_v1)
TACTILE_PROTOCOL_INTERFACE(wp_cursor_shape_device_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_pointer_gesture_swipe_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_pointer_gesture_pinch_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_pointer_gesture_hold_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_input_method_manager_v2)
TACTILE_PROTOCOL_INTERFACE(zwp_input_method_v2)
TACTILE_PROTOCOL_INTERFACE(zwp_input_popup_surface_v2)
TACTILE_PROTOCOL_INTERFACE(zwp_input_method_keyboard_grab_v2)
TACTILE_PROTOCOL_INTERFACE(zwp_virtual_keyboard_manager_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_virtual_keyboard_v1)
TACTILE_PROTOCOL_INTERFACE(ext_foreign_toplevel_list_v1)
TACTILE_PROTOCOL_INTERFACE(ext_foreign_toplevel_handle_v1)
TACTILE_PROTOCOL_INTERFACE(ext_image_capture_source_v1)
TACTILE_PROTOCOL_INTERFACE(ext_output_image_capture_source_manager_v1)
TACTILE_PROTOCOL_INTERFACE(ext_foreign_toplevel_image_capture_source_manager_v1)
TACTILE_PROTOCOL_INTERFACE(ext_image_copy_capture_manager_v1)
TACTILE_PROTOCOL_INTERFACE(ext_image_copy_capture_session_v1)
TACTILE_PROTOCOL_INTERFACE(ext_image_copy_capture_frame_v1)
TACTILE_PROTOCOL_INTERFACE(ext_image_copy_capture_cursor_session_v1)
TACTILE_PROTOCOL_INTERFACE(wp_alpha_modifier_v1)
TACTILE_PROTOCOL_INTERFACE(wp_alpha_modifier_surface_v1)
TACTILE_PROTOCOL_INTERFACE(wp_content_type_manager_v1)
TACTILE_PROTOCOL_INTERFACE(wp_content_type_v1)
TACTILE_PROTOCOL_INTERFACE(wp_tearing_control_manager_v1)
TACTILE_PROTOCOL_INTERFACE(wp_tearing_control_v1)
TACTILE_PROTOCOL_INTERFACE(xdg_system_bell_v1)
TACTILE_PROTOCOL_INTERFACE(xdg_wm_dialog_v1)
TACTILE_PROTOCOL_INTERFACE(xdg_dialog_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_keyboard_shortcuts_inhibit_manager_v1)
TACTILE_PROTOCOL_INTERFACE(zwp_keyboard_shortcuts_inhibitor_v1)
TACTILE_PROTOCOL_INTERFACE(xdg_toplevel_icon_manager_v1)
TACTILE_PROTOCOL_INTERFACE(xdg_toplevel_icon_v1)
TACTILE_PROTOCOL_INTERFACE(wp_fifo_manager_v1)
TACTILE_PROTOCOL_INTERFACE(wp_fifo_v1)
TACTILE_PROTOCOL_INTERFACE(wp_commit_timing_manager_v1)
TACTILE_PROTOCOL_INTERFACE(wp_commit_timer_v1)
TACTILE_PROTOCOL_INTERFACE(tactile_test_input_v1)
TACTILE_PROTOCOL_INTERFACE(tactile_edge_deferral_manager_v1)
TACTILE_PROTOCOL_INTERFACE(tactile_edge_deferral_v1)
TACTILE_PROTOCOL_INTERFACE(tactile_inspector_v1)
TACTILE_PROTOCOL_INTERFACE(tactile_inspector_report_v1)
TACTILE_PROTOCOL_INTERFACE(zwlr_data_control_manager_v1)
TACTILE_PROTOCOL_INTERFACE(zwlr_data_control_device_v1)
TACTILE_PROTOCOL_INTERFACE(zwlr_data_control_source_v1)
TACTILE_PROTOCOL_INTERFACE(zwlr_data_control_offer_v1)
TACTILE_PROTOCOL_INTERFACE(ext_data_control_manager_v1)
TACTILE_PROTOCOL_INTERFACE(ext_data_control_device_v1)
TACTILE_PROTOCOL_INTERFACE(ext_data_control_source_v1)
TACTILE_PROTOCOL_INTERFACE(ext_data_control_offer_v1)
TACTILE_PROTOCOL_INTERFACE(tactile_touchscreen_mapper_v1)
TACTILE_PROTOCOL_INTERFACE(tactile_touchscreen_question_v1)
TACTILE_PROTOCOL_INTERFACE(weston_touch_calibration)
TACTILE_PROTOCOL_INTERFACE(weston_touch_calibrator)
TACTILE_PROTOCOL_INTERFACE(weston_touch_coordinate)
TACTILE_PROTOCOL_INTERFACE(wl_fixes)
TACTILE_PROTOCOL_INTERFACE(xdg_toplevel_tag_manager_v1)
TACTILE_PROTOCOL_INTERFACE(ext_transient_seat_manager_v1)
TACTILE_PROTOCOL_INTERFACE(ext_transient_seat_v1)

#endif
