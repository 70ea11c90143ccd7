import Chat
import Kernel
import Observation
import TestSupport
import Testing

@MainActor
@Suite("Chat view models", .timeLimit(.minutes(1)))
struct ChatViewModelTests {
    let conversation = ConversationID("c1")

    @Test("open loads the newest page; loadOlder prepends the page before it")
    func openAndPage() async {
        let service = ScriptedChatService(history: makeHistory(70, in: conversation, from: UserID("u-grace")))
        let model = ChatViewModel(service: service, events: service, conversationID: conversation)
        await model.open(limit: 50)
        #expect(model.timeline.value?.entries.count == 50 && model.timeline.value?.hasOlder == true)
        await model.loadOlder(limit: 50)
        #expect(model.olderPage == .loaded(20))
        #expect(model.timeline.value?.entries.first?.id == MessageID("m0") && model.timeline.value?.hasOlder == false)
        await model.loadOlder()
        #expect(model.olderPage == .loaded(0))
    }

    @Test(
        "paging back holds at most Timeline.maxStored messages: the newest are let go of, one arriving meanwhile waits, open() comes back to them"
    )
    func boundedWindow() async throws {
        let history = makeHistory(1_101, in: conversation, from: UserID("u-grace"))
        let service = ScriptedChatService(history: Array(history.prefix(1_100)))
        let model = ChatViewModel(service: service, events: service, conversationID: conversation)
        await model.start(limit: 50)
        let listening = Task { await model.listen() }
        await model.loadOlder(limit: 500)
        await model.loadOlder(limit: 500)
        let window = try #require(model.timeline.value)
        #expect(Timeline.maxStored == 1_000, "docs/usage.md states the window")
        #expect(window.entries.count == Timeline.maxStored && window.hasNewer && window.hasOlder)
        #expect(window.entries.first?.id == MessageID("m50") && window.entries.last?.id == MessageID("m1049"))

        // Events come in order: once the reaction shows, the message sent before it was let by.
        let liked = history[60].reacting(["👍": [UserID("u-ada")]])
        for await reactions in Observations({ model.timeline.value?.entries.first { $0.id == liked.id }?.message?.reactions ?? [:] }) {
            if !reactions.isEmpty { break }
            service.live.send(.message(history[1_100]))
            service.live.send(.reacted(MessageReactions(of: liked), cursor: EventCursor(epoch: "e", position: 1)))
        }
        #expect(model.timeline.value?.entries.contains { $0.id == history[1_100].id } == false)
        await model.open()
        listening.cancel()
        #expect(model.timeline.value?.hasNewer == false && model.timeline.value?.entries.last?.id == MessageID("m1099"))
    }

    @Test("a send shows as pending at once, then as sent")
    func pendingThenSent() async throws {
        let gate = CallGate(.hang)
        let service = ScriptedChatService(sendGate: gate)
        let model = ChatViewModel(service: service, events: service, conversationID: conversation)
        let task = Task { await model.send("hello") }
        await gate.waitForCall()
        #expect(model.timeline.value?.entries.map(\.delivery) == [.pending])
        task.cancel()
        await task.value
        #expect(model.timeline.value?.entries.map(\.delivery) == [.failed(reason: nil)])
        #expect(model.lastSendError == nil)
    }

    @Test("a failed send can be retried with the same id and is stored once")
    func retry() async throws {
        let service = ScriptedChatService(failingSends: 1)
        let model = ChatViewModel(service: service, events: service, conversationID: conversation)
        await model.send("hello")
        let failed = try #require(model.lastFailed)
        #expect(model.lastSendError == AppError(.unavailable, "network down"))
        await model.retry(failed.id)
        #expect(model.timeline.value?.entries.map(\.id) == [failed.id])
        #expect(model.timeline.value?.entries.allSatisfy { $0.message?.id == failed.id } == true)
        #expect(model.lastSendError == nil && service.storedCount == 1)
    }

    @Test("a failed send of files is retried with its files, and may have no caption")
    func retryFiles() async throws {
        let service = ScriptedChatService(failingSends: 1)
        let model = ChatViewModel(service: service, events: service, conversationID: conversation)
        let files = [FileID("f1"), FileID("f2")]
        await model.send("", attachments: files)
        #expect(model.inputError == nil)
        let failed = try #require(model.lastFailed)
        await model.retry(failed.id)
        #expect(service.fileAttempts == [files, files], "the retry carries the same files")
        #expect(model.lastSendError == nil && service.storedCount == 1)
        await model.send("")
        #expect(model.inputError != nil, "no caption and no file is no message")
    }

