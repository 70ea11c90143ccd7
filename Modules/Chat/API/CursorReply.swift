import Kernel

/// A cursor, or none.
public struct CursorReply: WireType, Equatable {
    /// The cursor; `nil` when there is no message yet.
    public let cursor: EventCursor?

    /// Creates the reply.
    public init(_ cursor: EventCursor?) { self.cursor = cursor }

    public static let schema = WireSchema.object([("cursor", .nullable(.cursor))], required: [])
}
