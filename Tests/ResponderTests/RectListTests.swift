import Responder
import Testing

/// Damage and opaque areas are lists of rectangles whose first is held inline; they must
/// still behave as the array they replace, or damage is lost or an item's cover is wrong.
@Suite struct RectListTests {
    let rects = [Rect(x: 0, y: 0, width: 4, height: 4), Rect(x: 8, y: 2, width: 3, height: 1), Rect(x: 1, y: 9, width: 2, height: 2)]

    @Test func holdsWhatWasAppendedInOrder() {
        var list = RectList()
        #expect(list.isEmpty)
        for rect in rects { list.append(rect) }
        #expect(Array(list) == rects)
        #expect(list.count == 3 && list[0] == rects[0] && list[2] == rects[2])
    }

    @Test func listsOfTheSameRectanglesAreEqualHoweverMade() {
        var appended = RectList()
        for rect in rects { appended.append(rect) }
        #expect(appended == RectList(rects))
        #expect(RectList(rects[0]) == [rects[0]])
        #expect(RectList(rects.reversed()) != RectList(rects))
        #expect(RectList(rects.prefix(2)) != RectList(rects))
        #expect(RectList() == [])
    }
}
