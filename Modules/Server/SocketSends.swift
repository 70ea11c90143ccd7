import Chat
import ChatAPI
import Foundation
import Kernel
import Logging
import NIOCore
import ServerSupport
import Synchronization

/// The sends a client makes over its events socket (`SendFrame`): each is stored through the
/// socket's chat service exactly as a `PUT` would be, and answered with a `SendReply` once it
/// has committed. At most `EventSocketProtocol.maxPendingRequests` of one socket are being
/// stored at once; one more is refused at once, so a client cannot make the server hold an
/// unbounded number of them.
final class SocketSends: Sendable {
    /// What a frame that does not decode as a send may still carry: the id to answer.
    private struct Unreadable: Decodable {
        let id: String?
    }

    private let chat: any ChatService
    private let logger: Logger
    private let pending = Mutex(0)
    private let answer: @Sendable (Data) -> Void

    /// Stores sends through `chat`, the socket's session's, and hands each reply's frame to
    /// `answer`; failures of the server's own go to `logger`.
    init(chat: any ChatService, logger: Logger, answer: @escaping @Sendable (Data) -> Void) {
        self.chat = chat
        self.logger = logger
        self.answer = answer
    }

    /// Takes a text frame from the client. One that is not a send is answered with
    /// `invalidInput` when it has an `id`, and dropped when it has none.
    func received(_ bytes: ByteBuffer) {
        let data = Data(bytes.readableBytesView)
        let decoder = WireFormat.decoder()
        guard let frame = try? decoder.decode(SendFrame.self, from: data), frame.type == SendFrame.type else {
            guard let id = (try? decoder.decode(Unreadable.self, from: data))?.id else { return }
            reply(to: id, .failure(AppError(.invalidInput, "the frame is not a send this server understands (type \(SendFrame.type), id, conversation, text)")))
            return
        }
        let request = frame.id.rawValue
        let admitted = pending.withLock { count in
            guard count < EventSocketProtocol.maxPendingRequests else { return false }
            count += 1
            return true
        }
        guard admitted else {
            reply(to: request, .failure(AppError(.rateLimited, "\(EventSocketProtocol.maxPendingRequests) sends of this socket are being stored; wait for their replies")))
            return
        }
        Task {
            let outcome = await store(frame)
            pending.withLock { $0 -= 1 }
            reply(to: request, outcome)
        }
    }

    /// Checks the frame's ids as the HTTP route checks its path, then sends.
    private func store(_ frame: SendFrame) async -> Result<Message, AppError> {
        do {
            let id: MessageID = try Validation.identifier(frame.id.rawValue, field: "id")
            let conversation: ConversationID = try Validation.identifier(frame.conversation.rawValue, field: "conversation")
            return .success(try await chat.send(id: id, text: frame.text, to: conversation))
        } catch {
            if let refusal = ErrorReply(error) { return .failure(refusal.error.appError(status: refusal.status)) }
            logger.error("send over the events socket failed", metadata: ["error": "\(String(reflecting: error))"])
            return .failure(AppError(.internal, "the server failed; the failure is in its log"))
        }
    }

    private func reply(to request: String, _ outcome: Result<Message, AppError>) {
        answer(EventFrames.text(of: SendReply(request: request, outcome)))
    }
}
