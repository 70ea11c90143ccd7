import Foundation
import Kernel
import Logging

/// The client of one events socket, as the features that answer its requests see it: who it
/// is, the account's budget of requests at once, and the way back to it.
public struct SocketClient: Sendable {
    /// The session the socket was opened with.
    public let caller: Caller
    /// Whose socket it is.
    public let owner: UserID
    /// The requests of every account, HTTP and socket alike: the socket's count among its owner's.
    public let requests: AccountRequests
    private let logger: Logger
    private let write: @Sendable (Data) -> Void

    /// The client `owner`, signed in as `caller`, whose requests count among `requests`; `write`
    /// queues a frame to it, and failures of the server's own go to `logger`.
    public init(caller: Caller, owner: UserID, requests: AccountRequests, logger: Logger, write: @escaping @Sendable (Data) -> Void) {
        self.caller = caller
        self.owner = owner
        self.requests = requests
        self.logger = logger
        self.write = write
    }

    /// Queues the frame `text` for the client.
    public func answer(_ text: Data) { write(text) }

    /// Answers the request `request` as done, or refused with `refusal` (`EventSocketProtocol.Answer`);
    /// a request without an id gets no answer.
    public func answer(_ request: String?, refusal: AppError?) {
        guard let request else { return }
        write((try? WireFormat.encoder().encode(EventSocketProtocol.Answer(request: request, refusal: refusal))) ?? Data())
    }

    /// `error` as the client should see it; a failure of the server's own is logged under a new
    /// id, which is all the client is told of it (`ErrorReply.answer`).
    public func explained(_ error: any Error) -> AppError {
        let reply = ErrorReply.answer(error, logger: logger, "request over the events socket failed")
        return reply.error.appError(status: reply.status)
    }
}
