import Kernel
import Profile

/// A list of profiles: search results.
public struct ProfileList: WireType, Equatable {
    /// The profiles found, by name.
    public let profiles: [Profile]

    /// Creates the list.
    public init(_ profiles: [Profile]) { self.profiles = profiles }

    public static let schema = WireSchema.object([("profiles", .array(Profile.schema, maxItems: ProfileRules.maxSearchResults))],
                                                 required: ["profiles"])
}
