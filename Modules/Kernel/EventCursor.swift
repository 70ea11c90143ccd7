/// Where a reader is in a store's stream of messages: the store's epoch (which changes when the
/// store is replaced) and a position that only grows. A reader that comes back with its last
/// cursor gets exactly what came after it; a cursor of another epoch is refused, never guessed at.
/// Written `<epoch>.<position>` (`k3v9q2a1.1042`).
public struct EventCursor: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The store's identity: 1–16 letters and digits.
    public let epoch: String
    /// The position in the store's order of every message; at least 0.
    public let position: Int64

    /// Creates a cursor.
    public init(epoch: String, position: Int64) {
        self.epoch = epoch
        self.position = position
    }

    /// Parses `<epoch>.<position>`.
    /// - Throws: `.invalidInput` for anything else.
    public init(parsing text: String) throws {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...16).contains(parts[0].utf8.count), parts[0].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
              parts[1].utf8.count <= 19, let position = Int64(parts[1]), position >= 0 else {
            throw AppError(.invalidInput, "cursor \(AppError.quoting(text)) is not <epoch>.<position> as tail --json prints it")
        }
        self.init(epoch: String(parts[0]), position: position)
    }

    public var description: String { "\(epoch).\(position)" }

    /// A new random epoch for a new store.
    public static func newEpoch() -> String { String(Identifier<EventCursor>.random().rawValue.prefix(10)) }

    /// Whether this cursor comes after `other` in the same store.
    public func follows(_ other: EventCursor) -> Bool { epoch == other.epoch && position > other.position }

    public init(from decoder: any Decoder) throws {
        try self.init(parsing: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
