import Chat
import ConversationList
import Kernel
import Profile
import ServiceGraph
import Testing

/// The behaviour every backend must share. Each scenario runs against every backend, with
/// services built per user from their session token, as a server builds them per connection.
@Suite("Backend contract", .timeLimit(.minutes(3)))
struct BackendContractTests {
    static let backends: [Backend] = [.memory, .sqlite, .remote]
    /// The backends whose clock a test controls: a server keeps its own time, so the idle-time
    /// rule is shown on the SQL services the server runs (`.sqlite`), not through one.
    static let clockedBackends: [Backend] = [.memory, .sqlite]

    @Test("sign-up, sign-in, sign-out and duplicate emails", arguments: backends)
    func accounts(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada")
        #expect(try await harness.accounts.account(for: ada.token).id == ada.id)
        await #expect(throws: AppError.self) {
            try await harness.accounts.signUp(email: ada.email.uppercased(), displayName: "X", password: "password-x")
        }
        try await harness.accounts.revoke(token: ada.token)
        await #expect(throws: AppError.notSignedIn) { try await harness.accounts.account(for: ada.token) }
        await #expect(throws: AppError(.invalidCredentials, "wrong email or password")) {
            try await harness.accounts.signIn(email: ada.email, password: "password-wrong")
        }
        let again = try await harness.accounts.signIn(email: ada.email, password: "password-Ada")
        #expect(again.account.id == ada.id && again.token != ada.token)
        let services = harness.graph.services(for: harness.graph.caller(token: again.token))
        #expect(try await services.profiles.myProfile().displayName == "Ada")
    }

    @Test("an email in its composed and decomposed spellings is one address: one account, found by either", arguments: backends)
    func emailSpellings(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let composed = "jos\u{E9}@example.com", decomposed = "jose\u{301}@example.com"
        let jose = try await harness.accounts.signUp(email: composed, displayName: "José", password: "password-jose")
        await #expect(throws: AppError.self) { try await harness.accounts.signUp(email: decomposed, displayName: "Other", password: "password-x") }
        #expect(try await harness.accounts.signIn(email: decomposed.uppercased(), password: "password-jose").account.id == jose.account.id)
        let ada = try await harness.signUp("Ada")
        #expect(try await harness.services(for: ada).profiles.profile(matching: decomposed).id == jose.account.id)
    }

    @Test("a forged or revoked token reads and changes nothing", arguments: backends)
    func forgedAndRevokedTokens(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend, verificationCacheTime: .zero)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let direct = try await harness.services(for: ada).conversations.startDirect(with: grace.id)
        let forged = BackendHarness.User(id: ada.id, email: ada.email, token: String(ada.token.reversed()))
        try await harness.accounts.revoke(token: grace.token)
        for intruder in [forged, grace] {
            let services = harness.services(for: intruder)
            await #expect(throws: AppError.notSignedIn) { try await services.profiles.myProfile() }
            await #expect(throws: AppError.notSignedIn) { try await services.profiles.updateMyProfile(displayName: "Mallory", status: nil) }
            await #expect(throws: AppError.notSignedIn) { try await services.conversations.conversations() }
            await #expect(throws: AppError.notSignedIn) { try await services.conversations.createGroup(title: "X", memberIDs: [ada.id]) }
            await #expect(throws: AppError.notSignedIn) { try await services.chat.send(id: .random(), text: "hi", to: direct.id) }
            await #expect(throws: AppError.notSignedIn) { try await services.chat.latestMessages(in: direct.id, limit: 5) }
            await #expect(throws: AppError.notSignedIn) { try await services.chat.liveMessages(in: nil) }
        }
        let asAda = harness.services(for: ada)
        #expect(try await asAda.chat.latestMessages(in: direct.id, limit: 5).messages.isEmpty)
        #expect(try await asAda.conversations.conversations().map(\.id) == [direct.id])
        #expect(try await asAda.profiles.profile(matching: ada.email).displayName == "Ada")
    }

    @Test("changing the password ends every other session of the user", arguments: backends)
    func passwordChangeRevokesOthers(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend, verificationCacheTime: .zero)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada")
        let laptop = try await harness.accounts.signIn(email: ada.email, password: "password-Ada")
        try await harness.accounts.changePassword(token: ada.token, current: "password-Ada", new: "password-new")
        await #expect(throws: AppError.notSignedIn) { try await harness.accounts.account(for: laptop.token) }
        #expect(try await harness.services(for: ada).profiles.myProfile().id == ada.id)
        _ = try await harness.accounts.signIn(email: ada.email, password: "password-new")
    }

    @Test("a session ends after its idle time; using it restarts the time", arguments: clockedBackends)
    func idleExpiry(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend, verificationCacheTime: .zero, idleLimit: 3_600)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada")
        harness.clock.advance(by: 3_000)
        #expect(try await harness.services(for: ada).profiles.myProfile().id == ada.id)
        harness.clock.advance(by: 3_000)
        #expect(try await harness.services(for: ada).profiles.myProfile().id == ada.id)
        harness.clock.advance(by: 3_601)
        await #expect(throws: AppError.notSignedIn) { try await harness.services(for: ada).profiles.myProfile() }
        await #expect(throws: AppError.notSignedIn) { try await harness.accounts.account(for: ada.token) }
    }

    @Test("profiles: edit, see others' edits, search by name prefix or whole email; others' emails only to who asked by them", arguments: backends)
    func profiles(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada")
        let grace = try await harness.signUp("Grace")
        _ = try await harness.services(for: ada).profiles.updateMyProfile(displayName: "Ada L.", status: "Computing 🧮")
        let asGrace = harness.services(for: grace).profiles
        let seen = try await asGrace.profile(matching: ada.email)
        #expect(seen.displayName == "Ada L." && seen.status == "Computing 🧮")
        #expect(try await asGrace.search("ada l", limit: 10).map(\.id).contains(ada.id))
        #expect(try await asGrace.search(grace.email, limit: 10).map(\.id) == [grace.id])
        #expect(try await asGrace.search(String(ada.email.prefix(9)), limit: 10).isEmpty)
        #expect(try await asGrace.profile(matching: ada.id.rawValue).email == nil)
        #expect(try await asGrace.profile(matching: ada.email).email == ada.email)
    }

    @Test("two edits of different fields at once both survive", arguments: backends)
    func concurrentEdits(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada")
        let profiles = harness.services(for: ada).profiles
        for round in 0..<20 {
            async let renamed = profiles.updateMyProfile(displayName: "Ada \(round)", status: nil)
            async let restated = profiles.updateMyProfile(displayName: nil, status: "status \(round)")
            _ = try await (renamed, restated)
            let profile = try await profiles.myProfile()
            #expect(profile.displayName == "Ada \(round)" && profile.status == "status \(round)")
        }
    }

    @Test("conversations: one-to-one is found again, groups include the creator, titles per reader", arguments: backends)
    func conversations(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), alan = try await harness.signUp("Alan")
        let direct = try await harness.services(for: ada).conversations.startDirect(with: grace.id)
        #expect(direct.title == "Grace" && !direct.isGroup)
        let group = try await harness.services(for: alan).conversations.createGroup(title: "Engines", memberIDs: [ada.id])
        let asGrace = harness.services(for: grace).conversations
        #expect(try await asGrace.startDirect(with: ada.id).id == direct.id)
        let rows = try await asGrace.conversations()
        #expect(rows.map(\.id) == [direct.id] && rows[0].title == "Ada")
        let ids = try await harness.services(for: ada).conversations.conversations().map(\.id)
        #expect(Set(ids) == [direct.id, group.id])
    }

    @Test("send, live receive, list order and unread counts", arguments: backends)
    func liveMessagesAndUnread(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let asAda = harness.services(for: ada), asGrace = harness.services(for: grace)
        let direct = try await asAda.conversations.startDirect(with: grace.id)
        let group = try await asAda.conversations.createGroup(title: "Later", memberIDs: [grace.id])
        var live = try await asGrace.chat.liveMessages(in: direct.id).makeAsyncIterator()
        var everywhere = try await asGrace.chat.liveMessages(in: nil).makeAsyncIterator()
        var listChanges = try await asGrace.conversations.changes().makeAsyncIterator()
        for text in ["one", "two", "three"] { _ = try await asAda.chat.send(id: .random(), text: text, to: direct.id) }
        let first = await live.next(), second = await live.next()
        #expect([first?.text, second?.text] == ["one", "two"])
        #expect(await everywhere.next()?.text == "one")
        let listChanged = await listChanges.next() != nil
        #expect(listChanged)
        let rows = try await asGrace.conversations.conversations()
        #expect(rows.map(\.id) == [direct.id, group.id])
        #expect(rows[0].unreadCount == 3 && rows[0].lastMessage?.text == "three" && rows[0].lastMessage?.senderID == ada.id)
        try await asGrace.chat.markRead(direct.id)
        #expect(try await asGrace.conversations.conversations()[0].unreadCount == 0)
        #expect(try await asAda.conversations.conversations()[0].unreadCount == 0)
    }

    @Test("live readers of all conversations get only their own conversations' messages", arguments: backends)
    func liveFanOut(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), eve = try await harness.signUp("Eve")
        let asAda = harness.services(for: ada)
        let secret = try await asAda.conversations.startDirect(with: grace.id)
        let open = try await asAda.conversations.startDirect(with: eve.id)
        var eveHears = try await harness.services(for: eve).chat.liveMessages(in: nil).makeAsyncIterator()
        _ = try await asAda.chat.send(id: .random(), text: "for grace", to: secret.id)
        _ = try await asAda.chat.send(id: .random(), text: "for eve", to: open.id)
        #expect(await eveHears.next()?.text == "for eve")
    }

    @Test("a live reader resumes after its cursor: exactly what came after, no gap, no repeat", arguments: backends)
    func resumeAfterCursor(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), eve = try await harness.signUp("Eve")
        let asAda = harness.services(for: ada), asGrace = harness.services(for: grace)
        let direct = try await asAda.conversations.startDirect(with: grace.id)
        let other = try await asAda.conversations.startDirect(with: eve.id)
        var sent: [Message] = []
        // More than one catch-up read returns at once, with someone else's messages between.
        for index in 0..<(ChatRules.catchUpLimit + 100) {
            sent.append(try await asAda.chat.send(id: .random(), text: "m\(index)", to: direct.id))
            if index % 50 == 0 { _ = try await asAda.chat.send(id: .random(), text: "not for grace", to: other.id) }
        }
        let cursor = try #require(sent[9].cursor)
        #expect(sent.map(\.cursor) == sent.map(\.cursor).sorted { ($0?.position ?? 0) < ($1?.position ?? 0) })
        var resumed = try await asGrace.chat.liveMessages(in: nil, after: cursor).makeAsyncIterator()
        var inOne = try await asGrace.chat.liveMessages(in: direct.id, after: cursor).makeAsyncIterator()
        for index in 0..<2 { sent.append(try await asAda.chat.send(id: .random(), text: "live \(index)", to: direct.id)) }
        var got: [MessageID] = [], gotInOne: [MessageID] = []
        while got.count < sent.count - 10, let message = await resumed.next() { got.append(message.id) }
        while gotInOne.count < sent.count - 10, let message = await inOne.next() { gotInOne.append(message.id) }
        #expect(got == sent.dropFirst(10).map(\.id))
        #expect(gotInOne == got)
        let foreign = EventCursor(epoch: "elsewhere", position: 1)
        await #expect(throws: ChatRules.foreignCursor(foreign)) { try await asGrace.chat.liveMessages(in: nil, after: foreign) }
        await #expect(throws: ChatRules.notMember(other.id)) { try await asGrace.chat.messages(after: cursor, in: other.id, limit: 5) }
    }

    @Test("every change a user may see is one event stream: in one order, only theirs, resumable after any cursor", arguments: backends)
    func oneEventStream(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), eve = try await harness.signUp("Eve")
        let asAda = harness.services(for: ada), asGrace = harness.services(for: grace), asEve = harness.services(for: eve)
        var live = try await asGrace.chat.liveEvents().makeAsyncIterator()
        let direct = try await asAda.conversations.startDirect(with: grace.id)
        _ = try await asAda.chat.send(id: .random(), text: "hi", to: direct.id)
        try await asGrace.chat.markRead(direct.id)
        try await asGrace.chat.markRead(direct.id)  // nothing new read: the marker does not move
        _ = try await asAda.profiles.updateMyProfile(displayName: "Ada L.", status: nil)
        // Not Grace's to see: a stranger's new name, a group without her, Ada's own read marker.
        _ = try await asEve.profiles.updateMyProfile(displayName: "Eve X.", status: nil)
        let group = try await asAda.conversations.createGroup(title: "Without Grace", memberIDs: [eve.id])
        _ = try await asAda.chat.send(id: .random(), text: "not for grace", to: group.id)
        try await asEve.chat.markRead(group.id)
        _ = try await asGrace.profiles.updateMyProfile(displayName: "Grace H.", status: "here")
        _ = try await asAda.chat.send(id: .random(), text: "bye", to: direct.id)

        var events: [UserEvent] = []
        while events.count < 6, let event = await live.next() { events.append(event) }
        #expect(events.map(\.type) == ["conversation.added", "chat.message", "chat.read", "profile.renamed", "profile.renamed", "chat.message"])
        #expect(events.map { $0.message?.text } == [nil, "hi", nil, nil, nil, "bye"])
        #expect(events[3] == .change(.profileRenamed(ada.id, to: "Ada L."), cursor: try #require(events[3].cursor)))
        #expect(events[4] == .change(.profileRenamed(grace.id, to: "Grace H."), cursor: try #require(events[4].cursor)))
        #expect(events[2] == .change(.readMarkerMoved(in: direct.id, by: grace.id), cursor: try #require(events[2].cursor)))
        let cursors = events.compactMap(\.cursor)
        #expect(cursors.count == 6 && zip(cursors, cursors.dropFirst()).allSatisfy { $1.follows($0) })
        #expect(try await asGrace.chat.newestCursor() == cursors.last)
        for (index, cursor) in cursors.enumerated() {
            #expect(try await asGrace.chat.events(after: cursor, limit: 100) == Array(events.dropFirst(index + 1)), "after \(cursor)")
        }
        var resumed = try await asGrace.chat.liveEvents(after: cursors[1]).makeAsyncIterator()
        _ = try await asAda.chat.send(id: .random(), text: "later", to: direct.id)
        var again: [UserEvent] = []
        while again.count < 5, let event = await resumed.next() { again.append(event) }
        #expect(Array(again.prefix(4)) == Array(events.dropFirst(2)) && again.last?.message?.text == "later")
        // Eve shares a conversation with Ada now, so Ada's new name is hers to see as well.
        #expect(try await asEve.chat.events(after: cursors[0], limit: 100).map(\.type)
            == ["profile.renamed", "profile.renamed", "conversation.added", "chat.message", "chat.read"])
    }

    @Test("history pages back by cursor, newest page first", arguments: backends)
    func paging(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let asAda = harness.services(for: ada)
        let direct = try await asAda.conversations.startDirect(with: grace.id)
        for index in 0..<120 { _ = try await asAda.chat.send(id: .random(), text: "m\(index)", to: direct.id) }
        let chat = harness.services(for: grace).chat
        var page = try await chat.latestMessages(in: direct.id, limit: 50)
        var seen = page.messages.map(\.text)
        while page.hasOlder {
            page = try await chat.messages(in: direct.id, before: page.messages[0].id, limit: 50)
            seen = page.messages.map(\.text) + seen
        }
        #expect(seen == (0..<120).map { "m\($0)" })
    }

    @Test("sending an id twice stores one message; text round-trips exactly", arguments: backends)
    func idempotentSendAndUnicode(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let asAda = harness.services(for: ada)
        let direct = try await asAda.conversations.startDirect(with: grace.id)
        let text = "héllo 👩🏽‍💻 שלום e\u{301} 'quoted' \"double\"; DROP TABLE messages; --\nsecond line\t%_"
        let id = MessageID.random()
        let first = try await asAda.chat.send(id: id, text: text, to: direct.id)
        #expect(try await asAda.chat.send(id: id, text: text, to: direct.id) == first)
        await #expect(throws: AppError(.conflict, "message id \(id) is already used by another message")) {
            try await asAda.chat.send(id: id, text: "other text", to: direct.id)
        }
        let messages = try await harness.services(for: grace).chat.latestMessages(in: direct.id, limit: 50).messages
        #expect(messages.map(\.id) == [id] && messages[0].text == text)
    }

    @Test("sends at once, repeats and a conflict among them: each stored once, only the conflict fails", arguments: backends)
    func concurrentSends(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let asAda = harness.services(for: ada)
        let direct = try await asAda.conversations.startDirect(with: grace.id)
        let ids = (0..<150).map { _ in MessageID.random() }
        // Every id twice with its own text, and the first id once more with other text.
        let sends = ids.enumerated().flatMap { [($1, "m\($0)"), ($1, "m\($0)")] } + [(ids[0], "not m0")]
        let outcomes = await withTaskGroup(of: (MessageID, String, Message?).self) { group in
            for (id, text) in sends.shuffled() {
                group.addTask { (id, text, try? await asAda.chat.send(id: id, text: text, to: direct.id)) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let stored = try await harness.services(for: grace).chat.latestMessages(in: direct.id, limit: 500).messages
        #expect(stored.count == ids.count && Set(stored.map(\.id)) == Set(ids))
        // Whichever text of the first id came first was stored; only the sends of the other failed.
        let first = try #require(stored.first { $0.id == ids[0] }).text
        let failed = outcomes.filter { $0.2 == nil }
        #expect(!failed.isEmpty && failed.allSatisfy { $0.0 == ids[0] && $0.1 != first }, "\(failed.map(\.1))")
        #expect(outcomes.allSatisfy { outcome in outcome.2.map { $0.text == outcome.1 && stored.contains($0) } ?? true })
        let cursors = stored.compactMap(\.cursor)
        #expect(cursors.count == ids.count && zip(cursors, cursors.dropFirst()).allSatisfy { $1.follows($0) })
    }

    @Test("several drafts sent together: stored in the order given, each answered in that order, a refused one alone", arguments: backends)
    func draftsInOrder(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), eve = try await harness.signUp("Eve")
        let asAda = harness.services(for: ada)
        let direct = try await asAda.conversations.startDirect(with: grace.id)
        let notAdas = try await harness.services(for: grace).conversations.startDirect(with: eve.id)
        let taken = try await asAda.chat.send(id: .random(), text: "taken", to: direct.id)
        var drafts = (1...40).map { Message.Draft(id: .random(), conversationID: direct.id, text: "d\($0)") }
        drafts.insert(Message.Draft(id: .random(), conversationID: notAdas.id, text: "let me in"), at: 5)
        drafts.insert(Message.Draft(id: .random(), conversationID: direct.id, text: " "), at: 10)
        drafts.insert(Message.Draft(id: taken.id, conversationID: direct.id, text: "not taken"), at: 15)
        drafts.insert(Message.Draft(id: taken.id, conversationID: direct.id, text: "taken"), at: 20)
        let outcomes = await asAda.chat.send(drafts)
        #expect(outcomes.count == drafts.count)
        let kinds = outcomes.map { outcome in (try? outcome.get()).map { _ in "stored" } ?? (outcome.failure as? AppError).map { "\($0.kind)" } ?? "?" }
        #expect(kinds[5] == "forbidden" && kinds[10] == "invalidInput" && kinds[15] == "conflict", "\(kinds)")
        #expect(kinds.enumerated().allSatisfy { ![5, 10, 15].contains($0.offset) == ($0.element == "stored") }, "\(kinds)")
        #expect(try outcomes[20].get() == taken, "a repeat answers the stored message")
        let stored = try await harness.services(for: grace).chat.latestMessages(in: direct.id, limit: 100).messages
        #expect(stored.map(\.text) == ["taken"] + (1...40).map { "d\($0)" })
        #expect(zip(drafts, outcomes).allSatisfy { draft, outcome in (try? outcome.get()).map { $0.id == draft.id } ?? true })
    }

    @Test("only members read or post", arguments: backends)
    func membership(_ backend: Backend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), eve = try await harness.signUp("Eve")
        let direct = try await harness.services(for: ada).conversations.startDirect(with: grace.id)
        let asEve = harness.services(for: eve)
        let refused = ChatRules.notMember(direct.id)
        await #expect(throws: refused) { try await asEve.chat.send(id: .random(), text: "hi", to: direct.id) }
        await #expect(throws: refused) { try await asEve.chat.latestMessages(in: direct.id, limit: 5) }
        await #expect(throws: refused) { try await asEve.chat.liveMessages(in: direct.id) }
        await #expect(throws: AppError.noConversation(ConversationID("nope"))) { try await asEve.chat.latestMessages(in: ConversationID("nope"), limit: 5) }
        #expect(try await asEve.conversations.conversations().isEmpty)
    }
}

private extension Result {
    /// The error of a failure; `nil` for a success.
    var failure: Failure? {
        guard case .failure(let error) = self else { return nil }
        return error
    }
}
