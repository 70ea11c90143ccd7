/// The body of a request or reply that has none.
public struct NoContent: WireType, Equatable {
    /// The empty value.
    public init() {}

    public static let schema = WireSchema.object([], required: [])
}
