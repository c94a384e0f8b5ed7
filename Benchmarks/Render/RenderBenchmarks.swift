import Benchmark
import Responder
import TactileRender

/// Composition benchmarks: repainting a 1280x800 output holding three full-size toplevels,
/// with the whole output damaged and with a 64x64 square damaged (a blinking cursor, a
/// spinner), in time and mallocs per frame.
///
/// On a panel mounted turned (transform 90 and flipped-90) the windows are upright 800x1280
/// images: the full-damage repaint drawing them turned, as the server does for what it cannot
/// turn once (scaled or clipped content), and the turn the server makes once per change of a
/// window's pixels instead (`Image.turned`), after which a repaint copies as unturned.
///
/// Two kinds of toplevel: ones that declare their whole surface opaque (what GTK, Qt and
/// browsers do for a window without shadows), where only the top one is composed, and
/// translucent ones with no opaque region, where all three blend over the background.
/// Setup renders one frame and checks a pixel, so a benchmark never measures a canvas that
/// draws nothing. "In client memory": the toplevels' pixels are borrowed, as a client's
/// wl_shm buffers are (each read between its lender's begin and end), not Tactile's own.
///
/// Both renderers, at 1280x800 and 3840x2160 ("pixman" / "GLES …"): a frame, and a frame
/// after a commit of new pixels in the full-screen window, all of it or a 64x64 square
/// (GLES uploads the damage into the window's texture; pixman reads the pixels where they
/// lie, or, as Tactile did before, copies them at the commit first). A GLES frame ends with
/// a one-pixel read, which waits for the GPU: the time is the work done. GLES runs where EGL
/// gives a display (llvmpipe without a GPU).
let benchmarks: @Sendable () -> Void = {
    let damages: [(name: String, rect: Rect)] = [
        ("full", Rect(x: 0, y: 0, width: 1280, height: 800)),
        ("64x64", Rect(x: 600, y: 360, width: 64, height: 64)),
    ]
    for translucent in [false, true] {
        for damage in damages {
            for borrowed in [false, true] {
                let scene = Scene(translucent: translucent, borrowed: borrowed)
                Benchmark(
                    "compose 1280x800, 3 \(translucent ? "translucent" : "opaque") toplevels\(borrowed ? " in client memory" : ""), \(damage.name) damage",
                    configuration: .init(
                        metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(2),
                        setup: { try scene.verify(damage: damage.rect) }
                    )
                ) { benchmark in
                    let damaged = [damage.rect]
                    benchmark.startMeasurement()
                    for _ in benchmark.scaledIterations {
                        scene.canvas.render(scene.items, damage: damaged)
                    }
                    benchmark.stopMeasurement()
                    blackHole(scene.canvas.pixel(at: Position(x: 640, y: 400)))
                }
            }
        }
        for transform in [OutputTransform.rotated90, .flipped90] where !translucent {
            let upright = Image(size: Size(width: 800, height: 1280), opaque: false)!
            let map = Affine(transform.inverse, upright: (1280, 800))
            Benchmark(
                "turn a 800x1280 window onto a 1280x800 panel turned \(transform), once per change",
                configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(2))
            ) { benchmark in
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations { blackHole(upright.turned(map, size: Size(width: 1280, height: 800))) }
                benchmark.stopMeasurement()
            }
        }
        for transform in [OutputTransform.rotated90, .flipped90] {
            let scene = Scene(translucent: translucent, transform: transform)
            let damage = damages[0].rect
            Benchmark(
                "compose 1280x800 turned \(transform), 3 \(translucent ? "translucent" : "opaque") toplevels, full damage",
                configuration: .init(
                    metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(2),
                    setup: { try scene.verify(damage: damage) }
                )
            ) { benchmark in
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    scene.canvas.render(scene.items, damage: [damage])
                }
                benchmark.stopMeasurement()
                blackHole(scene.canvas.pixel(at: Position(x: 640, y: 400)))
            }
        }
    }
    var renderers: [any Renderer] = [PixmanRenderer()]
    if let gles = try? GLESRenderer() { renderers.append(gles) }
    for renderer in renderers {
        let label = renderer is GLESRenderer ? "GLES" : "pixman"
        for panel in [Size(width: 1280, height: 800), Size(width: 3840, height: 2160)] {
            let full = Rect(size: panel)
            let square = Rect(x: panel.width / 2, y: panel.height / 2, width: 64, height: 64)
            let scene = Scene(translucent: false, borrowed: true, renderer: renderer, panel: panel)
            let centre = Position(x: panel.width / 2, y: panel.height / 2)
            for (name, damage) in [("full", full), ("64x64", square)] {
                Benchmark(
                    "\(label) frame \(panel.width)x\(panel.height), \(name) damage",
                    configuration: .init(metrics: [.wallClock, .cpuTotal, .mallocCountTotal], maxDuration: .seconds(2),
                                         setup: { try scene.verify(damage: damage) })
                ) { benchmark in
                    for _ in benchmark.scaledIterations {
                        scene.canvas.render(scene.items, damage: [damage])
                        blackHole(scene.canvas.pixel(at: centre))
                    }
                }
            }
            // A full-screen client's frame at 60 Hz: a commit of new pixels (the whole buffer,
            // or a 64x64 square of it), then the repaint.
            let top = scene.items.last!.image
            let history = PixelHistory()
            for (name, damage) in [("full", full), ("64x64", square)] {
                var commits: [(String, () -> Void)] = [("commit", { top.changed(); history.record(top, damage: [damage]) })]
                if !(renderer is GLESRenderer) {
                    let own = Image(size: panel, opaque: false)!
                    commits.append(("commit copied", { _ = top.reading { own.copy(from: top.pixels, format: .argb8888, stride: top.stride, rects: [damage]) } }))
                }
                for (kind, commit) in commits {
                    Benchmark(
                        "\(label) \(kind) and frame \(panel.width)x\(panel.height), \(name) damage",
                        configuration: .init(metrics: [.wallClock, .cpuTotal, .mallocCountTotal], maxDuration: .seconds(2),
                                             setup: { try scene.verify(damage: full) })
                    ) { benchmark in
                        for _ in benchmark.scaledIterations {
                            commit()
                            scene.canvas.render(scene.items, damage: [damage])
                            blackHole(scene.canvas.pixel(at: centre))
                        }
                    }
                }
            }
        }
    }
}

