import Kernel

/// Display names by user id; unknown ids are left out.
public struct DisplayNames: WireType, Equatable {
    /// Display names by user id.
    public let names: [String: String]

    /// Creates the reply.
    public init(_ names: [UserID: String]) {
        self.names = Dictionary(uniqueKeysWithValues: names.map { ($0.key.rawValue, $0.value) })
    }

    /// The names by typed id.
    public var byUser: [UserID: String] { Dictionary(uniqueKeysWithValues: names.map { (UserID($0.key), $0.value) }) }

    public static let schema = WireSchema.object([("names", .map(.string(maxLength: Validation.maxDisplayNameLength)))], required: ["names"])
}
