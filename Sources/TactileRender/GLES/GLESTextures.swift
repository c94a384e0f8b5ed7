import CEGL
import CPixman
import Responder

/// Each image's texture, uploaded from the image's memory (a client's wl_shm pool, inside
/// its SIGBUS guard) when its pixels changed, and deleted once the image is gone.
///
/// wl_shm's two formats, their byte-swapped twins and the 10-bit layouts are uploaded as they
/// lie; the other formats wl_shm advertises are converted to ARGB8888 by pixman on the way
/// (GLES samples none of them as they are).
final class GLESTextures {
    private final class Entry {
        weak var image: Image?
        let id: GLuint
        var generation: Int
        init(image: Image, id: GLuint) {
            self.image = image
            self.id = id
            generation = image.generation
        }
    }

    private var entries: [ObjectIdentifier: Entry] = [:]

    /// `image`'s texture with its current pixels; nil when they cannot be read (a client's
    /// pool gone bad, a picture lost).
    func texture(for image: Image) -> GLuint? {
        guard !image.isLost else { return nil }
        let key = ObjectIdentifier(image)
        if let entry = entries[key], entry.image === image {
            guard entry.generation != image.generation else { return entry.id }
            guard upload(image, into: entry.id) else { return nil }
            entry.generation = image.generation
            return entry.id
        }
        if let stale = entries.removeValue(forKey: key) { delete(stale.id) }
        var id: GLuint = 0
        glGenTextures(1, &id)
        glBindTexture(GLenum(GL_TEXTURE_2D), id)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        guard upload(image, into: id) else {
            delete(id)
            return nil
        }
        entries[key] = Entry(image: image, id: id)
        return id
    }

    /// Deletes the textures of images nobody holds any more.
    func sweep() {
        for (key, entry) in entries where entry.image == nil {
            delete(entry.id)
            entries[key] = nil
        }
    }

    func removeAll() {
        for entry in entries.values { delete(entry.id) }
        entries = [:]
    }

    private func delete(_ id: GLuint) {
        var id = id
        glDeleteTextures(1, &id)
    }

    /// The whole image into texture `id`, (re)allocated at its size.
    private func upload(_ image: Image, into id: GLuint) -> Bool {
        image.reading { () -> Bool in
            glBindTexture(GLenum(GL_TEXTURE_2D), id)
            let (width, height) = (GLsizei(image.size.width), GLsizei(image.size.height))
            if let layout = Self.direct(image.format), image.stride % 4 == 0 {
                glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), GLint(image.stride / 4))
                glTexImage2D(GLenum(GL_TEXTURE_2D), 0, layout.storage, width, height, 0, layout.format, layout.type, image.pixels)
                glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), 0)
                // DRM's 10-bit RGB keeps red where GL's packed type keeps blue.
                let swapped = layout.redAndBlueSwapped ? GL_BLUE : GL_RED
                glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_SWIZZLE_R), swapped)
                glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_SWIZZLE_B), layout.redAndBlueSwapped ? GL_RED : GL_BLUE)
                return true
            }
            // Through an ARGB8888 copy pixman makes (alpha 1 where the format has none).
            guard let converted = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), Int32(height), nil, 0) else { return false }
            defer { pixman_image_unref(converted) }
            pixman_image_composite32(PIXMAN_OP_SRC, image.pixman, nil, converted, 0, 0, 0, 0, 0, 0, Int32(width), Int32(height))
            let layout = GLenum(GL_BGRA_EXT)
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GLint(layout), width, height, 0, layout, GLenum(GL_UNSIGNED_BYTE), pixman_image_get_data(converted))
            return true
        } ?? false
    }

    /// How the GPU samples a format as it lies in memory.
    struct Layout {
        let storage: GLint
        let format: GLenum
        let type: GLenum
        var redAndBlueSwapped = false
    }

    /// The GL layout of a format the GPU samples as it lies in memory: bytes B, G, R, A
    /// (ARGB8888, XRGB8888: little-endian words) or R, G, B, A (ABGR8888, XBGR8888), and the
    /// 10-bit layouts as GL's packed 2-10-10-10 words.
    static func direct(_ format: PixelFormat) -> Layout? {
        let bgra = GLenum(GL_BGRA_EXT), byte = GLenum(GL_UNSIGNED_BYTE), packed = GLenum(GL_UNSIGNED_INT_2_10_10_10_REV)
        switch format.shm {
        case PixelFormat.argb8888.shm, PixelFormat.xrgb8888.shm: return Layout(storage: GLint(bgra), format: bgra, type: byte)
        case PixelFormat.fourcc("AB24"), PixelFormat.fourcc("XB24"): return Layout(storage: GL_RGBA, format: GLenum(GL_RGBA), type: byte)
        case PixelFormat.fourcc("AB30"), PixelFormat.fourcc("XB30"): return Layout(storage: GL_RGB10_A2, format: GLenum(GL_RGBA), type: packed)
        case PixelFormat.fourcc("AR30"), PixelFormat.fourcc("XR30"):
            return Layout(storage: GL_RGB10_A2, format: GLenum(GL_RGBA), type: packed, redAndBlueSwapped: true)
        default: return nil
        }
    }

    /// Formats with more than 8 bits a channel, sampled at their depth.
    static func isWide(_ format: PixelFormat) -> Bool { direct(format)?.storage == GL_RGB10_A2 }
}
