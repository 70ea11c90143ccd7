import Kernel

/// The body of a sign-in.
public struct SignInRequest: WireType, Equatable {
    /// The account's email.
    public let email: String
    /// Its password.
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
