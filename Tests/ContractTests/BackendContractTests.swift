import Chat
import ConversationList
import Kernel
import Profile
import ServiceGraph
import Testing

/// The behaviour every backend must share. Each scenario runs against every backend, with
/// services built per user from their session token, as a server builds them per connection.
/// One case at a time: each holds processes, database connections and files, and the test
/// process must stay under about a thousand open descriptors, past which Foundation's
/// `Process.run` (Swift 6.3.1) can crash reading `/proc/self/fd` (swift-corelibs-foundation#5472).
@Suite("Backend contract", .serialized, .timeLimit(.minutes(5)))
struct BackendContractTests {
    static let backends: [ContractBackend] = [.memory, .sqlite, .remote, .postgres, .remoteOnPostgres]
    /// The backends whose clock a test controls: a server keeps its own time, so the idle-time
    /// rule is shown on the SQL services the server runs (`.sqlite`, `.postgres`), not through one.
    static let clockedBackends: [ContractBackend] = [.memory, .sqlite, .postgres]

    @Test("sign-up, sign-in, sign-out and duplicate emails", arguments: backends)
    func accounts(_ backend: ContractBackend) async throws {
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
    func emailSpellings(_ backend: ContractBackend) async throws {
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
    func forgedAndRevokedTokens(_ backend: ContractBackend) async throws {
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
            await #expect(throws: AppError.notSignedIn) { try await services.events.liveMessages(in: nil) }
        }
        let asAda = harness.services(for: ada)
        #expect(try await asAda.chat.latestMessages(in: direct.id, limit: 5).messages.isEmpty)
        #expect(try await asAda.conversations.conversations().map(\.id) == [direct.id])
        #expect(try await asAda.profiles.profile(matching: ada.email).displayName == "Ada")
    }

    @Test("changing the password ends every other session of the user", arguments: backends)
    func passwordChangeRevokesOthers(_ backend: ContractBackend) async throws {
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
    func idleExpiry(_ backend: ContractBackend) async throws {
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
    func profiles(_ backend: ContractBackend) async throws {
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
    func concurrentEdits(_ backend: ContractBackend) async throws {
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
    func conversations(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), alan = try await harness.signUp("Alan")
        let direct = try await harness.services(for: ada).conversations.startDirect(with: grace.id)
        #expect(direct.title == "Grace" && !direct.isGroup && direct.memberIDs == [ada.id], "Grace is invited, not yet a member")
        let asGrace = harness.services(for: grace).conversations
        // Starting the one-to-one she was invited to accepts it.
        #expect(try await asGrace.startDirect(with: ada.id).id == direct.id)
        let rows = try await asGrace.conversations()
        #expect(rows.map(\.id) == [direct.id] && rows[0].title == "Ada" && Set(rows[0].memberIDs) == [ada.id, grace.id])
        let group = try await harness.group("Engines", by: alan, with: [ada])
        let ids = try await harness.services(for: ada).conversations.conversations().map(\.id)
        #expect(Set(ids) == [direct.id, group.id])
    }

    @Test("consent: a stranger's one-to-one or group is an invitation, of which nothing reaches the invitee until accepted", arguments: backends)
    func invitations(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), alan = try await harness.signUp("Alan")
        let asAda = harness.services(for: ada), asGrace = harness.services(for: grace)
        var graceHears = try await asGrace.events.liveEvents().makeAsyncIterator()
        let direct = try await asAda.conversations.startDirect(with: grace.id)
        _ = try await asAda.chat.send(id: .random(), text: "hello, stranger", to: direct.id)
        #expect(try await asGrace.conversations.conversations().isEmpty)
        let invitation = try #require(try await asGrace.conversations.invitations().first)
        #expect(
            invitation.id == direct.id && invitation.title == "Ada" && !invitation.isGroup && invitation.inviterID == ada.id
                && invitation.inviterName == "Ada" && invitation.memberCount == 1)
        await #expect(throws: ChatRules.notMember(direct.id)) { try await asGrace.chat.latestMessages(in: direct.id, limit: 5) }
        await #expect(throws: ChatRules.notMember(direct.id)) { try await asGrace.chat.send(id: .random(), text: "hi", to: direct.id) }
        #expect(await graceHears.next()?.type == "conversation.invited", "the message came before the invitation was answered")

        let accepted = try await asGrace.conversations.accept(direct.id)
        #expect(accepted.id == direct.id && Set(accepted.memberIDs) == [ada.id, grace.id])
        #expect(try await asGrace.chat.latestMessages(in: direct.id, limit: 5).messages.map(\.text) == ["hello, stranger"])
        #expect(try await asGrace.conversations.invitations().isEmpty)
        #expect(try await asGrace.conversations.accept(direct.id).id == direct.id, "accepting again (a retry) answers the conversation")
        await #expect(throws: ConversationRules.alreadyMember(direct.id)) { try await asGrace.conversations.decline(direct.id) }
        // Her joining; the message from before may come too, once she is a member (the feed reads
        // members when it reads a message), but only after the invitation was answered.
        var joined = await graceHears.next()
        while joined?.type == UserEvent.messageType { joined = await graceHears.next() }
        #expect(
            joined?.type == "conversation.added"
                && joined.map { if case .change(let change, _) = $0 { change.userID == grace.id } else { false } } == true)

        // Having accepted Ada, Grace is put in Ada's groups at once; a stranger only invites her, once.
        let adas = try await asAda.conversations.createGroup(title: "Ada's", memberIDs: [grace.id])
        #expect(Set(adas.memberIDs) == [ada.id, grace.id])
        let first = try await harness.services(for: alan).conversations.createGroup(title: "Alan's", memberIDs: [grace.id])
        let second = try await harness.services(for: alan).conversations.createGroup(title: "Alan's again", memberIDs: [grace.id])
        #expect(first.memberIDs == [alan.id] && second.memberIDs == [alan.id])
        #expect(try await asGrace.conversations.invitations().map(\.id) == [first.id], "one invitation of a person's waits at a time")
        try await asGrace.conversations.decline(first.id)
        #expect(try await asGrace.conversations.invitations().isEmpty)
        try await asGrace.conversations.decline(first.id)  // a retry does nothing
        await #expect(throws: ConversationRules.noInvitation(second.id)) { try await asGrace.conversations.accept(second.id) }
        await #expect(throws: AppError.noConversation(ConversationID("nope"))) { try await asGrace.conversations.decline(ConversationID("nope")) }
        #expect(Set(try await asGrace.conversations.conversations().map(\.id)) == [direct.id, adas.id])
    }

    @Test("leaving: nothing more reaches who left; starting a one-to-one again comes back to it", arguments: backends)
    func leaving(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), alan = try await harness.signUp("Alan")
        let asAda = harness.services(for: ada), asGrace = harness.services(for: grace)
        let direct = try await harness.direct(ada, grace)
        let group = try await harness.group("Team", by: ada, with: [grace, alan])
        var graceHears = try await asGrace.events.liveMessages(in: nil).makeAsyncIterator()
        try await asGrace.conversations.leave(group.id)
        try await asGrace.conversations.leave(group.id)  // a retry does nothing
        await #expect(throws: AppError.noConversation(ConversationID("nope"))) { try await asGrace.conversations.leave(ConversationID("nope")) }
        _ = try await asAda.chat.send(id: .random(), text: "after grace left", to: group.id)
        _ = try await asAda.chat.send(id: .random(), text: "to grace", to: direct.id)
        #expect(await graceHears.next()?.text == "to grace")
        await #expect(throws: ChatRules.notMember(group.id)) { try await asGrace.chat.latestMessages(in: group.id, limit: 5) }
        #expect(try await asGrace.conversations.conversations().map(\.id) == [direct.id])
        #expect(Set(try await asAda.conversations.conversations().first { $0.id == group.id }?.memberIDs ?? []) == [ada.id, alan.id])
        try await asGrace.conversations.leave(direct.id)
        #expect(try await asGrace.conversations.startDirect(with: ada.id).id == direct.id)
        #expect(try await asGrace.chat.latestMessages(in: direct.id, limit: 5).messages.map(\.text) == ["to grace"])
    }

