import Chat
import Kernel
import Synchronization
import Testing

@Suite("InMemoryChatService", .timeLimit(.minutes(1)))
struct InMemoryChatServiceTests {
    let ada = UserID("u-ada"), grace = UserID("u-grace"), alan = UserID("u-alan")
    let direct = ConversationID("c-direct"), others = ConversationID("c-others")
    /// Who the service acts for; tests switch it with `act(as:)`.
    let acting = ActingUser()

    func makeService(messages: [Message] = [], peer: SimulatedPeer = .none) -> (store: InMemoryChatStore, service: InMemoryChatService) {
        let store = InMemoryChatStore(
            messages: messages,
            membership: FixedMembership(members: [direct: [ada, grace], others: [grace, alan]]),
            names: FixedNames(names: [ada: "Ada Lovelace", grace: "Grace Hopper", alan: "Alan Turing"]), peer: peer)
        let acting = acting
        return (store, InMemoryChatService(store: store, caller: Caller { acting.user.withLock { $0 } }))
    }

    /// The events of `store` as the acting user reads them.
    func makeEvents(_ store: InMemoryChatStore) -> InMemoryEventStreamService {
        let acting = acting
        return InMemoryEventStreamService(store: store, caller: Caller { acting.user.withLock { $0 } })
    }

    func act(as user: UserID) { acting.user.withLock { $0 = user } }

    @Test("sending the same id twice stores one message; reusing an id for other text is a conflict")
    func idempotentSend() async throws {
        let (_, service) = makeService()
        let id = MessageID.random()
        let first = try await service.send(id: id, text: " hello ", to: direct)
        let again = try await service.send(id: id, text: "hello", to: direct)
        #expect(first == again && first.text == "hello")
        #expect(try await service.latestMessages(in: direct, limit: 50).messages == [first])
        await #expect(throws: AppError.self) { try await service.send(id: id, text: "other", to: direct) }
    }

    @Test("only members read or post; unknown conversations are not found")
    func membership() async {
        let (store, service) = makeService()
        let events = makeEvents(store)
        await #expect(throws: AppError(.forbidden, "you are not a member of conversation c-others")) {
            try await service.send(id: .random(), text: "hi", to: self.others)
        }
        await #expect(throws: AppError.self) { try await service.latestMessages(in: self.others, limit: 10) }
        await #expect(throws: AppError(.notFound, "no conversation 'nope'")) {
            try await events.liveMessages(in: ConversationID("nope"))
        }
    }

    @Test("pages go back by cursor until the first message")
    func paging() async throws {
        let (_, service) = makeService(messages: makeHistory(120, in: direct, from: grace))
        let newest = try await service.latestMessages(in: direct, limit: 50)
        #expect(newest.messages.map(\.id.rawValue) == (70..<120).map { "m\($0)" } && newest.hasOlder)
        let middle = try await service.messages(in: direct, before: newest.messages[0].id, limit: 50)
        #expect(middle.messages.first?.id == MessageID("m20") && middle.hasOlder)
        let oldest = try await service.messages(in: direct, before: middle.messages[0].id, limit: 50)
        #expect(oldest.messages.count == 20 && !oldest.hasOlder)
        await #expect(throws: AppError.self) { try await service.messages(in: direct, before: MessageID("zzz"), limit: 5) }
    }

    @Test("unread counts others' messages after the read marker; reading or sending clears them")
    func unread() async throws {
        let (store, service) = makeService()
        act(as: grace)
        for text in ["one", "two"] { _ = try await service.send(id: .random(), text: text, to: direct) }
        #expect(try await store.activity(of: [direct], for: ada)[direct]?.unreadCount == 2)
        #expect(try await store.activity(of: [direct], for: grace)[direct]?.unreadCount == 0)
        act(as: ada)
        try await service.markRead(direct)
        #expect(try await store.activity(of: [direct], for: ada)[direct]?.unreadCount == 0)
        act(as: grace)
        _ = try await service.send(id: .random(), text: "three", to: direct)
        act(as: ada)
        _ = try await service.send(id: .random(), text: "reply", to: direct)
        #expect(try await store.activity(of: [direct], for: ada)[direct]?.unreadCount == 0)
        #expect(try await store.activity(of: [direct], for: grace)[direct]?.lastMessage?.text == "reply")
    }

    @Test("live messages arrive in order; the all-conversations feed skips others' conversations")
    func live() async throws {
        let (store, service) = makeService()
        var feed = try await makeEvents(store).liveMessages(in: nil).makeAsyncIterator()
        act(as: grace)
        _ = try await service.send(id: .random(), text: "private", to: others)
        _ = try await service.send(id: .random(), text: "for ada", to: direct)
        #expect(await feed.next()?.text == "for ada")
    }

    @Test("a simulated peer answers a message in its conversation")
    func simulatedPeer() async throws {
        let (store, service) = makeService(peer: SimulatedPeer(userIDs: [grace], delay: .zero, replies: ["pong"]))
        var live = try await makeEvents(store).liveMessages(in: direct).makeAsyncIterator()
        _ = try await service.send(id: .random(), text: "ping", to: direct)
        #expect(await live.next()?.text == "ping")
        let reply = await live.next()
        #expect(reply?.text == "pong" && reply?.senderID == grace)
    }
}

/// The user a test's service acts for, switched between steps.
final class ActingUser: Sendable {
    let user = Mutex(UserID("u-ada"))
}
