import Chat
import Kernel

/// The server's answer to a `SendFrame`: `{"type": "reply", "request": <the send's id>,
/// "message": {…}}` once the message is stored, or `…, "error": {"kind", "message"}}` when it is
/// refused, with the error a `PUT` would have been answered with.
public struct SendReply: Codable, Sendable {
    /// Always `EventSocketProtocol.replyType`.
    public let type: String
    /// The id of the message sent.
    public let request: String
    /// The stored message; `nil` when refused.
    public let message: Message?
    /// Why it was refused.
    public let error: WireError.Detail?

    /// The reply to the send of `request`: `stored` or the refusal `error`.
    public init(request: String, _ outcome: Result<Message, AppError>) {
        type = EventSocketProtocol.replyType
        self.request = request
        switch outcome {
        case .success(let message): (self.message, error) = (message, nil)
        case .failure(let refusal): (message, error) = (nil, WireError(refusal).error)
        }
    }

    /// The stored message, or the refusal as the `AppError` a local backend would throw.
    public func stored() throws -> Message {
        if let message { return message }
        guard let error else { throw AppError(.internal, "the server answered the send with neither a message nor an error") }
        throw AppError(AppError.Kind(rawValue: error.kind) ?? .internal, error.message)
    }
}
