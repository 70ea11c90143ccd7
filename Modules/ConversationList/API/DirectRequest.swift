import Kernel

/// The body of a request for the one-to-one conversation with a user.
public struct DirectRequest: WireType, Equatable {
    /// The other person.
    public let userID: UserID

    /// Creates the body.
    public init(userID: UserID) { self.userID = userID }

    public static let schema = WireSchema.object([("userID", .identifier)], required: ["userID"])
}
