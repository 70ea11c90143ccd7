import Foundation
import Kernel

/// The server a client talks to: `http://host:port` or `https://host:port`, checked once.
public struct ServerAddress: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// Host name or IP address (IPv6 without brackets).
    public let host: String
    /// Port.
    public let port: Int

    /// Parses `url`.
    /// - Throws: `AppError(.usage)` unless it is an http or https URL with a host and nothing
    ///   after the path's root.
    public init(_ url: String) throws {
        guard url.utf8.count <= 2_048, let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = parts.host, !host.isEmpty,
            parts.user == nil, parts.password == nil, parts.query == nil, parts.fragment == nil, ["", "/"].contains(parts.path)
        else {
            throw AppError(.usage, "the server URL \(AppError.quoting(url)) is not http://host:port or https://host:port")
        }
        if scheme == "https", host.contains(":") || host.allSatisfy({ $0.isNumber || $0 == "." }) {
            throw AppError(.usage, "name an https server by its host name, not by the address \(host): certificates are checked by name")
        }
        self.scheme = scheme
        self.host = host
        port = parts.port ?? (scheme == "https" ? 443 : 80)
    }

    /// `scheme://host:port`.
    public var description: String { "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)" }

    /// The URL of `path` (which starts with `/`).
    public func url(_ path: String) -> String { description + path }

    /// The WebSocket URL of `path`.
    public func webSocketURL(_ path: String) -> String { (scheme == "https" ? "wss" : "ws") + description.dropFirst(scheme.count) + path }

    /// A short name for file names: `host_port`, with anything else than letters, digits, `.`
    /// and `-` as `_`.
    public var fileName: String {
        String("\(host)_\(port)".map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") ? $0 : "_" })
    }
}
