import Foundation
import Testing
@testable import TactileTestSupport

/// A card with a cursor plane (QEMU's virtio-gpu): the cursor goes there, not into the frames
/// (cursor_plane.py drives it).
@Suite struct CursorPlaneGuestTests {
    @Test func theCursorIsOnThePlaneNotInTheFrame() throws {
        let guest = try Guest.run(scenario: "cursor_plane.py", folder: "guest-plane", modules: ["virtio_gpu"], qemuArguments: "-device virtio-gpu-pci,id=virtio")
        let log = guest.read("tactile.log")
        #expect(log.contains(": cursor plane of 64x64"), "\(log)")
        let frame = try Screenshot(ppm: Data(contentsOf: URL(fileURLWithPath: "\(guest.directory)/plane.ppm")))
        let composed = try Screenshot(ppm: Data(contentsOf: URL(fileURLWithPath: "\(guest.directory)/grim.ppm")))
        // Tactile's arrow, tip on the pointer at (960, 400), as screencopy draws it over the frame…
        #expect(composed.colour(at: 960, 400) == 0x00_0000 && composed.colour(at: 961, 403) == 0xff_ffff)
        // …and the scanned-out frame has only the background there: the arrow is on the plane.
        #expect(frame.colour(at: 960, 400) == 0x20_2020 && frame.colour(at: 961, 403) == 0x20_2020)
        #expect(frame.colour(at: 100, 100) == 0x20_2020, "the frame itself is shown")
    }
}
