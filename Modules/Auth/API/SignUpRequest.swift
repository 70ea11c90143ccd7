import Kernel

/// The body of a sign-up.
public struct SignUpRequest: WireType, Equatable {
    public let email: String
    public let displayName: String
    public let password: String

    /// Creates the body.
    public init(email: String, displayName: String, password: String) {
        self.email = email
        self.displayName = displayName
        self.password = password
    }

    public static let schema = WireSchema.object([
        ("email", .string(minLength: 3, maxLength: Validation.maxEmailBytes, format: "email")),
        ("displayName", .string(minLength: 1, maxLength: Validation.maxDisplayNameLength)),
        ("password", .string(minLength: Validation.minPasswordLength, maxLength: Validation.maxPasswordBytes)),
    ], required: ["email", "displayName", "password"])
}
