import Chat
import ChatAPI
import Foundation
import Kernel
import Logging
import NIOCore
import ServerSupport
import Synchronization

/// The sends and typing notices a client makes over its events socket (`ChatSocket.SendFrame`,
/// `ChatSocket.TypingFrame`). Each send is stored through the
/// socket's chat service exactly as a `PUT` would be, and answered with a `ChatSocket.SendReply` once it
/// has committed. A socket's sends are stored in the order their frames came: those that
/// arrive while earlier ones are being stored go to the store together next, in order. At most
/// `EventSocketProtocol.maxPendingRequests` of one socket are waiting or being stored at once;
/// one more is refused at once, so a client cannot make the server hold an unbounded number.
/// Typing notices go to the socket's typing service one at a time; of those that come meanwhile only the
/// newest is passed on, so a client sending them at full speed costs the server a decode each.
/// Each batch of sends and each typing notice passed on is one of the account's requests
/// (`AccountRequests`): past their limit it is refused as an HTTP request would be.
public final class SocketSends: Sendable {
    /// What a frame that does not decode as a send may still carry: the id to answer.
    private struct Unreadable: Decodable {
        let id: String?
    }

    /// Sends received and not answered yet.
    private struct Queue {
        /// Received while others were being stored: the next to store, in order.
        var waiting: [ChatSocket.SendFrame] = []
        /// Whether a task is storing this socket's sends.
        var storing = false
        /// Waiting or being stored.
        var pending = 0
        /// The newest typing notice come while another was being passed on.
        var typing: ChatSocket.TypingFrame?
        /// Whether a task is passing this socket's typing notices on.
        var passingTyping = false
    }

    private let chat: any ChatService
    private let typing: any TypingService
    private let requests: AccountRequests
    private let owner: UserID
    private let logger: Logger
    private let queue = Mutex(Queue())
    private let answer: @Sendable (Data) -> Void

    /// Stores sends through `chat` and passes typing notices to `typing`, the socket's session's,
    /// as requests of `owner` among `requests`, and hands each reply's frame to `answer`; failures
    /// of the server's own go to `logger`.
    public init(
        chat: any ChatService, typing: any TypingService, requests: AccountRequests, owner: UserID, logger: Logger,
        answer: @escaping @Sendable (Data) -> Void
    ) {
        self.chat = chat
        self.typing = typing
        self.requests = requests
        self.owner = owner
        self.logger = logger
        self.answer = answer
    }

    /// Takes a text frame from the client, in the order frames arrive. One that is not a send is
    /// answered with `invalidInput` when it has an `id`, and dropped when it has none.
    public func received(_ bytes: ByteBuffer) {
        let data = Data(bytes.readableBytesView)
        let decoder = WireFormat.decoder()
        if let typing = try? decoder.decode(ChatSocket.TypingFrame.self, from: data), typing.type == TypingNotice.type {
            do {
                let _: ConversationID = try Validation.identifier(typing.conversation.rawValue, field: "conversation")
                received(typing)
            } catch {
                // One naming no conversation that could exist is refused before it costs a look-up.
                if let id = typing.id { answer(EventFrames.text(of: ChatSocket.SendReply(request: id, refusal: AppError(error)))) }
            }
            return
        }
        guard let frame = try? decoder.decode(ChatSocket.SendFrame.self, from: data), frame.type == ChatSocket.SendFrame.type else {
            guard let id = (try? decoder.decode(Unreadable.self, from: data))?.id else { return }
            reply(
                to: id,
                .failure(
                    AppError(
                        .invalidInput,
                        "the frame is not a request this server understands: \(ChatSocket.SendFrame.type) (id, conversation, text, replyTo?) or \(TypingNotice.type) (id, conversation, typing)"
                    )))
            return
        }
        let (admitted, start) = queue.withLock { queue in
            guard queue.pending < EventSocketProtocol.maxPendingRequests else { return (false, false) }
            queue.pending += 1
            queue.waiting.append(frame)
            defer { queue.storing = true }
            return (true, !queue.storing)
        }
        guard admitted else {
            reply(
                to: frame.id.rawValue,
                .failure(
                    AppError(.rateLimited, "\(EventSocketProtocol.maxPendingRequests) sends of this socket are being stored; wait for their replies"))
            )
            return
        }
        if start { Task { await storeWaiting() } }
    }