/// Three toplevels filling the output, each a solid colour; the top one is drawn last.
final class Scene: @unchecked Sendable {
    let canvas: any Canvas
    let items: [DrawItem]
    let translucent: Bool

    /// `transform`: how the panel is mounted; the windows are drawn upright through it.
    /// `borrowed`: the windows' pixels are read where they lie, through a lender.
    init(translucent: Bool, transform: OutputTransform = .normal, borrowed: Bool = false, renderer: any Renderer = PixmanRenderer(),
         panel: Size = Size(width: 1280, height: 800)) {
        self.translucent = translucent
        canvas = renderer.makeCanvas(size: panel)!
        let output = Rect(x: 0, y: 0, width: panel.width, height: panel.height)
        let size = transform.applied(to: panel)
        // Canvas pixel → upright pixel, the window's own.
        let sampling = DrawItem.Sampling(Affine(transform.inverse, upright: (Double(panel.width), Double(panel.height))))
        var items: [DrawItem] = []
        // Premultiplied ARGB: red, green and blue from the bottom up, opaque or at half alpha.
        let colours: [UInt32] = translucent ? [0x8080_0000, 0x8000_8000, 0x8000_0080] : [0xffff_0000, 0xff00_ff00, 0xff00_00ff]
        for colour in colours {
            let image = Image(size: size, opaque: false)!
            let words = image.stride / 4
            let pixels = image.pixels.bindMemory(to: UInt32.self, capacity: words * size.height)
            for y in 0..<size.height { (pixels + y * words).update(repeating: colour, count: size.width) }
            let shown = borrowed ? Image(borrowing: image.pixels, from: Lender(keeping: image), size: size, format: .argb8888, stride: image.stride)! : image
            items.append(DrawItem(image: shown, bounds: output, opaque: translucent ? [] : [output], sampling: sampling))
        }
        self.items = items
    }

    /// Lends an image's pixels as a client's buffer is lent: where they lie, at each read.
    final class Lender: PixelLender {
        private let image: Image

        init(keeping image: Image) { self.image = image }

        func beginReading() -> UnsafeMutableRawPointer? { image.pixels }

        func endReading() {}
    }

    struct WrongPixel: Error, CustomStringConvertible {
        let description: String
    }

    /// Renders once and checks the damage's centre shows the composition it should.
    func verify(damage: Rect) throws {
        canvas.render(items, damage: [damage])
        let centre = Position(x: damage.x + damage.width / 2, y: damage.y + damage.height / 2)
        let shown = canvas.pixel(at: centre) & 0xff_ffff
        // Opaque: the top one only. Translucent: each layer adds 0x80 to its channel and halves
        // what lies below, from the background's 0x20 grey up: red, green, blue =
        // ((0x80 + 0x10) / 2) / 2, (0x80 + 0x10 / 2) / 2, 0x80 + 0x10 / 2 / 2.
        let expected: UInt32 = translucent ? 0x24_4484 : 0x00_00ff
        let close = (0..<3).allSatisfy { shift in
            let a = Int(shown >> (shift * 8) & 0xff), b = Int(expected >> (shift * 8) & 0xff)
            return abs(a - b) <= 2
        }
        guard close else { throw WrongPixel(description: "at \(centre): 0x\(String(shown, radix: 16)), expected about 0x\(String(expected, radix: 16))") }
    }
}