    @Test(
        "blocking: the blocker leaves their one-to-one and the blocked person's invitations, is not added again, and hides new names from them",
        arguments: backends)
    func blocking(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), mallory = try await harness.signUp("Mallory"), grace = try await harness.signUp("Grace")
        let carol = try await harness.signUp("Carol")
        let asAda = harness.services(for: ada), asMallory = harness.services(for: mallory), asGrace = harness.services(for: grace)
        let direct = try await harness.direct(ada, mallory)
        let shared = try await harness.group("Shared", by: grace, with: [ada, mallory])
        let mallorys = try await asMallory.conversations.createGroup(title: "Mallory's", memberIDs: [ada.id])
        let carols = try await harness.services(for: carol).conversations.createGroup(title: "Carol's", memberIDs: [ada.id])
        try await asAda.conversations.block(mallory.id)
        try await asAda.conversations.block(carol.id)
        #expect(try await asAda.conversations.blockedUsers() == [mallory.id, carol.id].sorted { $0.rawValue < $1.rawValue })
        #expect(Set(try await asAda.conversations.conversations().map(\.id)) == [shared.id, mallorys.id], "groups stay; the one-to-one goes")
        #expect(try await asAda.conversations.invitations().isEmpty, "Carol's invitation waits no more")
        let again = try await asMallory.conversations.createGroup(title: "Again", memberIDs: [ada.id])
        #expect(again.memberIDs == [mallory.id])
        #expect(try await asAda.conversations.invitations().isEmpty)
        #expect(try await asMallory.conversations.startDirect(with: ada.id).id == direct.id)
        #expect(try await asAda.conversations.conversations().contains { $0.id == direct.id } == false, "Mallory cannot bring Ada back")