    @Test("invalid text is refused before sending")
    func invalidText() async {
        let service = ScriptedChatService()
        let model = ChatViewModel(service: service, events: service, conversationID: conversation)
        await model.send("   ")
        #expect(model.inputError?.kind == .invalidInput)
        #expect(service.storedCount == 0 && model.timeline == .idle)
    }

    @Test("after start(), listen() adds live messages")
    func live() async {
        let service = ScriptedChatService()
        let model = ChatViewModel(service: service, events: service, conversationID: conversation)
        await model.start()
        let listening = Task { await model.listen() }
        let incoming = makeHistory(1, in: conversation, from: UserID("u-grace"))[0]
        for await count in Observations({ model.timeline.value?.entries.count ?? 0 }) {
            if count == 1 { break }
            service.live.send(.message(incoming))
        }
        listening.cancel()
        #expect(model.timeline.value?.entries == [Timeline.Entry(incoming)])
    }

    @Test("a live reaction changes the reactions of the message shown and keeps its text; one of a message not shown changes nothing")
    func liveReactions() async throws {
        let history = makeHistory(2, in: conversation, from: UserID("u-grace"))
        let service = ScriptedChatService(history: history)
        let model = ChatViewModel(service: service, events: service, conversationID: conversation)
        await model.start()
        let listening = Task { await model.listen() }
        let cursor = EventCursor(epoch: "e", position: 99)
        let liked = history[1].reacting(["👍": [UserID("u-ada")]])
        let elsewhere = MessageReactions(
            conversationID: conversation, messageID: MessageID("m-not-shown"), reactions: ["🎉": [UserID("u-ada")]],
            reactionCounts: ["🎉": 1])
        for await reactions in Observations({ model.timeline.value?.entries.last?.message?.reactions ?? [:] }) {
            if !reactions.isEmpty { break }
            service.live.send(.reacted(elsewhere, cursor: cursor))
            service.live.send(.reacted(MessageReactions(of: liked), cursor: cursor))
        }
        listening.cancel()
        #expect(model.timeline.value?.entries.compactMap(\.message) == [history[0], liked])
    }

    @Test("with an outbox, a send the server cannot take shows as queued, then as sent when the outbox gets it through")
    func queuedThenSent() async throws {
        let service = ScriptedChatService(failingSends: 3)
        let model = ChatViewModel(
            service: service, events: service, conversationID: conversation,
            outbox: Outbox(store: OutboxUnitTests.MemoryStore(), owner: UserID("u-ada")))
        await model.start()
        let listening = Task { await model.listen() }
        defer { listening.cancel() }
        await model.send("hello")
        #expect(model.timeline.value?.entries.map(\.delivery) == [.queued] && model.lastSendError == nil)
        for await sent in Observations({ model.timeline.value?.entries.first?.message }) where sent != nil { break }
        #expect(model.timeline.value?.entries.map(\.text) == ["hello"] && service.storedCount == 1)
    }

    @Test("a kept message shows as queued when the conversation opens, and as failed with the server's reason when refused")
    func queuedThenRefused() async throws {
        let outbox = Outbox(store: OutboxUnitTests.MemoryStore(), owner: UserID("u-ada"))
        let kept = try await outbox.keep(id: .random(), text: "late", in: conversation)
        let service = ScriptedChatService(history: makeHistory(2, in: conversation, from: UserID("u-grace")))
        let model = ChatViewModel(service: service, events: service, conversationID: conversation, outbox: outbox)
        await model.start()
        #expect(
            model.timeline.value?.entries.map { $0.message != nil } == [true, true, false] && model.timeline.value?.entries.last?.delivery == .queued)
        let listening = Task { await model.listen() }
        defer { listening.cancel() }
        await outbox.flush(through: ScriptedChatService(failingSends: 1, failure: AppError(.forbidden, "you left c1")))
        for await last in Observations({ model.timeline.value?.entries.last?.delivery }) where last != .queued { break }
        #expect(model.timeline.value?.entries.last?.delivery == .failed(reason: "you left c1") && model.timeline.value?.entries.last?.id == kept.id)
    }

    @Test("the live feed stops after its limit")
    func liveFeedLimit() async {
        let service = ScriptedChatService()
        let model = LiveFeedViewModel(service: service, conversationID: nil)
        let running = Task { await model.run(limit: 2) }
        for await state in Observations({ model.connection }) where state == .loaded(true) { break }
        for message in makeHistory(3, in: conversation, from: UserID("u-grace")) { service.live.send(.message(message)) }
        await running.value
        #expect(model.received.compactMap(\.message?.id) == [MessageID("m0"), MessageID("m1")])
        #expect(model.connection == .idle)
    }
}
