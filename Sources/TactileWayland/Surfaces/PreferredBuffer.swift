import Responder

/// The buffer scale and transform that show a surface best where it is (wl_surface 6): a
/// client drawing at this scale and already turned as the output is turned is shown without
/// scaling or turning, and on DRM its buffer can be scanned out as it is.
struct PreferredBuffer: Equatable {
    /// Whole buffer pixels per surface unit: a fractional scale is rounded up, so the buffer
    /// is scaled down, never up (wp_fractional_scale_v1 gives the exact one).
    var scale: Int32
    var transform: OutputTransform

    init(scale120: UInt32, transform: OutputTransform) {
        scale = Int32(clamping: max(1, (UInt64(scale120) + 119) / 120))
        self.transform = transform
    }
}
