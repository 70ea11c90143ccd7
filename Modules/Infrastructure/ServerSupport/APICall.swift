import Hummingbird
import Kernel
import NIOCore

/// One request to an endpoint, as its handler sees it: the decoded body, the caller, the path's
/// parameters (read and checked before the handler runs) and the query parameters, each read
/// with its check.
public struct APICall<Body: WireType, Path: PathParameters.Kind>: Sendable {
    /// The decoded body.
    public let body: Body
    /// Who calls: verified from the bearer token on first use (`.signedOut` without one).
    public let caller: Caller
    /// The bearer token, for the Auth routes that act on the session itself.
    public let token: String?
    /// The client's IP address.
    public let clientAddress: String
    /// The path's parameters.
    public let path: Path
    /// The event loop of the request's connection: what a long response waits on between its
    /// chunks (`WireResponse.streaming`).
    public let connection: any EventLoop
    let queryItems: [String: String]

    /// This call with `body` as its decoded body.
    func carrying<Decoded>(_ body: Decoded) -> APICall<Decoded, Path> {
        APICall<Decoded, Path>(
            body: body, caller: caller, token: token, clientAddress: clientAddress, path: path, connection: connection, queryItems: queryItems)
    }

    /// `items`, checked to hold at most `limit` of them.
    /// - Throws: `.invalidInput` naming `field` when there are more.
    public func atMost<Item>(_ limit: Int, _ items: [Item], field: String) throws -> [Item] {
        guard items.count <= limit else { throw AppError(.invalidInput, "\(field) has \(items.count) entries; the limit is \(limit)") }
        return items
    }

    /// The query parameter `parameter`, if given.
    public func query(_ parameter: QueryParameter) -> String? { queryItems[parameter.name] }

    /// The query parameter `parameter`, which the request must carry.
    /// - Throws: `.invalidInput` when it is missing.
    public func required(_ parameter: QueryParameter) throws -> String {
        guard let value = query(parameter) else { throw AppError(.invalidInput, "the query parameter \(parameter.name) is missing") }
        return value
    }

    /// The whole-number query parameter `parameter`, or `fallback` when it is absent.
    /// - Throws: `.invalidInput` when it is not a number within the range its schema gives.
    public func query(_ parameter: QueryParameter, default fallback: Int) throws -> Int {
        guard let raw = query(parameter) else { return fallback }
        let range = if case .integer(let range) = parameter.schema { range } else { Int.min...Int.max }
        guard let value = Int(raw), range.contains(value) else {
            throw AppError(
                .invalidInput,
                "\(parameter.name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(AppError.quoting(raw))")
        }
        return value
    }

    /// The yes-or-no query parameter `parameter` (`true` or `false`), or `fallback` when it is absent.
    /// - Throws: `.invalidInput` for anything else.
    public func query(_ parameter: QueryParameter, default fallback: Bool) throws -> Bool {
        guard let raw = query(parameter) else { return fallback }
        guard let value = Bool(raw) else { throw AppError(.invalidInput, "\(parameter.name) must be true or false, not \(AppError.quoting(raw))") }
        return value
    }
}
