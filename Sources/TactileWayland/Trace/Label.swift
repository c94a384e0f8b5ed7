import Glibc

/// A string a client chose (a title, an app id), made safe to print on one line: at most 80
/// characters, control characters and quotes replaced. A hostile title cannot forge a trace
/// line or flood the log.
func printableLabel(_ text: UnsafePointer<CChar>?) -> String? {
    guard let text else { return nil }
    var result = ""
    for scalar in String(decoding: UnsafeRawBufferPointer(start: text, count: strnlen(text, 4096)), as: UTF8.self).unicodeScalars.prefix(80) {
        result.unicodeScalars.append(scalar.properties.generalCategory == .control || scalar == "\"" ? "?" : scalar)
    }
    return result
}
