import Kernel

/// The body of a sign-up.
public struct SignUpRequest: WireType, Equatable {
    /// The new account's email.
    public let email: String
    /// The name others see.
    public let displayName: String
    /// The password (8 characters to 72 bytes).
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
