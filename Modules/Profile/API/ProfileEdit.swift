import Kernel

/// The body of a profile edit; a missing field is left as it is.
public struct ProfileEdit: WireType, Equatable {
    /// The new display name, or `nil` to keep it.
    public let displayName: String?
    /// The new status, or `nil` to keep it.
    public let status: String?

    /// Creates the body.
    public init(displayName: String?, status: String?) {
        self.displayName = displayName
        self.status = status
    }

    public static let schema = WireSchema.object([
        ("displayName", .nullable(.string(minLength: 1, maxLength: Validation.maxDisplayNameLength))),
        ("status", .nullable(.string(maxLength: Validation.maxStatusLength))),
    ], required: [])
}