    /// Passes a typing notice on, or keeps it as the newest while another is being passed on;
    /// one it replaces is answered as done, as the newer says what is so now.
    private func received(_ typing: ChatSocket.TypingFrame) {
        let (start, replaced) = queue.withLock { queue in
            defer { (queue.typing, queue.passingTyping) = (typing, true) }
            return (!queue.passingTyping, queue.typing)
        }
        if let id = replaced?.id { answer(EventFrames.text(of: ChatSocket.SendReply(request: id, refusal: nil))) }
        guard start else { return }
        Task {
            while let next = queue.withLock({ queue in
                defer { queue.typing = nil }
                queue.passingTyping = queue.typing != nil
                return queue.typing
            }) {
                var refusal: AppError?
                do {
                    try await requests.serving(owner) { try await self.typing.setTyping(next.typing, in: next.conversation) }
                } catch {
                    refusal = explained(error)
                }
                if let id = next.id { answer(EventFrames.text(of: ChatSocket.SendReply(request: id, refusal: refusal))) }
            }
        }
    }

    /// Stores what waits, in order, until nothing does.
    private func storeWaiting() async {
        while let frames = nextFrames() {
            let outcomes: [Result<Message, AppError>]
            do {
                outcomes = try await requests.serving(owner) { await store(frames) }
            } catch {
                outcomes = frames.map { _ in .failure(explained(error)) }
            }
            FaultPoint.sendsStoredUnanswered.reach()
            queue.withLock { $0.pending -= frames.count }
            for (frame, outcome) in zip(frames, outcomes) { reply(to: frame.id.rawValue, outcome) }
        }
    }

    /// Every frame waiting, oldest first; `nil`, with the socket marked idle, when none is.
    private func nextFrames() -> [ChatSocket.SendFrame]? {
        queue.withLock { queue in
            let frames = queue.waiting
            queue.waiting = []
            queue.storing = !frames.isEmpty
            return frames.isEmpty ? nil : frames
        }
    }

    /// Checks each frame's ids as the HTTP route checks its path, then sends those that pass
    /// together; the outcomes are in the frames' order.
    private func store(_ frames: [ChatSocket.SendFrame]) async -> [Result<Message, AppError>] {
        let drafts = frames.map { frame in
            Result<Message.Draft, any Error> {
                Message.Draft(
                    id: try Validation.identifier(frame.id.rawValue, field: "id"),
                    conversationID: try Validation.identifier(frame.conversation.rawValue, field: "conversation"), text: frame.text,
                    replyTo: try frame.replyTo.map { try Validation.identifier($0.rawValue, field: "replyTo") })
            }
        }
        var stored = await chat.send(drafts.compactMap { try? $0.get() }).makeIterator()
        return drafts.map { draft in
            let outcome = draft.flatMap { _ in stored.next() ?? .failure(AppError(.internal, "the store answered fewer sends than it was given")) }
            return outcome.mapError(explained)
        }
    }

    /// A refusal as the client should see it; a failure of the server's own is logged under a
    /// new id, which is all the client is told of it (`ErrorReply.answer`).
    private func explained(_ error: any Error) -> AppError {
        let reply = ErrorReply.answer(error, logger: logger, "request over the events socket failed")
        return reply.error.appError(status: reply.status)
    }

    private func reply(to request: String, _ outcome: Result<Message, AppError>) {
        answer(EventFrames.text(of: ChatSocket.SendReply(request: request, outcome)))
    }
}
