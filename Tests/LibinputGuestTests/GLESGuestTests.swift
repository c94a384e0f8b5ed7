import Foundation
import Testing
@testable import TactileTestSupport

/// The GLES renderer driving a real screen: `tactile serve --backend drm --kiosk --renderer R
/// -- weston-simple-touch` on bochs-drm, upright and turned 90, with pixman and with GLES
/// (Mesa's llvmpipe through EGL surfaceless in the guest), each tapped once (gles.py drives
/// it). QEMU's screendumps of the GLES runs must equal the pixman runs', pixel for pixel.
@Suite struct GLESGuestTests {
    static let run = Guest.once(scenario: "gles.py", folder: "guest-gles", modules: ["bochs"])

    @Test(arguments: ["normal", "90"])
    func glesShowsWhatPixmanShows(_ transform: String) throws {
        let run = try Self.run.get()
        #expect(run.read("tactile-gles-\(transform).log").contains("renderer: GLES ("), "composed by GLES: \(run.read("tactile-gles-\(transform).log").suffix(1500))")
        #expect(run.read("tactile-pixman-\(transform).log").contains("renderer: pixman"))
        for moment in ["before", "after"] {
            let pixman = try run.dump("pixman-\(transform)-\(moment)"), gles = try run.dump("gles-\(transform)-\(moment)")
            #expect((gles.width, gles.height) == (pixman.width, pixman.height))
            var differing = 0, red = 0
            for y in 0..<pixman.height {
                for x in 0..<pixman.width {
                    let colour = gles.colour(at: x, y)
                    if colour != pixman.colour(at: x, y) { differing += 1 }
                    if colour == 0xff_0000 { red += 1 }
                }
            }
            #expect(differing == 0, "\(differing) of \(pixman.width * pixman.height) pixels differ \(moment) the tap, turned \(transform)")
            #expect((red > 0) == (moment == "after"), "simple-touch's red cross, after the tap only")
        }
    }
}
