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
        // Byte by byte: every event frame a client reads carries a cursor.
        let bytes = text.utf8
        guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")), (1...16).contains(bytes.distance(from: bytes.startIndex, to: dot)),
            bytes[..<dot].allSatisfy(Self.isASCIILetterOrDigit), case let digits = Substring(bytes[bytes.index(after: dot)...]),
            (1...19).contains(digits.utf8.count), digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let position = Int64(digits)
        else {
            throw AppError(.invalidInput, "cursor \(AppError.quoting(text)) is not <epoch>.<position> as tail --json prints it")
        }
        self.init(epoch: String(Substring(bytes[..<dot])), position: position)
    }

    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    public var description: String { epoch + "." + String(position) }

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
