import Chat
import ChatLive
import Foundation
import Kernel
import Synchronization
import Testing

/// The process's one reader of new events in the store, over a source and a membership whose
/// answers the test decides.
@Suite("Store event feed", .timeLimit(.minutes(1)))
struct StoreEventFeedTests {
    /// Messages at positions from 1 on in one conversation, read past any position; ticks when told.
    final class Source: EventSource {
        let conversation = ConversationID.random()
        let sender = UserID.random()
        private let stored = Mutex<[UserEvent]>([])
        private let tick = AsyncStream<Void>.makeStream()

        func changes() -> AsyncStream<Void> { tick.stream }

        func newest() async throws -> Int64 { stored.withLock { Int64($0.count) } }

        func events(after seq: Int64) async throws -> (events: [UserEvent], audiences: [Int64: [UserID]], last: Int64) {
            let events = stored.withLock { $0 }
            return (Array(events.dropFirst(Int(seq))), [:], Int64(events.count))
        }

        /// Stores a message with the next position (without a tick), in the source's conversation or `elsewhere`.
        func store(_ text: String, elsewhere: ConversationID? = nil) {
            stored.withLock { stored in
                let cursor = EventCursor(epoch: "test", position: Int64(stored.count + 1))
                stored.append(
                    .message(
                        Message(
                            id: .random(), conversationID: elsewhere ?? conversation, senderID: sender, text: text, sentAt: Date(),
                            cursor: cursor)))
            }
        }

        /// A commit's tick.
        func commit() { tick.continuation.yield() }
    }

    /// Members who are `members` (of `known` only, when given: other conversations do not
    /// exist), except that the first `failures` look-ups fail as a crashed database's do.
    final class FlakyMembership: ConversationMembership {
        let members: [UserID]
        let known: ConversationID?
        private let failures: Mutex<Int>

        init(members: [UserID], failures: Int, known: ConversationID? = nil) {
            self.members = members
            self.known = known
            self.failures = Mutex(failures)
        }

        nonisolated(nonsending) func members(of conversationID: ConversationID) async throws -> [UserID]? {
            let fail = failures.withLock { left in
                defer { left = max(0, left - 1) }
                return left > 0
            }
            if fail { throw AppError(.unavailable, "the store cannot be reached") }
            return known.map { $0 == conversationID } ?? true ? members : nil
        }

        func blocks(involving user: UserID) async throws -> (blocked: Set<UserID>, blockers: Set<UserID>) { ([], []) }
    }

    @Test("a message whose members cannot be looked up is delivered at the next tick, not passed over; the ones after it wait for it")
    func failedLookUpIsReadAgain() async throws {
        let source = Source()
        let reader = UserID.random()
        let reading = try await Reading(source, FlakyMembership(members: [source.sender, reader], failures: 1), as: reader)
        defer { reading.stop() }

        source.store("first")
        source.store("second")
        source.commit()  // the look-up of "first" fails: nothing is handed out
        source.commit()  // read again: both
        source.store("third")
        source.commit()
        #expect(await reading.texts(upTo: "third") == ["first", "second", "third"])
    }

    @Test("a message of a conversation that does not exist goes to no one and stops nothing: the ones after it are delivered")
    func unknownConversationIsPassed() async throws {
        let source = Source()
        let reader = UserID.random()
        let reading = try await Reading(
            source, FlakyMembership(members: [source.sender, reader], failures: 0, known: source.conversation), as: reader)
        defer { reading.stop() }

        source.store("nowhere", elsewhere: .random())
        source.store("here")
        source.commit()
        #expect(await reading.texts(upTo: "here") == ["here"])
    }

    /// A feed over `source` and a membership, and one live reader of it, whose messages' texts arrive in order.
    struct Reading {
        /// Kept: the feed's reader stops once the feed is gone.
        private let feed: StoreEventFeed
        private let subscription: EventSubscription
        private let delivered: AsyncStream<String>

        init(_ source: Source, _ membership: any ConversationMembership, as reader: UserID) async throws {
            let feed = StoreEventFeed(source: source, membership: MembershipCache(membership))
            self.feed = feed
            let (delivered, arrival) = AsyncStream<String>.makeStream()
            self.delivered = delivered
            subscription = try await feed.subscribe(conversation: nil, member: reader) { event in
                if let text = event.message?.text { arrival.yield(text) }
                return true
            }
        }

        /// The texts handed out, up to and with `last`.
        func texts(upTo last: String) async -> [String] {
            var texts: [String] = []
            for await text in delivered {
                texts.append(text)
                if text == last { break }
            }
            return texts
        }

        func stop() { subscription.cancel() }
    }
}
