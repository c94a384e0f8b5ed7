import Foundation
import Responder
import BenchmarkScenes
import TactileRender
import Testing

/// The GLES renderer shows what pixman shows: random scenes (every wl_shm format, client
/// memory and Tactile's own, translations, quarter turns and flips, scales up and down,
/// opaque regions, items moving and changing over several frames of partial damage) composed
/// by both, frame after frame, and compared pixel by pixel. Opaque copies must match exactly;
/// blends and scaled samples within 2 per channel (rounding: the GPU blends in floating
/// point, and computes the map's points in 32-bit floats). Each case prints its counts.
@Suite struct RendererComparisonTests {
    @Test func opaqueCopiesMatchExactly() throws {
        let counts = try compare(seeds: 0..<24, copiesOnly: true, formats: PixelFormat.all.filter(\.isOpaque), tolerance: 0)
        #expect(counts.differing == 0, "\(counts)")
    }

    @Test func blendsAndScalesMatchWithinTwo() throws {
        let counts = try compare(seeds: 100..<140, copiesOnly: false, formats: Self.eightBitsOrFewer, tolerance: 2)
        #expect(counts.worst <= 2, "\(counts)")
        #expect(counts.compared > 100_000)
    }

    /// pixman interpolates 10-bit channels at their own depth and rounds once; GLES samples
    /// them converted to 8 bits: a scaled 10-bit buffer may differ by one level more.
    @Test func tenBitFormatsMatchWithinThree() throws {
        let counts = try compare(seeds: 200..<220, copiesOnly: false, formats: PixelFormat.all.filter { !Self.eightBitsOrFewer.contains($0) },
                                 tolerance: 3)
        #expect(counts.worst <= 3, "\(counts)")
        #expect(counts.compared > 50_000)
    }

    static let eightBitsOrFewer = PixelFormat.all.filter { !["AR30", "XR30", "AB30", "XB30"].map(PixelFormat.fourcc).contains($0.shm) }

    struct Counts: CustomStringConvertible {
        var compared = 0, differing = 0, worst = 0
        var description: String { "\(compared) pixels compared, \(differing) differ, by at most \(worst) per channel" }
    }

    /// The largest difference of a colour channel.
    static func gap(_ a: UInt32, _ b: UInt32) -> Int {
        var worst = 0
        for shift: UInt32 in [0, 8, 16] {
            let x = Int((a >> shift) & 0xff), y = Int((b >> shift) & 0xff)
            worst = max(worst, abs(x - y))
        }
        return worst
    }

    /// Each seed's scene composed by both renderers over four frames, every pixel compared
    /// after each.
    private func compare(seeds: Range<UInt64>, copiesOnly: Bool, formats: [PixelFormat], tolerance: Int) throws -> Counts {
        let pixman = PixmanRenderer()
        let gles = try GLESRenderer()
        var counts = Counts()
        for seed in seeds {
            var random = SplitMix64(state: seed)
            let size = Size(width: random.int(48...160), height: random.int(40...120))
            let canvases = [try #require(pixman.makeCanvas(size: size)), try #require(gles.makeCanvas(size: size))]
            var scene = (0..<random.int(1...5)).map { _ in Item.random(&random, canvas: size, copiesOnly: copiesOnly, formats: formats) }
            var damage = [Rect(size: size)]
            for frame in 0..<4 {
                for canvas in canvases { canvas.render(scene.map(\.drawn), damage: damage) }
                for y in 0..<size.height {
                    for x in 0..<size.width {
                        let p = Position(x: x, y: y)
                        let (a, b) = (canvases[0].pixel(at: p), canvases[1].pixel(at: p))
                        counts.compared += 1
                        guard a != b else { continue }
                        counts.differing += 1
                        let gap = Self.gap(a, b)
                        if gap > counts.worst, gap > tolerance {
                            Issue.record("seed \(seed), frame \(frame), at \(x),\(y): pixman \(String(a, radix: 16)), GLES \(String(b, radix: 16))")
                        }
                        counts.worst = max(counts.worst, gap)
                    }
                }
                // The next frame: one item moves, one changes its pixels, and the damage is
                // where they were and are, plus a rectangle of nothing in particular.
                let moved = random.int(0...(scene.count - 1)), changed = random.int(0...(scene.count - 1))
                damage = [scene[moved].drawn.bounds, scene[changed].drawn.bounds]
                scene[moved].move(by: Position(x: random.int(-9...9), y: random.int(-9...9)))
                scene[changed].repaint(&random)
                damage += [scene[moved].drawn.bounds, Rect(x: random.int(0...size.width), y: random.int(0...size.height), width: random.int(1...40), height: random.int(1...40))]
            }
        }
        print("\(copiesOnly ? "opaque copies" : "blends and scales") of \(formats.count) formats: \(counts)")
        return counts
    }
}

/// One surface of a random scene: its pixels (a client's buffer of any format, or Tactile's
/// own ARGB), where it lies and how canvas pixels map into it.
private struct Item {
    let buffer: Buffer?
    let image: Image
    let format: PixelFormat
    var drawn: DrawItem
    /// Client buffers' commits, so GLES uploads only what each repaint changed.
    let history = PixelHistory()

