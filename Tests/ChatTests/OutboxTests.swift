import Chat
import Foundation
import Kernel
import Synchronization
import Testing

/// The outbox keeps messages it cannot send, sends each once when it can, and reports refusals.
@Suite("Outbox", .timeLimit(.minutes(1)))
struct OutboxUnitTests {
    final class MemoryStore: OutboxStore {
        let saved = Mutex<[Outbox.Entry]>([])
        func load() throws -> [Outbox.Entry] { saved.withLock { $0 } }
        func update(_ change: ([Outbox.Entry]) throws -> [Outbox.Entry]) throws { try saved.withLock { $0 = try change($0) } }
    }

    static let ada = UserID("ada"), grace = UserID("grace"), conversation = ConversationID("c1")

    @Test("unreachable, then reachable: each kept message is sent once, in order, and leaves the store")
    func sendsWhenBack() async throws {
        let store = MemoryStore()
        let outbox = Outbox(store: store, owner: Self.ada)
        let first = try await outbox.keep(id: .random(), text: "one", in: Self.conversation)
        let second = try await outbox.keep(id: .random(), text: "two", in: Self.conversation)
        #expect(store.saved.withLock { $0.map(\.text) } == ["one", "two"])
        let service = ScriptedChatService(failingSends: 1)
        var outcomes = await outbox.outcomes().makeAsyncIterator()
        await outbox.flush(through: service)
        let done = [await outcomes.next(), await outcomes.next()]
        let sent = done.compactMap { outcome -> Message? in if case .sent(let message) = outcome { message } else { nil } }
        #expect(sent.map(\.id) == [first.id, second.id] && sent.map(\.text) == ["one", "two"])
        #expect(service.attempts == ["one", "one", "two"])
        #expect(await outbox.drained(within: .seconds(5)))
        #expect(store.saved.withLock { $0.isEmpty })
    }

    @Test("a reply typed while the server is away is kept and sent later as a reply, with what it answers; from a chat screen too")
    @MainActor func keepsReplies() async throws {
        let store = MemoryStore()
        let outbox = Outbox(store: store, owner: Self.ada)
        let service = ScriptedChatService(failingSends: 1)
        let model = ChatViewModel(service: service, events: service, conversationID: Self.conversation, outbox: outbox)
        await model.send("see you then", replyTo: MessageID("m-grace"))
        #expect(model.timeline.value?.entries.map(\.delivery) == [.queued], "kept, not failed")
        #expect(await outbox.drained(within: .seconds(5)))
        #expect(service.replyAttempts == [MessageID("m-grace"), MessageID("m-grace")], "sent again as a reply")
        #expect(service.attempts == ["see you then", "see you then"])
    }

    @Test("another user of the profile neither sees nor sends the owner's kept messages")
    func keptPerOwner() async throws {
        let store = MemoryStore()
        let kept = try await Outbox(store: store, owner: Self.ada).keep(id: .random(), text: "ada's", in: Self.conversation)
        #expect(kept.senderID == Self.ada)
        let graces = Outbox(store: store, owner: Self.grace)
        let theirs = try await graces.messages(), empty = await graces.isEmpty()
        #expect(theirs.isEmpty && empty)
        let service = ScriptedChatService()
        await graces.flush(through: service)
        #expect(await graces.drained(within: .seconds(5)))
        #expect(service.attempts.isEmpty && store.saved.withLock { $0.map(\.text) } == ["ada's"])
    }

    @Test("a refusal comes back with the server's reason and drops the message from the outbox")
    func refusalFails() async throws {
        let store = MemoryStore()
        let outbox = Outbox(store: store, owner: Self.ada)
        let kept = try await outbox.keep(id: .random(), text: "late", in: Self.conversation)
        var outcomes = await outbox.outcomes().makeAsyncIterator()
        await outbox.flush(through: ScriptedChatService(failingSends: 1, failure: AppError(.forbidden, "you are not a member of conversation c1")))
        #expect(await outcomes.next() == .refused(kept, reason: "you are not a member of conversation c1"))
        #expect(await outbox.drained(within: .seconds(5)) && store.saved.withLock { $0.isEmpty })
    }

    @Test("an outbox file of the earlier format, which kept whole messages with their state, still loads")
    func earlierFormat() throws {
        let earlier = #"[{"id":"m1","conversationID":"c1","senderID":"ada","text":"hi","sentAt":786000000,"state":"queued"}]"#
        let entries = try JSONDecoder().decode([Outbox.Entry].self, from: Data(earlier.utf8))
        #expect(
            entries == [
                Outbox.Entry(
                    id: MessageID("m1"), conversationID: Self.conversation, senderID: Self.ada, text: "hi",
                    sentAt: Date(timeIntervalSinceReferenceDate: 786_000_000))
            ])
    }
}
