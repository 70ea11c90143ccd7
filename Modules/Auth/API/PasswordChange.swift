import Kernel

/// The body of a password change.
public struct PasswordChange: WireType, Equatable {
    /// The password now in use.
    public let current: String
    /// The password to use from now on.
    public let new: String

    /// Creates the body.
    public init(current: String, new: String) {
        self.current = current
        self.new = new
    }

    public static let schema = WireSchema.object([
        ("current", .string(maxLength: 1_024)), ("new", .string(minLength: Validation.minPasswordLength, maxLength: Validation.maxPasswordBytes)),
    ], required: ["current", "new"])
}
