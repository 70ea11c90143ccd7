import AppContainer
import Chat
import ConversationList
import Kernel
import Profile
import Testing

/// The behaviour every backend must share. Each scenario runs against every backend.
@MainActor
@Suite("Backend contract", .timeLimit(.minutes(1)))
struct BackendContractTests {
    nonisolated static let backends: [Backend] = [.memory, .sqlite]

    @Test("sign-up, sign-in, sign-out and duplicate emails", arguments: backends)
    func accounts(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend)
        let ada = try await harness.signUp("Ada")
        #expect(try await harness.auth.currentAccount()?.id == ada.id)
        await #expect(throws: AppError.self) { try await harness.auth.signUp(email: ada.email.uppercased(), displayName: "X", password: "password-x") }
        try await harness.auth.signOut()
        #expect(try await harness.auth.currentAccount() == nil)
        await #expect(throws: AppError(.invalidCredentials, "wrong email or password")) {
            try await harness.auth.signIn(email: ada.email, password: "password-wrong")
        }
        #expect(try await harness.auth.signIn(email: ada.email, password: "password-Ada").id == ada.id)
        #expect(try await harness.profiles.myProfile().displayName == "Ada")
    }

    @Test("profiles: edit, see others' edits, search by prefix", arguments: backends)
    func profiles(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend)
        let ada = try await harness.signUp("Ada")
        let grace = try await harness.signUp("Grace")
        try await harness.act(as: ada) {
            _ = try await harness.profiles.updateMyProfile(displayName: "Ada L.", status: "Computing 🧮")
        }
        try await harness.act(as: grace) {
            let seen = try await harness.profiles.profile(matching: ada.email)
            #expect(seen.displayName == "Ada L." && seen.status == "Computing 🧮")
            #expect(try await harness.profiles.search("ada l", limit: 10).map(\.id).contains(ada.id))
            #expect(try await harness.profiles.search(String(grace.email.prefix(9)), limit: 10).map(\.id) == [grace.id])
        }
    }

    @Test("a second profile for the same user is a conflict, not a storage error", arguments: backends)
    func profileConflict(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend)
        let ada = try await harness.signUp("Ada")
        let registry = try #require(harness.profiles as? any ProfileRegistry)
        let error = await #expect(throws: AppError.self) {
            try await registry.createProfile(Profile(id: ada.id, email: ada.email, displayName: "Ada again"))
        }
        #expect(error?.kind == .conflict)
    }

    @Test("conversations: one-to-one is found again, groups include the creator, titles per reader", arguments: backends)
    func conversations(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend)
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), alan = try await harness.signUp("Alan")
        let direct = try await harness.act(as: ada) { try await harness.conversations.startDirect(with: grace.id) }
        #expect(direct.title == "Grace" && !direct.isGroup)
        let group = try await harness.act(as: alan) {
            try await harness.conversations.createGroup(title: "Engines", memberIDs: [ada.id])
        }
        try await harness.act(as: grace) {
            #expect(try await harness.conversations.startDirect(with: ada.id).id == direct.id)
            let rows = try await harness.conversations.conversations()
            #expect(rows.map(\.id) == [direct.id] && rows[0].title == "Ada")
        }
        try await harness.act(as: ada) {
            let ids = try await harness.conversations.conversations().map(\.id)
            #expect(Set(ids) == [direct.id, group.id])
        }
    }

    @Test("send, live receive, list order and unread counts", arguments: backends)
    func liveMessagesAndUnread(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend)
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let direct = try await harness.act(as: ada) { try await harness.conversations.startDirect(with: grace.id) }
        let group = try await harness.act(as: ada) { try await harness.conversations.createGroup(title: "Later", memberIDs: [grace.id]) }
        var live = try await harness.act(as: grace) { try await harness.chat.liveMessages(in: direct.id).makeAsyncIterator() }
        var listChanges = try await harness.act(as: grace) { try await harness.conversations.changes().makeAsyncIterator() }
        try await harness.act(as: ada) {
            for text in ["one", "two", "three"] { _ = try await harness.chat.send(id: .random(), text: text, to: direct.id) }
        }
        let first = await live.next(isolation: #isolation), second = await live.next(isolation: #isolation)
        #expect([first?.text, second?.text] == ["one", "two"])
        let listChanged = await listChanges.next(isolation: #isolation) != nil
        #expect(listChanged)
        try await harness.act(as: grace) {
            let rows = try await harness.conversations.conversations()
            #expect(rows.map(\.id) == [direct.id, group.id])
            #expect(rows[0].unreadCount == 3 && rows[0].lastMessage?.text == "three" && rows[0].lastMessage?.senderID == ada.id)
            try await harness.chat.markRead(direct.id)
            #expect(try await harness.conversations.conversations()[0].unreadCount == 0)
        }
        let adaRows = try await harness.act(as: ada) { try await harness.conversations.conversations() }
        #expect(adaRows[0].unreadCount == 0)
    }

    @Test("history pages back by cursor, newest page first", arguments: backends)
    func paging(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend)
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let direct = try await harness.act(as: ada) { try await harness.conversations.startDirect(with: grace.id) }
        try await harness.act(as: ada) {
            for index in 0..<120 { _ = try await harness.chat.send(id: .random(), text: "m\(index)", to: direct.id) }
        }
        try await harness.act(as: grace) {
            var page = try await harness.chat.latestMessages(in: direct.id, limit: 50)
            var seen = page.messages.map(\.text)
            while page.hasOlder {
                page = try await harness.chat.messages(in: direct.id, before: page.messages[0].id, limit: 50)
                seen = page.messages.map(\.text) + seen
            }
            #expect(seen == (0..<120).map { "m\($0)" })
        }
    }

    @Test("sending an id twice stores one message; text round-trips exactly", arguments: backends)
    func idempotentSendAndUnicode(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend)
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let direct = try await harness.act(as: ada) { try await harness.conversations.startDirect(with: grace.id) }
        let text = "héllo 👩🏽‍💻 שלום e\u{301} 'quoted' \"double\"; DROP TABLE messages; --\nsecond line\t%_"
        let id = MessageID.random()
        try await harness.act(as: ada) {
            let first = try await harness.chat.send(id: id, text: text, to: direct.id)
            let second = try await harness.chat.send(id: id, text: text, to: direct.id)
            #expect(first == second)
        }
        try await harness.act(as: grace) {
            let messages = try await harness.chat.latestMessages(in: direct.id, limit: 50).messages
            #expect(messages.map(\.id) == [id] && messages[0].text == text)
        }
    }

    @Test("only members read or post", arguments: backends)
    func membership(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend)
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), eve = try await harness.signUp("Eve")
        let direct = try await harness.act(as: ada) { try await harness.conversations.startDirect(with: grace.id) }
        try await harness.act(as: eve) {
            await #expect(throws: AppError.self) { try await harness.chat.send(id: .random(), text: "hi", to: direct.id) }
            await #expect(throws: AppError.self) { try await harness.chat.latestMessages(in: direct.id, limit: 5) }
            await #expect(throws: AppError.self) { try await harness.chat.liveMessages(in: direct.id) }
            let rows = try await harness.conversations.conversations()
            #expect(rows.isEmpty)
        }
    }
}
