import Glibc

/// A string a client chose (a title, an app id), made safe to print on one line: at most
/// `limit` characters, control characters and quotes replaced. A hostile title cannot forge a
/// trace line or flood the log. App ids get a longer limit than titles because they are
/// names that waits, placement rules and taskbars match whole: Chromium's `--app` windows
/// name themselves after the page's path, often past 80 characters.
func printableLabel(_ text: UnsafePointer<CChar>?, limit: Int = labelLimit) -> String? {
    guard let text else { return nil }
    var result = ""
    for scalar in String(decoding: UnsafeRawBufferPointer(start: text, count: strnlen(text, 4096)), as: UTF8.self).unicodeScalars.prefix(limit) {
        result.unicodeScalars.append(scalar.properties.generalCategory == .control || scalar == "\"" ? "?" : scalar)
    }
    return result
}

/// The longest title (or other label) kept whole, and the longest app id (see `printableLabel`).
let labelLimit = 80
let appIDLabelLimit = 255
