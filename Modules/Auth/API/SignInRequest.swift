import Kernel

/// The body of a sign-in.
public struct SignInRequest: WireType, Equatable {
    public let email: String
    public let password: String

    /// Creates the body.
    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }

    public static let schema = WireSchema.object([
        ("email", .string(maxLength: Validation.maxEmailBytes)), ("password", .string(maxLength: 1_024)),
    ], required: ["email", "password"])
}
