import Kernel

/// The users whose display names are asked for.
public struct NameQuery: WireType, Equatable {
    /// Most ids one request may ask for; the client splits longer lists.
    public static let maxIDs = 1_000

    /// The users asked about.
    public let ids: [UserID]

    /// Creates the body.
    public init(_ ids: [UserID]) { self.ids = ids }

    public static let schema = WireSchema.object([("ids", .array(.identifier, maxItems: maxIDs))], required: ["ids"])
}
