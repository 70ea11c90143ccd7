import Foundation

/// How bodies and frames are encoded, the same on both ends: JSON, times as whole milliseconds
/// since 1970 (what SQLite stores, so a time survives the round trip exactly).
public enum WireFormat {
    /// A new encoder of wire values.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(milliseconds(date))
        }
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// How a date is written on the wire: whole milliseconds since 1970.
    public static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1_000).rounded()) }

    /// The date `milliseconds` since 1970 stand for, as stores keep times.
    public static func date(milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1_000) }

    /// A new decoder of wire values.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            date(milliseconds: try decoder.singleValueContainer().decode(Int64.self))
        }
        return decoder
    }
}
