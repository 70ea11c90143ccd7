import Chat
import Kernel
import Observation
import TestSupport
import Testing

/// The throttle of typing notices, the hub's lapse of a quiet typist, and a chat screen's
/// typing: what it tells the others as its line changes, and who it shows typing.
@MainActor
@Suite("Typing", .timeLimit(.minutes(1)))
struct TypingTests {
    let conversation = ConversationID("c1")
    let ada = UserID("u-ada"), grace = UserID("u-grace")

    @Test("a start at most once per gap, whatever comes between; a stop only after a start")
    func throttle() {
        var throttle = TypingNotice.Throttle<ConversationID>(minimumGap: .seconds(2))
        let start = ContinuousClock.now
        // (typing, when in seconds, let through, why)
        let steps: [(Bool, Double, Bool, String)] = [
            (false, 0, false, "a stop before any start"), (true, 0, true, "the first start"), (true, 1, false, "a start within the gap"),
            (false, 1.2, true, "a stop after a start"), (false, 1.3, false, "a second stop"),
            (true, 1.5, false, "a start after a stop, within the gap: starts and stops in turn would pass every other one"),
            (true, 2, true, "a start a gap after the last"),
        ]
        for (typing, seconds, expected, why) in steps {
            let admitted = throttle.admit(typing: typing, for: conversation, at: start + .seconds(seconds))
            #expect(admitted == expected, "\(why)")
        }
        let elsewhere = throttle.admit(typing: true, for: ConversationID("c2"), at: start + .seconds(2.1))
        #expect(elsewhere, "another conversation has a gap of its own")
    }

    @Test("the hub tells the other members once when someone starts, and when they go quiet for the expiry; not the typist, not a non-member")
    func hubLapses() async throws {
        let hub = TypingHub(
            channel: LocalTypingChannel(), membership: FixedMembership(members: [conversation: [ada, grace]]),
            expiry: .milliseconds(300))
        var graceHears = await hub.subscribe(member: grace).makeAsyncIterator()
        var adaHears = await hub.subscribe(member: ada).makeAsyncIterator()
        try await hub.publish(TypingNotice(conversationID: conversation, userID: ada, typing: true))
        #expect(await graceHears.next() == TypingNotice(conversationID: conversation, userID: ada, typing: true))
        let started = ContinuousClock.now
        #expect(await graceHears.next() == TypingNotice(conversationID: conversation, userID: ada, typing: false))
        #expect(ContinuousClock.now - started >= .milliseconds(200), "stopped before the expiry")

        // Someone outside the conversation typing in it reaches no one: Ada's first notice is Grace's.
        try await hub.publish(TypingNotice(conversationID: conversation, userID: UserID("u-eve"), typing: true))
        try await hub.publish(TypingNotice(conversationID: conversation, userID: grace, typing: true))
        #expect(await adaHears.next() == TypingNotice(conversationID: conversation, userID: grace, typing: true))
    }

    @Test(
        "a chat screen says its person types while the line holds text (once per refresh), stops when it empties (as a sent line does); commands are not typing"
    )
    func screenTellsOthers() async throws {
        let service = ScriptedChatService()
        var sent = service.typingSent.subscribe().makeAsyncIterator()
        let model = TypingViewModel(service: service, conversationID: conversation)
        // One key after another, as a person types: no time passes between them.
        for line in ["h", "he", "", "/edit #1", ""] { model.lineChanged(line) }
        #expect(await sent.next() == true)
        #expect(await sent.next() == false, "the second key went nowhere (the refresh is \(ChatRules.typingRefresh)), nor the command")
        // The next start may go once a refresh has passed since the first.
        try await Task.sleep(for: ChatRules.typingRefresh)
        model.lineChanged("")
        model.lineChanged("x")
        model.lineChanged("")
        #expect(await sent.next() == true, "a stop with no start went nowhere")
        #expect(await sent.next() == false, "an empty line stops it")
    }

    @Test("a chat screen shows who else types in its conversation, in the order they started, and nobody once the notices end")
    func screenShowsTypists() async throws {
        let service = ScriptedChatService()
        let model = TypingViewModel(service: service, conversationID: conversation)
        await model.start()
        let listening = Task { await model.listen() }
        var shown = Observations { model.typists }.makeAsyncIterator()
        #expect(await shown.next() == [])
        service.typing.send(TypingNotice(conversationID: ConversationID("elsewhere"), userID: ada, typing: true))
        service.typing.send(TypingNotice(conversationID: conversation, userID: grace, typing: true))
        #expect(await shown.next() == [grace], "a notice of another conversation is not shown")
        service.typing.send(TypingNotice(conversationID: conversation, userID: ada, typing: true))
        #expect(await shown.next() == [grace, ada])
        service.typing.send(TypingNotice(conversationID: conversation, userID: grace, typing: false))
        #expect(await shown.next() == [ada])
        service.typing.finish()
        #expect(await shown.next() == [])
        listening.cancel()
    }

    @Test("who types: a start adds once, at the end; a stop removes; another conversation's notice changes nothing; the end clears")
    func typistsAfterNotices() {
        let (here, there) = (ConversationID("c1"), ConversationID("c2"))
        let (ada, bob) = (UserID("ada"), UserID("bob"))
        let notice = { (who: UserID, typing: Bool, in: ConversationID) in TypingNotice(conversationID: `in`, userID: who, typing: typing) }
        #expect(TypingNotice.typists([ada], after: notice(bob, true, here), in: here) == [ada, bob])
        #expect(TypingNotice.typists([ada, bob], after: notice(ada, true, here), in: here) == [ada, bob])
        #expect(TypingNotice.typists([ada, bob], after: notice(ada, false, here), in: here) == [bob])
        #expect(TypingNotice.typists([ada], after: notice(bob, true, there), in: here) == [ada])
        #expect(TypingNotice.typists([ada, bob], after: nil, in: here).isEmpty)
    }
}
