import Chat
import ConversationList
import Foundation
import Kernel
import Search
import ServiceGraph
import TestSupport
import Testing

/// Mentions on every backend: who a message mentions is decided when it is stored, travels with
/// it, is counted unread in the list and listed by Search, resumably.
@Suite("Mention contract", .serialized, .timeLimit(.minutes(3)))
struct MentionContractTests {
    @Test(
        "@Name mentions a member (not the sender, an outsider or someone blocked); unread in the list until read; listed newest last and resumable; a deleted one gone",
        arguments: BackendContractTests.backends)
    func mentions(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada Lovelace"), grace = try await harness.signUp("Grace Hopper")
        let mallory = try await harness.signUp("Mallory"), eve = try await harness.signUp("Eve")
        let (asAda, asGrace, asMallory) = (harness.services(for: ada), harness.services(for: grace), harness.services(for: mallory))
        let room = try await harness.group("Engine room", by: ada, with: [grace, mallory]).id
        _ = try await harness.direct(ada, eve)
        try await asGrace.conversations.block(mallory.id)

        let first = try await asAda.chat.send(id: .random(), text: "@grace hopper and @Eve and @Ada Lovelace, write to ada@example.com", to: room)
        #expect(first.mentions == [grace.id], "not Eve, who is not a member, nor Ada herself")
        let spam = try await asMallory.chat.send(id: .random(), text: "@Grace Hopper look at me", to: room)
        #expect(spam.mentions.isEmpty, "Grace blocked Mallory: his mentions never reach her")
        let second = try await asAda.chat.send(id: .random(), text: "@Gràce, the boiler", to: room)
        #expect(second.mentions == [grace.id], "a first name no other member's starts with, whatever its accents")
        #expect(
            try await asGrace.chat.latestMessages(in: room, limit: 10).messages.map(\.mentions) == [[grace.id], [], [grace.id]],
            "history carries who each message mentions")

        func unreadMentions() async throws -> Int {
            try #require(try await asGrace.conversations.conversations().first { $0.id == room }).unreadMentions
        }
        #expect(try await unreadMentions() == 2)
        let newest = try await asGrace.search.mentions(since: nil, limit: 20)
        #expect(newest.mentions.map(\.id) == [first.id, second.id], "newest last")
        #expect(newest.next == newest.mentions.last?.cursor && !newest.hasMore)
        #expect(try await asAda.search.mentions(since: nil, limit: 20).mentions.isEmpty, "nobody mentioned Ada")

        _ = try await asAda.chat.delete(first.id, in: room)
        #expect(try await unreadMentions() == 1, "a deleted message's mention no longer counts")
        #expect(try await asGrace.search.mentions(since: nil, limit: 20).mentions.map(\.id) == [second.id])

        let third = try await asAda.chat.send(id: .random(), text: "and @grace again", to: room)
        let resumed = try await asGrace.search.mentions(since: newest.next, limit: 20)
        #expect(resumed.mentions.map(\.id) == [third.id] && resumed.next == resumed.mentions.last?.cursor, "after the cursor: only what came since")
        #expect(try await asGrace.search.mentions(since: resumed.next, limit: 20).mentions.isEmpty)
        let fromStart = try await asGrace.search.mentions(since: 0, limit: 1)
        #expect(fromStart.mentions.map(\.id) == [second.id] && fromStart.hasMore, "a page from the start, oldest first, says more wait")

        // A retried send answers the message as stored, with whom it mentioned then.
        let retried = MessageID.random()
        #expect(try await asAda.chat.send(id: retried, text: "@Mallory the rota", to: room).mentions == [mallory.id])
        try await asAda.conversations.block(mallory.id)
        #expect(
            try await asAda.chat.send(id: retried, text: "@Mallory the rota", to: room).mentions == [mallory.id],
            "the resend, after Ada blocked Mallory, says whom the stored message mentions")
        try await asAda.conversations.unblock(mallory.id)

        try await asGrace.chat.markRead(room)
        #expect(try await unreadMentions() == 0, "read: no unread mention left")
        #expect(try await asGrace.search.mentions(since: nil, limit: 20).mentions.count == 2, "read mentions are still listed")
    }
}
