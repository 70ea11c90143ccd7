import Foundation

/// The `--json` encoding: one object per line, keys sorted, camel-case keys with `Id` (not `ID`:
/// `conversationId`, `memberIds`), dates in ISO 8601 UTC with milliseconds.
public enum JSONLines {
    /// Encodes one value as a single line.
    public static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .custom { path in
            JSONKey(path.last!.stringValue.replacingOccurrences(of: "IDs", with: "Ids").replacingOccurrences(of: "ID", with: "Id"))
        }
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        }
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// A coding key made from a string.
private struct JSONKey: CodingKey {
    let stringValue: String
    let intValue: Int? = nil

    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
