import Chat
import Foundation
import Kernel
import Synchronization
import Testing

/// The outbox keeps messages it cannot send, sends each once when it can, and reports refusals.
@Suite("Outbox", .timeLimit(.minutes(1)))
struct OutboxUnitTests {
    final class MemoryStore: OutboxStore {
        let saved = Mutex<[Message]>([])
        func load() throws -> [Message] { saved.withLock { $0 } }
        func update(_ change: ([Message]) throws -> [Message]) throws { try saved.withLock { $0 = try change($0) } }
    }

    static let ada = UserID("ada"), grace = UserID("grace")

    static func message(_ text: String) -> Message {
        Message(id: .random(), conversationID: ConversationID("c1"), senderID: UserID(""), text: text, sentAt: .now)
    }

    @Test("unreachable, then reachable: each kept message is sent once, in order, and leaves the store")
    func sendsWhenBack() async throws {
        let store = MemoryStore()
        let outbox = Outbox(store: store, owner: Self.ada)
        let first = try await outbox.keep(Self.message("one")), second = try await outbox.keep(Self.message("two"))
        #expect(first.state == .queued && store.saved.withLock { $0.map(\.text) } == ["one", "two"])
        let attempts = Mutex<[String]>([])
        var outcomes = await outbox.outcomes().makeAsyncIterator()
        await outbox.flush { message in
            let count = attempts.withLock { $0.append(message.text); return $0.count }
            if count == 1 { throw AppError(.unavailable, "down") }
            var sent = message
            sent.state = .sent
            return sent
        }
        let done = [await outcomes.next(), await outcomes.next()]
        #expect(done.map { $0?.id } == [first.id, second.id] && done.allSatisfy { $0?.state == .sent })
        #expect(attempts.withLock { $0 } == ["one", "one", "two"])
        #expect(await outbox.drained(within: .seconds(5)))
        #expect(store.saved.withLock { $0.isEmpty })
    }

    @Test("another user of the profile neither sees nor sends the owner's kept messages")
    func keptPerOwner() async throws {
        let store = MemoryStore()
        let kept = try await Outbox(store: store, owner: Self.ada).keep(Self.message("ada's"))
        #expect(kept.senderID == Self.ada)
        let graces = Outbox(store: store, owner: Self.grace)
        let theirs = try await graces.messages(), empty = await graces.isEmpty()
        #expect(theirs.isEmpty && empty)
        let sent = Mutex(0)
        await graces.flush { message in
            sent.withLock { $0 += 1 }
            return message
        }
        #expect(await graces.drained(within: .seconds(5)))
        #expect(sent.withLock { $0 } == 0 && store.saved.withLock { $0.map(\.text) } == ["ada's"])
    }

    @Test("a refusal fails the message with the server's reason and drops it from the outbox")
    func refusalFails() async throws {
        let store = MemoryStore()
        let outbox = Outbox(store: store, owner: Self.ada)
        let kept = try await outbox.keep(Self.message("late"))
        var outcomes = await outbox.outcomes().makeAsyncIterator()
        await outbox.flush { _ in throw AppError(.forbidden, "you are not a member of conversation c1") }
        let failed = await outcomes.next()
        #expect(failed?.id == kept.id && failed?.state == .failed && failed?.failureReason == "you are not a member of conversation c1")
        #expect(await outbox.drained(within: .seconds(5)) && store.saved.withLock { $0.isEmpty })
    }
}
