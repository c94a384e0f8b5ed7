import TactileWayland
import Testing

/// A recording's positions are written with three decimals, as printf's %.3f would write
/// them (the server no longer carries Foundation's formatter): what `tactile inject` reads
/// back must be the same number, ties rounded to even and no "-0".
@Suite struct RecordedNumberTests {
    @Test(arguments: [
        (0.0625, "0.062"), (0.1875, "0.188"), (12.5, "12.5"), (100, "100"), (-3.25, "-3.25"), (-0.0001, "0"),
        (0.001, "0.001"), (1234.05, "1234.05"), (-0.02, "-0.02"), (1e300, "1e+300"), (.nan, "0"), (-.infinity, "0"),
    ])
    func aPositionIsWrittenAsPrintfWouldWriteIt(value: Double, written: String) {
        #expect(InputRecorder.number(value) == written)
    }
}
