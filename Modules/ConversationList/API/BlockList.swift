import Kernel

/// The people the caller has blocked.
public struct BlockList: WireType, Equatable {
    /// Longest list the client accepts.
    public static let maxBlocked = 100_000

    /// Their ids.
    public let userIDs: [UserID]

    /// Creates the reply.
    public init(_ userIDs: [UserID]) { self.userIDs = userIDs }

    public static let schema = WireSchema.object([("userIDs", .array(.identifier, maxItems: maxBlocked))], required: ["userIDs"])
}
