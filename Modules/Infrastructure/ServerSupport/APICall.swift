import Hummingbird
import Kernel

/// One request to an endpoint, as its handler sees it: the decoded body, the caller, and the
/// path and query parameters, each read with its check.
public struct APICall<Body: WireType>: Sendable {
    /// The decoded body.
    public let body: Body
    /// Who calls: verified from the bearer token on first use (`.signedOut` without one).
    public let caller: Caller
    /// The bearer token, for the Auth routes that act on the session itself.
    public let token: String?
    /// The client's IP address.
    public let clientAddress: String
    let parameters: Parameters
    let queryItems: [String: String]

    /// The path parameter `name` (the endpoint's template guarantees it is there).
    public func path(_ name: String) throws -> String {
        guard let value = parameters.get(name) else { throw AppError(.invalidInput, "missing path parameter \(name)") }
        return value
    }

    /// The path parameter `name` as an identifier.
    /// - Throws: `.invalidInput` unless it is 1–64 letters, digits, `-`, `_` or `.`.
    public func id<Tag>(_ name: String) throws -> Identifier<Tag> { try Validation.identifier(try path(name), field: name) }

    /// `items`, checked to hold at most `limit` of them.
    /// - Throws: `.invalidInput` naming `field` when there are more.
    public func atMost<Item>(_ limit: Int, _ items: [Item], field: String) throws -> [Item] {
        guard items.count <= limit else { throw AppError(.invalidInput, "\(field) has \(items.count) entries; the limit is \(limit)") }
        return items
    }

    /// The query parameter `name`, if given.
    public func query(_ name: String) -> String? { queryItems[name] }

    /// The whole-number query parameter `name`, or `fallback` when it is absent.
    /// - Throws: `.invalidInput` when it is not a number within `range`.
    public func query(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws -> Int {
        guard let raw = queryItems[name] else { return fallback }
        guard let value = Int(raw), range.contains(value) else {
            throw AppError(.invalidInput, "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(AppError.quoting(raw))")
        }
        return value
    }
}
