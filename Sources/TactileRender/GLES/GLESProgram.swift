import CEGL

/// A shader pair items are drawn with: a quad per clip rectangle in canvas pixels, each
/// fragment finding its image pixel through the item's map (canvas → image), as pixman's
/// transforms do, so both renderers sample the same points. One program per way of sampling
/// (`Sampling`), not one with branches: a CPU rasterizer (llvmpipe) runs every branch.
struct GLESProgram {
    let id: GLuint
    let canvasSize: GLint
    let mapX: GLint
    let mapY: GLint
    let imageSize: GLint
    let opaque: GLint
    let alpha: GLint
    let position: GLuint

    /// How a program samples its image.
    struct Sampling: Hashable, CaseIterable {
        /// Scaled: pixman's bilinear filter; else whole pixels (a copy, a turn), the nearest.
        var bilinear: Bool
        /// 10-bit channels, interpolated and stored as pixman's wide path does.
        var wide: Bool

        static let allCases = [false, true].flatMap { bilinear in [false, true].map { Sampling(bilinear: bilinear, wide: $0) } }

        var defines: String {
            (bilinear ? (wide ? "#define BILINEAR_WIDE 1\n" : "#define BILINEAR 1\n") : "#define NEAREST 1\n") + (wide ? "#define WIDE 1\n" : "")
        }
    }

    /// The canvas's row 0 is the framebuffer's row 0, as it is in memory once read back: no
    /// flip anywhere. A fragment's centre (x + 0.5, y + 0.5) maps to the image point sampled.
    private static let vertex = """
        #version 300 es
        in vec2 position;
        uniform vec2 canvasSize;
        void main() { gl_Position = vec4(position / canvasSize * 2.0 - 1.0, 0.0, 1.0); }
        """
    /// A scaled image is sampled as pixman samples it, not with the GPU's filtering: the
    /// four pixels around the point, weighted in 128ths (pixman's 7-bit bilinear weights) and
    /// summed in 65536ths, truncated (or, for 10-bit channels, in floating point, stored to 8
    /// bits by truncating 256ths, as pixman's wide path does); so both renderers agree within
    /// rounding even on the sharpest content, where the GPU's finer weights would differ by
    /// several levels.
    private static let fragment = """
        precision highp float;
        precision highp int;
        uniform sampler2D image;
        uniform vec3 mapX;
        uniform vec3 mapY;
        uniform vec2 imageSize;
        uniform bool opaque;
        uniform float alpha;
        out vec4 colour;
        vec4 texel(ivec2 p) {
            return texelFetch(image, clamp(p, ivec2(0), ivec2(imageSize) - 1), 0);
        }
        void main() {
            vec3 p = vec3(gl_FragCoord.xy, 1.0);
            vec2 point = vec2(dot(mapX, p), dot(mapY, p));
        #ifdef NEAREST
            vec4 c = texture(image, point / imageSize);
        #else
            vec2 corner = point - 0.5;
            vec2 base = floor(corner);
            ivec2 i = ivec2(base);
        #endif
        #ifdef BILINEAR
            ivec2 w = ivec2((corner - base) * 128.0) * 2;
            ivec4 sum = ivec4(texel(i) * 255.0 + 0.5) * ((256 - w.x) * (256 - w.y))
                + ivec4(texel(i + ivec2(1, 0)) * 255.0 + 0.5) * (w.x * (256 - w.y))
                + ivec4(texel(i + ivec2(0, 1)) * 255.0 + 0.5) * ((256 - w.x) * w.y)
                + ivec4(texel(i + ivec2(1, 1)) * 255.0 + 0.5) * (w.x * w.y);
            vec4 c = vec4(sum >> 16) / 255.0;
        #endif
        #ifdef BILINEAR_WIDE
            vec2 w = floor((corner - base) * 128.0) / 128.0;
            vec4 c = mix(mix(texel(i), texel(i + ivec2(1, 0)), w.x), mix(texel(i + ivec2(0, 1)), texel(i + ivec2(1, 1)), w.x), w.y);
        #endif
        #ifdef WIDE
            c = min(floor(c * 256.0), 255.0) / 255.0;
        #endif
            colour = (opaque ? vec4(c.rgb, 1.0) : c) * alpha;
        }
        """

    init(_ sampling: Sampling) throws(GLESUnavailable) {
        let vertex = try Self.compile(GLenum(GL_VERTEX_SHADER), Self.vertex)
        let fragment = try Self.compile(GLenum(GL_FRAGMENT_SHADER), "#version 300 es\n\(sampling.defines)\(Self.fragment)")
        let program = glCreateProgram()
        glAttachShader(program, vertex)
        glAttachShader(program, fragment)
        glLinkProgram(program)
        glDeleteShader(vertex)
        glDeleteShader(fragment)
        var linked: GLint = 0
        glGetProgramiv(program, GLenum(GL_LINK_STATUS), &linked)
        guard linked != 0 else {
            let log = Self.log { glGetProgramInfoLog(program, $0, nil, $1) }
            glDeleteProgram(program)
            throw GLESUnavailable("the composition shaders do not link: \(log)")
        }
        id = program
        canvasSize = glGetUniformLocation(program, "canvasSize")
        mapX = glGetUniformLocation(program, "mapX")
        mapY = glGetUniformLocation(program, "mapY")
        imageSize = glGetUniformLocation(program, "imageSize")
        opaque = glGetUniformLocation(program, "opaque")
        alpha = glGetUniformLocation(program, "alpha")
        position = GLuint(bitPattern: glGetAttribLocation(program, "position"))
    }

    func delete() { glDeleteProgram(id) }

    private static func compile(_ kind: GLenum, _ source: String) throws(GLESUnavailable) -> GLuint {
        let shader = glCreateShader(kind)
        source.withCString { text in
            var pointer: UnsafePointer<GLchar>? = text
            glShaderSource(shader, 1, &pointer, nil)
        }
        glCompileShader(shader)
        var compiled: GLint = 0
        glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &compiled)
        guard compiled != 0 else {
            let log = Self.log { glGetShaderInfoLog(shader, $0, nil, $1) }
            glDeleteShader(shader)
            throw GLESUnavailable("a composition shader does not compile: \(log)")
        }
        return shader
    }

    private static func log(_ read: (GLsizei, UnsafeMutablePointer<GLchar>) -> Void) -> String {
        var buffer = [GLchar](repeating: 0, count: 1024)
        buffer.withUnsafeMutableBufferPointer { read(GLsizei($0.count), $0.baseAddress!) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
