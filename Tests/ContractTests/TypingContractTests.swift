import Chat
import Foundation
import Kernel
import ServiceGraph
import TestSupport
import Testing

/// Typing notices on every backend: they reach the conversation's other members once per
/// start and stop, never the typist, an outsider or someone apart from the typist, are never
/// stored, and lapse when the typist goes quiet (as when their process is killed).
@Suite("Typing contract", .serialized, .timeLimit(.minutes(3)))
struct TypingContractTests {
    @Test(
        "a typist's start and stop reach the other member once each, however often they are said; the typist, an outsider and the store get nothing",
        arguments: BackendContractTests.backends)
    func startAndStop(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), eve = try await harness.signUp("Eve")
        let (asAda, asGrace, asEve) = (harness.services(for: ada), harness.services(for: grace), harness.services(for: eve))
        let direct = try await harness.direct(ada, grace).id
        let newest = try await asGrace.events.newestCursor()
        var graceHears = try await asGrace.typing.typingNotices().makeAsyncIterator()
        var adaHears = try await asAda.typing.typingNotices().makeAsyncIterator()
        var eveHears = try await asEve.typing.typingNotices().makeAsyncIterator()

        for _ in 0..<20 { try await asAda.typing.setTyping(true, in: direct) }
        #expect(await graceHears.next() == TypingNotice(conversationID: direct, userID: ada.id, typing: true))
        try await asAda.typing.setTyping(false, in: direct)
        try await asAda.typing.setTyping(false, in: direct)
        #expect(
            await graceHears.next() == TypingNotice(conversationID: direct, userID: ada.id, typing: false),
            "the 19 repeats of the start within \(ChatRules.typingGap) went nowhere")

        // Grace's typing is the first thing Ada hears: her own came not back to her.
        try await asGrace.typing.setTyping(true, in: direct)
        #expect(await adaHears.next() == TypingNotice(conversationID: direct, userID: grace.id, typing: true))
        // Eve's first notice is of a conversation she is in: none of Ada and Grace's reached her.
        let withEve = try await harness.direct(ada, eve).id
        try await asAda.typing.setTyping(true, in: withEve)
        #expect(await eveHears.next() == TypingNotice(conversationID: withEve, userID: ada.id, typing: true))
        await #expect(throws: AppError.self, "an outsider may not say they type in a conversation") {
            try await asEve.typing.setTyping(true, in: direct)
        }

        // Nothing of it was stored: no event after the cursor before it, no message.
        let cursor = try #require(newest)
        #expect(try await asGrace.events.events(after: cursor, limit: 100).allSatisfy { $0.type != TypingNotice.type && $0.message == nil })
        #expect(try await asGrace.chat.latestMessages(in: direct, limit: 10).messages.isEmpty)
    }

    @Test("a typist who goes quiet, as one whose process was killed, shows as stopped within 6 s", arguments: BackendContractTests.backends)
    func lapses(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let direct = try await harness.direct(ada, grace).id
        var graceHears = try await harness.services(for: grace).typing.typingNotices().makeAsyncIterator()
        try await harness.services(for: ada).typing.setTyping(true, in: direct)
        #expect(await graceHears.next()?.typing == true)
        let started = ContinuousClock.now
        #expect(await graceHears.next() == TypingNotice(conversationID: direct, userID: ada.id, typing: false))
        let quiet = ContinuousClock.now - started
        #expect(quiet >= ChatRules.typingExpiry - .seconds(1) && quiet <= .seconds(6), "stopped after \(quiet)")
    }

    @Test(
        "no typing passes between a blocked person and who blocked them, in a group they share; a newcomer hears who types already",
        arguments: BackendContractTests.backends)
    func blocksAndNewcomers(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), mallory = try await harness.signUp("Mallory")
        let (asAda, asGrace, asMallory) = (harness.services(for: ada), harness.services(for: grace), harness.services(for: mallory))
        let group = try await harness.group("Shared", by: grace, with: [ada, mallory]).id
        try await asAda.conversations.block(mallory.id)
        var adaHears = try await asAda.typing.typingNotices().makeAsyncIterator()
        var graceHears = try await asGrace.typing.typingNotices().makeAsyncIterator()
        var malloryHears = try await asMallory.typing.typingNotices().makeAsyncIterator()

        try await asMallory.typing.setTyping(true, in: group)
        #expect(await graceHears.next() == TypingNotice(conversationID: group, userID: mallory.id, typing: true))
        try await asAda.typing.setTyping(true, in: group)
        #expect(await graceHears.next() == TypingNotice(conversationID: group, userID: ada.id, typing: true))
        try await asGrace.typing.setTyping(true, in: group)
        #expect(await adaHears.next() == TypingNotice(conversationID: group, userID: grace.id, typing: true), "Ada heard Mallory")
        #expect(await malloryHears.next() == TypingNotice(conversationID: group, userID: grace.id, typing: true), "Mallory heard Ada")

        // Someone who starts listening now hears who is typing already (Grace's second device).
        let device = try await harness.accounts.signIn(email: grace.email, password: "password-Grace")
        var graceAgain = try await harness.graph.services(for: harness.graph.caller(token: device.token)).typing.typingNotices().makeAsyncIterator()
        let already = [await graceAgain.next(), await graceAgain.next()].compactMap { $0 }
        #expect(
            Set(already) == [
                TypingNotice(conversationID: group, userID: mallory.id, typing: true),
                TypingNotice(conversationID: group, userID: ada.id, typing: true),
            ])
    }
}
