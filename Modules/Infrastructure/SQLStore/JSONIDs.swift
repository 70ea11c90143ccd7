import Foundation
import Kernel

/// Identifier lists passed to SQL as one JSON array parameter (`IN (SELECT value FROM json_each(?))`),
/// so that a query takes any number of ids without building SQL text.
public enum JSONIDs {
    /// The ids as a JSON array of strings. Written directly (a list of ten thousand ids takes
    /// a fraction of JSONEncoder's time); quotes, backslashes and control characters are escaped.
    public static func encode<Tag>(_ ids: [Identifier<Tag>]) -> String {
        var json = "["
        json.reserveCapacity(ids.count * 20)
        for (index, id) in ids.enumerated() {
            if index > 0 { json += "," }
            json += "\""
            guard id.rawValue.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                json += id.rawValue + "\""
                continue
            }
            for scalar in id.rawValue.unicodeScalars {
                switch scalar {
                case "\"": json += "\\\""
                case "\\": json += "\\\\"
                case ..<" ": json += String(format: "\\u%04x", scalar.value)
                default: json.unicodeScalars.append(scalar)
                }
            }
            json += "\""
        }
        return json + "]"
    }
}
