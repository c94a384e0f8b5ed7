import GestureConfiguration
import Responder
@testable import TactileWayland
import Testing

/// A touchscreen's dead zones are given in its output's pixels as the screen shows them, and
/// the libinput backend places them where that output lies: on a turned, scaled screen right
/// of another, the zone over the corner the user sees at the top left takes the touch that
/// the panel reports there, through the same transform the backend maps touches with.
@Suite struct DeadZoneTests {
    /// A 1280x800 panel mounted in portrait (transform 90), scale 2: 400x640 in the layout,
    /// right of a 1280 px screen.
    static let portrait = PlacedOutput(
        id: OutputID(raw: 2), description: OutputDescription(name: "DSI-1", description: "", make: "", model: "", pixelSize: Size(width: 1280, height: 800),
                                                             scale: 2, transform: .rotated90),
        rect: Rect(x: 1280, y: 0, width: 400, height: 640))

    @Test func aZoneFollowsItsOutputsPlaceTransformAndScale() throws {
        let zones = [PanelFilterSettings.DeadZone(rect: Rect(x: 0, y: 0, width: 40, height: 40), origin: "kiosk.yaml:3:18 devices[0].dead-zones[0]")]
        let (settings, offScreen) = PanelFilterSettings(deadZones: zones).touchFilters(on: Self.portrait.rect)
        #expect(offScreen.isEmpty)
        #expect(settings.deadZones == [Rect(x: 1280, y: 0, width: 40, height: 40)])
        // The panel's own corner that the user sees at the screen's top left, through the
        // transform: a touch there goes nowhere; one at the panel's origin (another corner as
        // shown) goes on.
        let shownTopLeft = Self.portrait.panelFraction(of: Point(x: 1285, y: 5))
        let inZone = Self.portrait.layoutPoint(panelFraction: shownTopLeft.x, shownTopLeft.y)
        let panelOrigin = Self.portrait.layoutPoint(panelFraction: 0.01, 0.01)
        #expect(!Rect(x: 1280, y: 0, width: 40, height: 40).contains(panelOrigin), "the panel's origin is not the top left as shown: \(panelOrigin)")
        var filters = TouchFilters()
        filters.setFilters(settings, for: InputDeviceID(1))
        var output = RecordingFilterOutput()
        filters.filter(.touchDown(id: 0, global: inZone, time: .zero), from: InputDeviceID(1), into: &output)
        filters.filter(.touchDown(id: 1, global: panelOrigin, time: .zero), from: InputDeviceID(1), into: &output)
        #expect(output.events == [.touchDown(id: 1, global: panelOrigin, time: .zero)])
        #expect(output.reports.map(\.finding) == [.inDeadZone(Rect(x: 1280, y: 0, width: 40, height: 40))])
    }

    /// A zone beyond a smaller screen is left out and named with where the file gave it.
    @Test func aZoneOffItsScreenIsLeftOut() {
        let zones = [PanelFilterSettings.DeadZone(rect: Rect(x: 600, y: 0, width: 40, height: 40), origin: "kiosk.yaml:3:18 devices[0].dead-zones[0]")]
        let (settings, offScreen) = PanelFilterSettings(deadZones: zones).touchFilters(on: Self.portrait.rect)
        #expect(settings.deadZones.isEmpty)
        #expect(offScreen.map(\.origin) == ["kiosk.yaml:3:18 devices[0].dead-zones[0]"])
    }
}
