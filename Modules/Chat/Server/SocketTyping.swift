import Chat
import ChatAPI
import Kernel
import ServerSupport
import Synchronization

/// The typing notices a client sends over its events socket (`ChatSocket.TypingFrame`), passed to
/// its typing service one at a time. Of those that come meanwhile only the newest is passed on,
/// and the ones it replaces are answered as done, as the newer says what is so now: a client
/// sending them at full speed costs the server a decode each. Each notice passed on is one of the
/// account's requests (`AccountRequests`).
public final class SocketTyping: SocketRequestReceiver {
    private struct Waiting {
        /// The newest notice come while another was being passed on.
        var newest: ChatSocket.TypingFrame?
        /// Whether a task is passing this socket's notices on.
        var passing = false
    }

    private let typing: any TypingService
    private let client: SocketClient
    private let waiting = Mutex(Waiting())

    /// Passes `client`'s typing notices to `typing`, its session's.
    public init(typing: any TypingService, client: SocketClient) {
        self.typing = typing
        self.client = client
    }

    /// Passes `frame` on, or keeps it as the newest while another is being passed on. One naming
    /// no conversation that could exist is refused before it costs a look-up.
    public func received(_ frame: ChatSocket.TypingFrame) {
        do {
            let _: ConversationID = try Validation.identifier(frame.conversation.rawValue, field: "conversation")
        } catch {
            return client.answer(frame.id, refusal: AppError(error))
        }
        let (start, replaced) = waiting.withLock { waiting in
            defer { (waiting.newest, waiting.passing) = (frame, true) }
            return (!waiting.passing, waiting.newest)
        }
        if let replaced { client.answer(replaced.id, refusal: nil) }
        guard start else { return }
        Task {
            while let next = waiting.withLock({ waiting in
                defer { waiting.newest = nil }
                waiting.passing = waiting.newest != nil
                return waiting.newest
            }) {
                var refusal: AppError?
                do {
                    try await client.requests.serving(client.owner) { try await typing.setTyping(next.typing, in: next.conversation) }
                } catch {
                    refusal = client.explained(error)
                }
                client.answer(next.id, refusal: refusal)
            }
        }
    }
}
