import Foundation
import Kernel

/// How a client's address counts for per-address limits: an IPv4 address as it is (an
/// IPv4-mapped IPv6 one too); an IPv6 address by its /64 network, since one subscriber commonly
/// holds a whole /64 and could otherwise be as many clients as it likes.
public enum ClientAddress {
    /// The key of `address` (as NIO prints it) for a per-address limit.
    public static func limitKey(_ address: String) -> String {
        guard let bytes = ipv6Bytes(address) else { return address }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        return stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }.joined(separator: ":")
            + "::/64"
    }

    /// The load balancers whose `X-Forwarded-For` the server believes: behind one, every
    /// connection comes from the proxy, and the client's address is what the proxy says it is.
    /// Anyone else's header is ignored, or a client could name any address it likes and never
    /// meet a per-address limit.
    public struct TrustedProxies: Sendable {
        /// The proxies' addresses, each in one canonical spelling.
        private let addresses: Set<String>

        /// No proxy: every client's address is its connection's.
        public static let none = TrustedProxies(canonical: [])

        /// Trusts the proxies at `list`, IPv4 or IPv6 addresses.
        /// - Throws: `AppError(.usage)` naming an entry that is not an IP address.
        public init(_ list: [String]) throws {
            self.init(
                canonical: Set(
                    try list.map { entry in
                        guard let canonical = ClientAddress.canonical(entry) else {
                            throw AppError(.usage, "the trusted proxy \(AppError.quoting(entry)) is not an IP address")
                        }
                        return canonical
                    }))
        }

        private init(canonical: Set<String>) { addresses = canonical }

        /// Whether the connection from `peer` is a trusted proxy's.
        public func contains(_ peer: String) -> Bool {
            !addresses.isEmpty && ClientAddress.canonical(peer).map(addresses.contains) == true
        }

        /// The address of the client of a request from `peer` with `forwardedFor` (the values of
        /// its `X-Forwarded-For` headers, in order): from a trusted proxy, the nearest address in
        /// the header that is not itself a trusted proxy (each proxy appends whom it heard from);
        /// from anyone else, `peer`. A header with no valid address there counts as the proxy's own.
        public func client(peer: String, forwardedFor: [String]) -> String {
            guard contains(peer) else { return peer }
            let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
            for hop in hops.reversed() {
                guard let canonical = ClientAddress.canonical(hop) else { return peer }
                if !addresses.contains(canonical) { return canonical }
            }
            return peer
        }
    }

    /// `address` spelled one way (as `inet_ntop` writes it); `nil` when it is no IP address.
    static func canonical(_ address: String) -> String? {
        guard address.utf8.count <= 64 else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            return inet_ntop(AF_INET, &v4, &text, socklen_t(text.count)) == nil ? nil : String(cString: text)
        }
        guard var bytes = ipv6Bytes(address) else { return nil }
        return inet_ntop(AF_INET6, &bytes, &text, socklen_t(text.count)) == nil ? nil : String(cString: text)
    }

    private static func ipv6Bytes(_ address: String) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else { return nil }
        return bytes
    }
}