    static func random(_ random: inout SplitMix64, canvas: Size, copiesOnly: Bool, formats: [PixelFormat]) -> Item {
        let format = formats[random.int(0...(formats.count - 1))]
        let transform = OutputTransform.allCases[random.int(0...(OutputTransform.allCases.count - 1))]
        // The surface's size on the canvas, and the buffer's scale against it: 1 copies.
        let bounds = Rect(x: random.int(-20...(canvas.width - 8)), y: random.int(-20...(canvas.height - 8)),
                          width: random.int(1...80), height: random.int(1...60))
        let scales: [Double] = copiesOnly ? [1] : [1, 1, 2, 0.5, 1.5, 0.75]
        let scale = scales[random.int(0...(scales.count - 1))]
        let upright = transform.applied(to: Size(width: bounds.width, height: bounds.height))
        let width = Double(upright.width) * scale, height = Double(upright.height) * scale
        let size = Size(width: max(1, Int(width.rounded())), height: max(1, Int(height.rounded())))
        // Canvas pixel → surface-local → buffer's axes → buffer pixels.
        let local = Affine.translation(Double(-bounds.x), Double(-bounds.y))
        let turned = Affine(transform, upright: (Double(bounds.width), Double(bounds.height)))
        let scaled = Affine.scale(Double(size.width) / Double(upright.width), Double(size.height) / Double(upright.height))
        let map = local.then(turned).then(scaled)
        let (buffer, image): (Buffer?, Image)
        if random.int(0...3) == 0, !copiesOnly || format == .xrgb8888 {
            let own = Image(size: size, opaque: format.isOpaque)!
            (buffer, image) = (nil, own)
        } else {
            let memory = Buffer(size: size, bytesPerPixel: format.bytesPerPixel)
            (buffer, image) = (memory, Image(borrowing: memory.memory, from: Lender(memory.memory), size: size, format: format, stride: memory.stride)!)
        }
        var item = Item(buffer: buffer, image: image, format: format, drawn: DrawItem(image: image, bounds: bounds, sampling: DrawItem.Sampling(map)))
        if image.isOpaque {
            item.drawn.opaque = [bounds]
        } else if random.int(0...1) == 0 {
            item.drawn.opaque = [Rect(x: bounds.x + random.int(0...bounds.width / 2), y: bounds.y + random.int(0...bounds.height / 2),
                                      width: random.int(0...bounds.width / 2), height: random.int(0...bounds.height / 2))]
        }
        item.repaint(&random)
        return item
    }