        let before = try #require(try await asGrace.events.newestCursor())
        var mallorysEvents = try await asMallory.events.liveEvents().makeAsyncIterator()
        _ = try await asAda.profiles.updateMyProfile(displayName: "Ada Secret", status: nil)
        _ = try await asGrace.chat.send(id: .random(), text: "marker", to: shared.id)
        #expect(await mallorysEvents.next()?.message?.text == "marker", "Mallory saw the new name of who blocked her")
        let names = try await asGrace.events.events(after: before, limit: 10).compactMap { event -> String? in
            if case .change(let change, _) = event { change.displayName } else { nil }
        }
        #expect(names == ["Ada Secret"])
        await #expect(throws: ConversationRules.selfBlock) { try await asAda.conversations.block(ada.id) }
        try await asAda.conversations.unblock(carol.id)
        #expect(try await asAda.conversations.blockedUsers() == [mallory.id])
        _ = try await harness.services(for: carol).conversations.createGroup(title: "Once more", memberIDs: [ada.id])
        #expect(try await asAda.conversations.invitations().map(\.title) == ["Once more"])
        _ = carols
    }

    @Test("the list comes a page at a time, most recent first", arguments: backends)
    func listPages(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada")
        var others: [BackendHarness.User] = []
        for index in 0..<7 { others.append(try await harness.signUp("P\(index)")) }
        let asAda = harness.services(for: ada).conversations
        for other in others { _ = try await asAda.startDirect(with: other.id) }
        let all = try await asAda.conversations()
        #expect(all.count == 7)
        var paged: [ConversationSummary] = []
        var page = try await asAda.conversations(limit: 3, after: nil)
        paged += page.conversations
        while page.hasMore {
            page = try await asAda.conversations(limit: 3, after: paged.last?.id)
            paged += page.conversations
        }
        #expect(paged == all)
        await #expect(throws: AppError.noConversation(ConversationID("nope"))) {
            try await asAda.conversations(limit: 3, after: ConversationID("nope"))
        }
        await #expect(throws: AppError.self) { try await asAda.conversations(limit: 0, after: nil) }
        await #expect(throws: AppError.self) { try await asAda.conversations(limit: 501, after: nil) }
    }

    @Test("a new name is seen by those who were contacts when it was chosen, never by who became one later", arguments: backends)
    func renamesFromContact(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), eve = try await harness.signUp("Eve")
        let asAda = harness.services(for: ada), asEve = harness.services(for: eve)
        _ = try await asAda.profiles.updateMyProfile(displayName: "Ada Before", status: nil)
        let direct = try await harness.direct(eve, ada)
        _ = try await asAda.profiles.updateMyProfile(displayName: "Ada After", status: nil)
        let names = try await asEve.events.events(
            after: EventCursor(epoch: try #require(await asEve.events.newestCursor()).epoch, position: 0), limit: 100
        )
        .compactMap { event -> String? in if case .change(let change, _) = event { change.displayName } else { nil } }
        #expect(names == ["Ada After"])
        _ = direct
    }

    @Test("send, live receive, list order and unread counts", arguments: backends)
    func liveMessagesAndUnread(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let asAda = harness.services(for: ada), asGrace = harness.services(for: grace)
        let direct = try await harness.direct(ada, grace)
        let group = try await harness.group("Later", by: ada, with: [grace])
        var live = try await asGrace.events.liveMessages(in: direct.id).makeAsyncIterator()
        var everywhere = try await asGrace.events.liveMessages(in: nil).makeAsyncIterator()
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
    func liveFanOut(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), eve = try await harness.signUp("Eve")
        let asAda = harness.services(for: ada)
        let secret = try await harness.direct(ada, grace)
        let open = try await harness.direct(ada, eve)
        var eveHears = try await harness.services(for: eve).events.liveMessages(in: nil).makeAsyncIterator()
        _ = try await asAda.chat.send(id: .random(), text: "for grace", to: secret.id)
        _ = try await asAda.chat.send(id: .random(), text: "for eve", to: open.id)
        #expect(await eveHears.next()?.text == "for eve")
    }

    @Test("a live reader resumes after its cursor: exactly what came after, no gap, no repeat", arguments: backends)
    func resumeAfterCursor(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), eve = try await harness.signUp("Eve")
        let asAda = harness.services(for: ada), asGrace = harness.services(for: grace)
        let direct = try await harness.direct(ada, grace)
        let other = try await harness.direct(ada, eve)
        var sent: [Message] = []
        // More than one catch-up read returns at once, with someone else's messages between.
        for index in 0..<(ChatRules.catchUpLimit + 100) {
            sent.append(try await asAda.chat.send(id: .random(), text: "m\(index)", to: direct.id))
            if index % 50 == 0 { _ = try await asAda.chat.send(id: .random(), text: "not for grace", to: other.id) }
        }
        let cursor = try #require(sent[9].cursor)
        #expect(sent.map(\.cursor) == sent.map(\.cursor).sorted { ($0?.position ?? 0) < ($1?.position ?? 0) })
        var resumed = try await asGrace.events.liveMessages(in: nil, after: cursor).makeAsyncIterator()
        var inOne = try await asGrace.events.liveMessages(in: direct.id, after: cursor).makeAsyncIterator()
        for index in 0..<2 { sent.append(try await asAda.chat.send(id: .random(), text: "live \(index)", to: direct.id)) }
        // Read up to a last message sent after everything else, not up to a count: a repeat
        // anywhere shows as one message too many before it.
        let last = try await asAda.chat.send(id: .random(), text: "last", to: direct.id)
        sent.append(last)
        var got: [MessageID] = [], gotInOne: [MessageID] = []
        while got.last != last.id, let message = await resumed.next() { got.append(message.id) }
        while gotInOne.last != last.id, let message = await inOne.next() { gotInOne.append(message.id) }
        #expect(got == sent.dropFirst(10).map(\.id))
        #expect(gotInOne == got)
        let foreign = EventCursor(epoch: "elsewhere", position: 1)
        await #expect(throws: ChatRules.foreignCursor(foreign)) { try await asGrace.events.liveMessages(in: nil, after: foreign) }
        await #expect(throws: ChatRules.notMember(other.id)) { try await asGrace.events.messages(after: cursor, in: other.id, limit: 5) }
    }

    @Test("every change a user may see is one event stream: in one order, only theirs, resumable after any cursor", arguments: backends)
    func oneEventStream(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), eve = try await harness.signUp("Eve")
        let asAda = harness.services(for: ada), asGrace = harness.services(for: grace), asEve = harness.services(for: eve)
        var live = try await asGrace.events.liveEvents().makeAsyncIterator()
        let direct = try await harness.direct(ada, grace)
        _ = try await asAda.chat.send(id: .random(), text: "hi", to: direct.id)
        try await asGrace.chat.markRead(direct.id)
        try await asGrace.chat.markRead(direct.id)  // nothing new read: the marker does not move
        _ = try await asAda.profiles.updateMyProfile(displayName: "Ada L.", status: nil)
        // Not Grace's to see: a stranger's new name, a group without her, Ada's own read marker.
        _ = try await asEve.profiles.updateMyProfile(displayName: "Eve X.", status: nil)
        let group = try await harness.group("Without Grace", by: ada, with: [eve])
        _ = try await asAda.chat.send(id: .random(), text: "not for grace", to: group.id)
        try await asEve.chat.markRead(group.id)
        _ = try await asGrace.profiles.updateMyProfile(displayName: "Grace H.", status: "here")
        _ = try await asAda.chat.send(id: .random(), text: "bye", to: direct.id)

        var events: [UserEvent] = []
        while events.count < 7, let event = await live.next() { events.append(event) }
        #expect(
            events.map(\.type) == [
                "conversation.invited", "conversation.added", "chat.message", "chat.read", "profile.renamed", "profile.renamed",
                "chat.message",
            ])
        #expect(events.map { $0.message?.text } == [nil, nil, "hi", nil, nil, nil, "bye"])
        #expect(events[0] == .change(.conversationInvited(direct.id, invitee: grace.id), cursor: try #require(events[0].cursor)))
        #expect(events[1] == .change(.conversationAdded(direct.id, joining: grace.id), cursor: try #require(events[1].cursor)))
        #expect(events[4] == .change(.profileRenamed(ada.id, to: "Ada L."), cursor: try #require(events[4].cursor)))
        #expect(events[5] == .change(.profileRenamed(grace.id, to: "Grace H."), cursor: try #require(events[5].cursor)))
        #expect(events[3] == .change(.readMarkerMoved(in: direct.id, by: grace.id), cursor: try #require(events[3].cursor)))
        let cursors = events.compactMap(\.cursor)
        #expect(cursors.count == 7 && zip(cursors, cursors.dropFirst()).allSatisfy { $1.follows($0) })
        #expect(try await asGrace.events.newestCursor() == cursors.last)
        for (index, cursor) in cursors.enumerated() {
            #expect(try await asGrace.events.events(after: cursor, limit: 100) == Array(events.dropFirst(index + 1)), "after \(cursor)")
        }
        var resumed = try await asGrace.events.liveEvents(after: cursors[2]).makeAsyncIterator()
        _ = try await asAda.chat.send(id: .random(), text: "later", to: direct.id)
        var again: [UserEvent] = []
        while again.count < 5, let event = await resumed.next() { again.append(event) }
        #expect(Array(again.prefix(4)) == Array(events.dropFirst(3)) && again.last?.message?.text == "later")
        // Eve shares a conversation with Ada now, but Ada's new name came before: not hers to see.
        #expect(
            try await asEve.events.events(after: cursors[0], limit: 100).map(\.type)
                == ["profile.renamed", "conversation.invited", "conversation.added", "chat.message", "chat.read"])
    }

    @Test("history pages back by cursor, newest page first", arguments: backends)
    func paging(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let asAda = harness.services(for: ada)
        let direct = try await harness.direct(ada, grace)
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
    func idempotentSendAndUnicode(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let asAda = harness.services(for: ada)
        let direct = try await harness.direct(ada, grace)
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

    @Test("a message id belongs to its conversation: nobody elsewhere can claim it first, nor learn it is used", arguments: backends)
    func idsPerConversation(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), mallory = try await harness.signUp("Mallory")
        let theirs = try await harness.direct(ada, grace)
        let mallorys = try await harness.services(for: mallory).conversations.startDirect(with: grace.id)
        let id = MessageID("daily-report-2026-11-26")
        _ = try await harness.services(for: mallory).chat.send(id: id, text: "squatted", to: mallorys.id)
        let report = try await harness.services(for: ada).chat.send(id: id, text: "Report: all green", to: theirs.id)
        #expect(report.text == "Report: all green" && report.conversationID == theirs.id)
        #expect(try await harness.services(for: grace).chat.latestMessages(in: theirs.id, limit: 5).messages.map(\.text) == ["Report: all green"])
        _ = try await harness.services(for: mallory).chat.send(id: MessageID("probe-\(report.id)"), text: "probe", to: mallorys.id)
        #expect(try await harness.services(for: mallory).chat.send(id: id, text: "squatted", to: mallorys.id).text == "squatted")
    }

    @Test("sends at once, repeats and a conflict among them: each stored once, only the conflict fails", arguments: backends)
    func concurrentSends(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let asAda = harness.services(for: ada)
        let direct = try await harness.direct(ada, grace)
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
    func draftsInOrder(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), eve = try await harness.signUp("Eve")
        let asAda = harness.services(for: ada)
        let direct = try await harness.direct(ada, grace)
        let notAdas = try await harness.direct(grace, eve)
        let taken = try await asAda.chat.send(id: .random(), text: "taken", to: direct.id)
        var drafts = (1...40).map { Message.Draft(id: .random(), conversationID: direct.id, text: "d\($0)") }
        drafts.insert(Message.Draft(id: .random(), conversationID: notAdas.id, text: "let me in"), at: 5)
        drafts.insert(Message.Draft(id: .random(), conversationID: direct.id, text: " "), at: 10)
        drafts.insert(Message.Draft(id: taken.id, conversationID: direct.id, text: "not taken"), at: 15)
        drafts.insert(Message.Draft(id: taken.id, conversationID: direct.id, text: "taken"), at: 20)
        let outcomes = await asAda.chat.send(drafts)
        #expect(outcomes.count == drafts.count)
        let kinds = outcomes.map { outcome in (try? outcome.get()).map { _ in "stored" } ?? (outcome.failure as? AppError).map { "\($0.kind)" } ?? "?"
        }
        #expect(kinds[5] == "forbidden" && kinds[10] == "invalidInput" && kinds[15] == "conflict", "\(kinds)")
        #expect(kinds.enumerated().allSatisfy { ![5, 10, 15].contains($0.offset) == ($0.element == "stored") }, "\(kinds)")
        #expect(try outcomes[20].get() == taken, "a repeat answers the stored message")
        let stored = try await harness.services(for: grace).chat.latestMessages(in: direct.id, limit: 100).messages
        #expect(stored.map(\.text) == ["taken"] + (1...40).map { "d\($0)" })
        #expect(zip(drafts, outcomes).allSatisfy { draft, outcome in (try? outcome.get()).map { $0.id == draft.id } ?? true })
    }

    @Test("only members read or post", arguments: backends)
    func membership(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), eve = try await harness.signUp("Eve")
        let direct = try await harness.direct(ada, grace)
        let asEve = harness.services(for: eve)
        let refused = ChatRules.notMember(direct.id)
        await #expect(throws: refused) { try await asEve.chat.send(id: .random(), text: "hi", to: direct.id) }
        await #expect(throws: refused) { try await asEve.chat.latestMessages(in: direct.id, limit: 5) }
        await #expect(throws: refused) { try await asEve.events.liveMessages(in: direct.id) }
        await #expect(throws: AppError.noConversation(ConversationID("nope"))) {
            try await asEve.chat.latestMessages(in: ConversationID("nope"), limit: 5)
        }
        #expect(try await asEve.conversations.conversations().isEmpty)
    }
}

extension Result {
    /// The error of a failure; `nil` for a success.
    fileprivate var failure: Failure? {
        guard case .failure(let error) = self else { return nil }
        return error
    }
}
