import Foundation

/// How a client's address counts for per-address limits: an IPv4 address as it is (an
/// IPv4-mapped IPv6 one too); an IPv6 address by its /64 network, since one subscriber commonly
/// holds a whole /64 and could otherwise be as many clients as it likes.
public enum ClientAddress {
    /// The key of `address` (as NIO prints it) for a per-address limit.
    public static func limitKey(_ address: String) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        return stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }.joined(separator: ":") + "::/64"
    }
}
