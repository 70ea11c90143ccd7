import ConversationList
import Foundation
import Kernel
import ServiceGraph
import TestSupport
import Testing

/// What a member chose to be told of in a conversation, on every backend: kept for every device
/// of theirs, told to those devices as a change, quieting the hotlist, refused where it is not
/// theirs, and over at its end.
@Suite("Notification choice contract", .serialized, .timeLimit(.minutes(3)))
struct NotificationChoiceContractTests {
    @Test(
        "a mute is kept for every device and told to them; a stranger's is refused; a past or far end refused; over at its end",
        arguments: BackendContractTests.backends)
    func choices(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), eve = try await harness.signUp("Eve")
        let room = try await harness.group("Engine room", by: ada, with: [grace]).id
        let laptop = harness.services(for: ada)
        // Ada's second device: its own session.
        let session = try await harness.accounts.signIn(email: ada.email, password: "password-Ada")
        let phone = harness.graph.services(for: harness.graph.caller(token: session.token))
        let phoneHears = try await phone.events.liveEvents()
        var heard = phoneHears.makeAsyncIterator()

        try await laptop.conversations.chooseNotifications(.mentions, until: nil, in: room)
        let chosen = try #require(try await phone.conversations.conversations().first { $0.id == room })
        #expect(chosen.notifications?.level == .mentions && chosen.notifications?.until == nil && chosen.isQuiet)
        while let event = await heard.next() {
            if case .change(let change, _) = event, change.kind == .notificationsChosen {
                #expect(change.conversationID == room && change.userID == ada.id)
                break
            }
        }
        #expect(try await harness.services(for: grace).conversations.conversations().first { $0.id == room }?.notifications == nil)

        await #expect(throws: AppError.self) { try await harness.services(for: eve).conversations.chooseNotifications(.none, until: nil, in: room) }
        let now = harness.clock.now()
        for bad in [now.addingTimeInterval(-60), now.addingTimeInterval(NotificationChoice.longest + 86_400)] {
            await #expect(throws: AppError.self) { try await laptop.conversations.chooseNotifications(.none, until: bad, in: room) }
        }

        try await laptop.conversations.chooseNotifications(nil, until: nil, in: room)
        #expect(try await phone.conversations.conversations().first { $0.id == room }?.notifications == nil, "unmuted")

        // The server keeps its own time: the end is checked against the test's clock where it drives the store.
        guard ![.remote, .remoteOnPostgres].contains(backend) else { return }
        let end = now.addingTimeInterval(3_600.000_4)
        try await laptop.conversations.chooseNotifications(NotificationLevel.none, until: end, in: room)
        let muted = try await phone.conversations.conversations().first { $0.id == room }?.notifications
        #expect(muted?.level == NotificationLevel.none && muted?.until == NotificationChoice(level: .none, until: end).until)
        harness.clock.advance(by: 3_601)
        #expect(try await phone.conversations.conversations().first { $0.id == room }?.notifications == nil, "over at its end")
    }

    @Test(
        "a quiet conversation keeps its place in the list while its messages arrive, but for mentions; heard again, it moves up",
        arguments: BackendContractTests.backends)
    func quietKeepsItsPlace(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let noisy = try await harness.group("Noisy", by: grace, with: [ada]).id
        harness.clock.advance(by: 1)
        let calm = try await harness.group("Calm", by: grace, with: [ada]).id
        let asAda = harness.services(for: ada), asGrace = harness.services(for: grace)
        func order() async throws -> [ConversationID] { try await asAda.conversations.conversations().map(\.id) }
        #expect(try await order() == [calm, noisy])

        try await asAda.conversations.chooseNotifications(.mentions, until: nil, in: noisy)
        harness.clock.advance(by: 1)
        _ = try await asGrace.chat.send(id: .random(), text: "chatter", to: noisy)
        let rows = try await asAda.conversations.conversations()
        #expect(rows.map(\.id) == [calm, noisy], "the quiet one moved up")
        #expect(rows.last?.unreadCount == 1 && rows.last?.lastMessage?.text == "chatter", "it still counts, and shows what came")
        for level in [NotificationLevel.none, .mentions] {
            try await asAda.conversations.chooseNotifications(level, until: nil, in: noisy)
            #expect(try await order() == [calm, noisy], "chosen again while quiet (\(level)), it left its place")
        }
        harness.clock.advance(by: 1)
        _ = try await asGrace.chat.send(id: .random(), text: "@Ada a word for you", to: noisy)
        #expect(try await order() == [noisy, calm], "an unread mention moves it up")
        try await asAda.chat.markRead(noisy)
        #expect(try await order() == [calm, noisy], "read, it goes back to its place")

        try await asAda.conversations.chooseNotifications(nil, until: nil, in: noisy)
        #expect(try await order() == [noisy, calm], "heard again, its last message places it")
    }
}
