import Kernel

/// The body of a new group.
public struct GroupRequest: WireType, Equatable {
    /// Most members one request may add.
    public static let maxMembers = 1_000

    /// The group's title.
    public let title: String
    /// The members besides the caller.
    public let memberIDs: [UserID]

    /// Creates the body.
    public init(title: String, memberIDs: [UserID]) {
        self.title = title
        self.memberIDs = memberIDs
    }

    public static let schema = WireSchema.object([
        ("title", .string(minLength: 1, maxLength: Validation.maxTitleLength)), ("memberIDs", .array(.identifier, maxItems: maxMembers)),
    ], required: ["title", "memberIDs"])
}
