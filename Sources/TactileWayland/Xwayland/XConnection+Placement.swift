import CXCB
import Responder

/// Where managed X windows go: the window policy's answer, as for xdg toplevels.
extension XConnection {
    private var policyWindows: Windows { manager.windows }

    /// Places a managed window: a new one where the policy puts new windows (a dialog over its
    /// parent, or centred on the output), then, where the policy fixes the frame (kiosk,
    /// maximized, fullscreen), at that frame.
    func place(_ window: XWindow, first: Bool = false) {
        var frame = window.frame
        if first {
            let layout = policyWindows.outputs.layout
            if window.isDialog {
                let parent = window.properties.transientFor.flatMap { windows[$0] }?.frame
                    ?? policyWindows.outputs.primary?.usableArea ?? Rect(x: 0, y: 0, width: frame.width, height: frame.height)
                frame.x = parent.x + (parent.width - frame.width) / 2
                frame.y = parent.y + (parent.height - frame.height) / 2
            } else {
                let origin = policyWindows.policy.placeNewWindow(in: layout)
                frame.x = origin.x
                frame.y = origin.y
            }
            window.frame.x = frame.x
            window.frame.y = frame.y
        }
        configure(window, to: policyFrame(for: window) ?? frame)
    }

    /// The frame the policy gives a managed window in its state on its output (every window
    /// but a dialog in kiosk mode, maximized and fullscreen ones elsewhere); nil where the
    /// window chooses.
    func policyFrame(for window: XWindow) -> Rect? {
        guard !window.isDialog || window.state.isFullscreen else { return nil }
        let output = policyWindows.output(at: window.frame.origin)
        let configuration = policyWindows.policy.configure(window.state, on: output)
        guard let size = configuration.size, let output else { return nil }
        let origin = configuration.origin ?? (window.state.isFullscreen ? output.rect.origin : output.usableArea.origin)
        return Rect(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    /// The outputs or their usable areas changed: a window whose frame the policy fixes follows.
    func placeAgain(_ window: XWindow) {
        guard window.isManaged, let frame = policyFrame(for: window), frame != window.frame else { return }
        configure(window, to: frame)
        xcb_flush(xcb)
    }

    /// Moves and sizes a window in X, within what X can say (16-bit positions) and what
    /// Tactile shows (`largestSide`).
    func configure(_ window: XWindow, to frame: Rect) {
        let side = min(largestSide, Int(Int16.max))
        let values: [UInt32] = [
            UInt32(bitPattern: Int32(Int16(clamping: frame.x))), UInt32(bitPattern: Int32(Int16(clamping: frame.y))),
            UInt32(min(max(frame.width, 1), side)), UInt32(min(max(frame.height, 1), side)), 0,
        ]
        let mask = XCB_CONFIG_WINDOW_X.rawValue | XCB_CONFIG_WINDOW_Y.rawValue | XCB_CONFIG_WINDOW_WIDTH.rawValue
            | XCB_CONFIG_WINDOW_HEIGHT.rawValue | XCB_CONFIG_WINDOW_BORDER_WIDTH.rawValue
        xcb_configure_window(xcb, window.id, UInt16(mask), values)
    }

    /// A ConfigureNotify of the geometry a window keeps, for a request that changed nothing.
    func sendSyntheticConfigure(_ window: XWindow) {
        var event = xcb_configure_notify_event_t()
        event.response_type = UInt8(XCB_CONFIGURE_NOTIFY)
        event.event = window.id
        event.window = window.id
        event.above_sibling = xcb_window_t(XCB_NONE)
        event.x = Int16(clamping: window.frame.x)
        event.y = Int16(clamping: window.frame.y)
        event.width = UInt16(clamping: window.frame.width)
        event.height = UInt16(clamping: window.frame.height)
        send(event, to: window.id, mask: XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue)
    }
}
