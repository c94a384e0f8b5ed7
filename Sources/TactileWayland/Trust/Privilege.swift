/// A family of protocols that reach beyond a client's own windows: another client's input,
/// the screen, other windows, the screens themselves. Each privileged global says which
/// family it belongs to (`Global.privilege`); `PrivilegePolicy` says who may bind it.
public enum Privilege: String, CaseIterable, Sendable {
    /// Typing and clicking as if on the real devices: zwp_virtual_keyboard_manager_v1,
    /// zwlr_virtual_pointer_manager_v1, and ext_transient_seat_manager_v1 for seats of
    /// their own.
    case inputInjection = "input-injection"
    /// Reading the screen: zwlr_screencopy_manager_v1.
    case screenCapture = "screen-capture"
    /// Listing, activating and closing other clients' windows: zwlr_foreign_toplevel_manager_v1.
    case windowManagement = "window-management"
    /// Reading what is typed into text fields and writing into them: zwp_input_method_manager_v2.
    case inputMethod = "input-method"
    /// Surfaces above or below every window, and exclusive zones: zwlr_layer_shell_v1.
    case layerShell = "layer-shell"
    /// Modes, places and power of the screens: zwlr_output_manager_v1, zwlr_output_power_manager_v1.
    case outputManagement = "output-management"
    /// Locking the session, and so showing the only surface on screen: ext_session_lock_manager_v1.
    case sessionLock = "session-lock"
    /// Setting and reading the clipboard and primary selection without a window, whatever has
    /// keyboard focus: zwlr_data_control_manager_v1, ext_data_control_manager_v1 (wl-clipboard).
    case clipboardControl = "clipboard-control"
    /// Showing over everything and taking a touchscreen's touches to find its calibration
    /// matrix or its screen, and setting them: weston_touch_calibration,
    /// tactile_touchscreen_mapper_v1.
    case touchCalibration = "touch-calibration"
    /// Every client's surfaces, titles and pids: tactile_inspector_v1 (offered only with --inspect).
    case inspector
    /// Listening sockets whose clients carry a sandbox's security context:
    /// wp_security_context_manager_v1 (sandbox engines such as Flatpak).
    case securityContext = "security-context"
}
