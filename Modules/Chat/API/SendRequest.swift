import Kernel

/// The body of a send.
public struct SendRequest: WireType, Equatable {
    /// The message text.
    public let text: String

    /// Creates the body.
    public init(text: String) { self.text = text }

    public static let schema = WireSchema.object([("text", .string(minLength: 1, maxLength: Validation.maxMessageLength))], required: ["text"])
}
