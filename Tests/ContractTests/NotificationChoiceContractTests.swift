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
        #expect(chosen.notifications == NotificationChoice(level: .mentions, until: nil) && chosen.isQuiet)
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
        #expect(try await phone.conversations.conversations().first { $0.id == room }?.notifications == NotificationChoice(level: .none, until: end))
        harness.clock.advance(by: 3_601)
        #expect(try await phone.conversations.conversations().first { $0.id == room }?.notifications == nil, "over at its end")
    }
}
