import Foundation
import Kernel

/// Identifier lists passed to SQL as one JSON array parameter (`IN (SELECT value FROM json_each(?))`),
/// so that a query takes any number of ids without building SQL text.
public enum JSONIDs {
    /// The ids as a JSON array of strings.
    public static func encode<Tag>(_ ids: [Identifier<Tag>]) throws -> String {
        String(decoding: try JSONEncoder().encode(ids.map(\.rawValue)), as: UTF8.self)
    }
}
