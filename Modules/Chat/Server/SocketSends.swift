import Chat
import ChatAPI
import Foundation
import Kernel
import ServerSupport
import Synchronization

/// The sends a client makes over its events socket (`ChatSocket.SendFrame`). Each is stored
/// through the client's chat service exactly as a `PUT` would be, and answered with a
/// `ChatSocket.SendReply` once it has committed. A socket's sends are stored in the order their
/// frames came: those that arrive while earlier ones are being stored go to the store together
/// next, in order. At most `EventSocketProtocol.maxPendingRequests` of one socket are waiting or
/// being stored at once; one more is refused at once, so a client cannot make the server hold an
/// unbounded number. Each batch is one of the account's requests (`AccountRequests`): past their
/// limit it is refused as an HTTP request would be.
public final class SocketSends: SocketRequestReceiver {
    /// Sends received and not answered yet.
    private struct Queue {
        /// Received while others were being stored: the next to store, in order.
        var waiting: [ChatSocket.SendFrame] = []
        /// Whether a task is storing this socket's sends.
        var storing = false
        /// Waiting or being stored.
        var pending = 0
    }

    private let chat: any ChatService
    private let client: SocketClient
    private let queue = Mutex(Queue())

    /// Stores `client`'s sends through `chat`, its session's.
    public init(chat: any ChatService, client: SocketClient) {
        self.chat = chat
        self.client = client
    }

    public func received(_ frame: ChatSocket.SendFrame) {
        let (admitted, start) = queue.withLock { queue in
            guard queue.pending < EventSocketProtocol.maxPendingRequests else { return (false, false) }
            queue.pending += 1
            queue.waiting.append(frame)
            defer { queue.storing = true }
            return (true, !queue.storing)
        }
        guard admitted else {
            let busy = AppError(
                .rateLimited, "\(EventSocketProtocol.maxPendingRequests) sends of this socket are being stored; wait for their replies")
            return reply(to: frame.id.rawValue, .failure(busy))
        }
        if start { Task { await storeWaiting() } }
    }

    /// Stores what waits, in order, until nothing does.
    private func storeWaiting() async {
        while let frames = nextFrames() {
            let outcomes: [Result<Message, AppError>]
            do {
                outcomes = try await client.requests.serving(client.owner) { await store(frames) }
            } catch {
                outcomes = frames.map { _ in .failure(client.explained(error)) }
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
            return outcome.mapError(client.explained)
        }
    }

    private func reply(to request: String, _ outcome: Result<Message, AppError>) {
        client.answer(EventFrames.text(of: ChatSocket.SendReply(request: request, outcome)))
    }
}
