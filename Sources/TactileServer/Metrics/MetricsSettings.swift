import Glibc

/// `metrics` in the configuration file: where a fleet's monitoring reads Tactile's metrics.
public struct MetricsSettings: Sendable, Equatable {
    /// `metrics.listen`: serve `GET /metrics` and `GET /healthz` over HTTP there.
    public var listen: ListenAddress?
    /// `metrics.textfile`: write the exposition to this file every few seconds, for
    /// node_exporter's textfile collector (a fleet that opens no port on the kiosk).
    public var textfile: String?

    public init(listen: ListenAddress? = nil, textfile: String? = nil) {
        self.listen = listen
        self.textfile = textfile
    }
}

/// A numeric address and a TCP port: `9464` (loopback), `127.0.0.1:9464`, `0.0.0.0:9464`,
/// `[::1]:9464`. Port 0 takes a free port, which the log names. No host names: a kiosk
/// must not wait on a resolver to start.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: UInt16
    public var isIPv6: Bool

    public init?(_ text: String) {
        var host = "127.0.0.1", portText = Substring(text), v6 = false
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = text[text.index(close, offsetBy: 2)...]
            v6 = true
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
        }
        guard !portText.isEmpty, portText.allSatisfy(\.isASCII), let port = UInt16(portText) else { return nil }
        var probe = in6_addr()
        guard inet_pton(v6 ? AF_INET6 : AF_INET, host, &probe) == 1 else { return nil }
        self.host = host
        self.port = port
        isIPv6 = v6
    }

    public var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Whether only this machine can reach it.
    public var isLoopback: Bool { isIPv6 ? host == "::1" : host.hasPrefix("127.") }
}
