/// Rectangles, the first held inline. An item's opaque area and a commit's damage are nearly
/// always one rectangle, and each frame makes them anew: listed this way, one rectangle
/// costs no allocation.
public struct RectList: RandomAccessCollection, ExpressibleByArrayLiteral, Equatable, Sendable {
    /// Nil only when the list is empty, so equal lists are equal field by field.
    private var first: Rect?
    private var rest: [Rect] = []

    public init() {}

    public init(_ rect: Rect) {
        first = rect
    }

    public init<S: Sequence<Rect>>(_ rects: S) {
        for rect in rects { append(rect) }
    }

    public init(arrayLiteral rects: Rect...) { self.init(rects) }

    public mutating func append(_ rect: Rect) {
        if first == nil { first = rect } else { rest.append(rect) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { first == nil ? 0 : 1 + rest.count }
    public subscript(index: Int) -> Rect { index == 0 ? first! : rest[index - 1] }
}
