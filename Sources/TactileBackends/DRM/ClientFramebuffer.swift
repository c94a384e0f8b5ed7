import CDRM
import Glibc
import TactileRender

/// A client's dmabuf as a framebuffer of the card: imported with PRIME, shown by a page flip
/// like the output's own buffers. Made once per buffer (a client alternates two or three)
/// and kept while the client's buffer lives; one the card refuses is remembered as refused,
/// so that it is composed without asking again each frame.
final class ClientFramebuffer {
    /// The client's buffer; the entry goes once it has.
    private(set) weak var files: DmabufFiles?
    /// 0: the card refused it (`refusal` says why).
    let framebuffer: UInt32
    /// Why it is composed instead: the card refused it, or a flip to it failed.
    private(set) var refusal: String?
    private let card: Int32

    init(files: DmabufFiles, card: Int32) {
        self.files = files
        self.card = card
        let attributes = files.attributes
        var handles: [UInt32] = [0, 0, 0, 0], pitches: [UInt32] = [0, 0, 0, 0], offsets: [UInt32] = [0, 0, 0, 0], modifiers: [UInt64] = [0, 0, 0, 0]
        var refusal: String?
        for (index, plane) in attributes.planes.enumerated() where index < 4 && refusal == nil {
            if drmPrimeFDToHandle(card, plane.fd, &handles[index]) != 0 {
                refusal = "the card does not import it (\(String(cString: strerror(errno))))"
            }
            (pitches[index], offsets[index], modifiers[index]) = (plane.stride, plane.offset, attributes.modifier)
        }
        var framebuffer: UInt32 = 0
        if refusal == nil {
            let explicit = attributes.modifier != DmabufFormat.implicitModifier
            let status = drmModeAddFB2WithModifiers(card, UInt32(attributes.width), UInt32(attributes.height), attributes.format, handles, pitches, offsets,
                                                    explicit ? modifiers : nil, &framebuffer, explicit ? tactile_drm_fb_modifiers : 0)
            if status != 0 { refusal = "the card takes no framebuffer of it (\(String(cString: strerror(-status))))" }
        }
        // The framebuffer holds the memory now; the handles are not needed again.
        for handle in Set(handles) where handle != 0 { _ = drmCloseBufferHandle(card, handle) }
        self.framebuffer = refusal == nil ? framebuffer : 0
        self.refusal = refusal
    }

    func refuse(_ why: String) { refusal = why }

    deinit { if framebuffer != 0 { drmModeRmFB(card, framebuffer) } }
}