    /// New pixels, the first time everywhere, after in a random rectangle (a commit's
    /// damage): random, and premultiplied where the format has alpha (a client's colour never
    /// exceeds its alpha).
    mutating func repaint(_ random: inout SplitMix64) {
        let size = image.size
        var area = Rect(size: size)
        if history.version > 0 {
            area = Rect(x: random.int(0...(size.width - 1)), y: random.int(0...(size.height - 1)), width: random.int(1...size.width), height: random.int(1...size.height))
                .intersection(area)
        }
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX {
                if let buffer {
                    var value = UInt32(truncatingIfNeeded: random.next())
                    if !format.isOpaque, format.bytesPerPixel == 4, format.shm <= 1 {
                        value = Self.premultiplied(value)
                    }
                    buffer[x, y] = value
                } else {
                    image.pixels.storeBytes(of: image.isOpaque ? UInt32(truncatingIfNeeded: random.next())
                                            : Self.premultiplied(UInt32(truncatingIfNeeded: random.next())),
                                            toByteOffset: y * image.stride + x * 4, as: UInt32.self)
                }
            }
        }
        image.changed()
        if buffer != nil { history.record(image, damage: history.version == 0 ? nil : [area]) }
    }

    /// ARGB8888 with each colour channel scaled by the alpha.
    static func premultiplied(_ value: UInt32) -> UInt32 {
        let alpha = value >> 24
        let scaled = (0..<3).map { (value >> ($0 * 8) & 0xff) * alpha / 255 }
        return alpha << 24 | scaled[2] << 16 | scaled[1] << 8 | scaled[0]
    }

    mutating func move(by offset: Position) {
        drawn.bounds = drawn.bounds.offset(by: offset)
        drawn.opaque = RectList(drawn.opaque.map { $0.offset(by: offset) })
        switch drawn.sampling {
        case .translated(let p): drawn.sampling = .translated(Position(x: p.x + offset.x, y: p.y + offset.y))
        case .transformed(let map): drawn.sampling = .transformed(Affine.translation(Double(-offset.x), Double(-offset.y)).then(map))
        }
    }
}

extension SplitMix64 {
    /// A draw in `range`: the same scenes on every machine.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + draw(range.upperBound - range.lowerBound + 1)
    }
}

/// `--renderer auto`: GLES on a GPU, pixman on a CPU rasterizer (llvmpipe costs more than
/// pixman for the same frame), and the log line says which and why.
@Suite struct RendererChoiceTests {
    @Test func autoTakesTheGPUAndLeavesLlvmpipe() throws {
        let gles = try GLESRenderer()
        let (chosen, why) = try RendererChoice.auto.make()
        #expect((chosen is GLESRenderer) == !gles.isSoftware, "\(why)")
        #expect(why.hasPrefix("renderer: \(gles.isSoftware ? "pixman" : "GLES")"), "\(why)")
        #expect(gles.isSoftware || why.contains(gles.device), "\(why)")
    }

    @Test func askedForEachIsWhatComposes() throws {
        #expect(try RendererChoice.gles.make().renderer is GLESRenderer)
        #expect(try RendererChoice.pixman.make().renderer is PixmanRenderer)
    }
}

/// linux-dmabuf is offered only where the renderer imports into a device clients can
/// allocate on: never by pixman, and not by llvmpipe without a DRM device (this machine's
/// CI; the QEMU guest's vgem makes one, GLESGuestTests).
@Suite struct DmabufSupportTests {
    @Test func noDeviceNoDmabufs() throws {
        #expect(PixmanRenderer().dmabuf == nil)
        #expect(PixmanRenderer().importDmabuf(DmabufAttributes(width: 1, height: 1, format: PixelFormat.fourcc("XR24"), modifier: 0, planes: [])) == nil)
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri"))?.filter { $0.hasPrefix("renderD") } ?? []
        let gles = try GLESRenderer()
        if nodes.isEmpty {
            #expect(gles.dmabuf == nil, "\(gles.name) has no device to import into")
        } else if let support = gles.dmabuf {
            #expect(!support.formats.isEmpty && support.device != 0)
        }
    }
}
