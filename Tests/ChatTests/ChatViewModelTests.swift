import Chat
import Kernel
import Observation
import TestSupport
import Testing

@MainActor
@Suite("Chat view models")
struct ChatViewModelTests {
    let conversation = ConversationID("c1")

    @Test("open loads the newest page; loadOlder prepends the page before it")
    func openAndPage() async {
        let service = ScriptedChatService(history: makeHistory(70, in: conversation, from: UserID("u-grace")))
        let model = ChatViewModel(service: service, conversationID: conversation)
        await model.open(limit: 50)
        #expect(model.timeline.value?.messages.count == 50 && model.timeline.value?.hasOlder == true)
        await model.loadOlder(limit: 50)
        #expect(model.olderPage == .loaded(20))
        #expect(model.timeline.value?.messages.first?.id == MessageID("m0") && model.timeline.value?.hasOlder == false)
        await model.loadOlder()
        #expect(model.olderPage == .loaded(0))
    }

    @Test("a send shows as pending at once, then as sent")
    func pendingThenSent() async throws {
        let gate = CallGate(.hang)
        let model = ChatViewModel(service: ScriptedChatService(sendGate: gate), conversationID: conversation)
        let task = Task { await model.send("hello") }
        await gate.waitForCall()
        #expect(model.timeline.value?.messages.map(\.state) == [.pending])
        task.cancel()
        await task.value
        #expect(model.timeline.value?.messages.map(\.state) == [.failed])
        #expect(model.lastSendError == nil)
    }

    @Test("a failed send can be retried with the same id and is stored once")
    func retry() async throws {
        let service = ScriptedChatService(failingSends: 1)
        let model = ChatViewModel(service: service, conversationID: conversation)
        await model.send("hello")
        let failed = try #require(model.lastFailed)
        #expect(model.lastSendError == AppError(.unavailable, "network down"))
        await model.retry(failed.id)
        #expect(model.timeline.value?.messages.map(\.id) == [failed.id])
        #expect(model.timeline.value?.messages.map(\.state) == [.sent])
        #expect(model.lastSendError == nil && service.storedCount == 1)
    }

    @Test("invalid text is refused before sending")
    func invalidText() async {
        let service = ScriptedChatService()
        let model = ChatViewModel(service: service, conversationID: conversation)
        await model.send("   ")
        #expect(model.inputError?.kind == .invalidInput)
        #expect(service.storedCount == 0 && model.timeline == .idle)
    }

    @Test("after start(), listen() adds live messages")
    func live() async {
        let service = ScriptedChatService()
        let model = ChatViewModel(service: service, conversationID: conversation)
        await model.start()
        let listening = Task { await model.listen() }
        let incoming = makeHistory(1, in: conversation, from: UserID("u-grace"))[0]
        for await count in Observations({ model.timeline.value?.messages.count ?? 0 }) {
            if count == 1 { break }
            service.live.send(incoming)
        }
        listening.cancel()
        #expect(model.timeline.value?.messages == [incoming])
    }

    @Test("the live feed stops after its limit")
    func liveFeedLimit() async {
        let service = ScriptedChatService()
        let model = LiveFeedViewModel(service: service, conversationID: nil)
        let running = Task { await model.run(limit: 2) }
        for await state in Observations({ model.connection }) where state == .loaded(true) { break }
        for message in makeHistory(3, in: conversation, from: UserID("u-grace")) { service.live.send(message) }
        await running.value
        #expect(model.received.compactMap(\.message?.id) == [MessageID("m0"), MessageID("m1")])
        #expect(model.connection == .idle)
    }
}
