import Foundation

/// The `--json` encoding: one object per line, keys sorted, dates in ISO 8601 with milliseconds.
public enum JSONLines {
    /// Encodes one value as a single line.
    public static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true)))
        }
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
