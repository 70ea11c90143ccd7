import Chat
import ConversationList
import Foundation
import Kernel
import Search
import ServiceGraph
import TestSupport
import Testing

/// "Who can reach you" on every backend, read on every road an outsider of a group has: someone
/// invited who has not answered, someone who declined and someone who left get nothing of its
/// messages or their changes — not in the list, history, the live streams, catch-up and the event
/// log (`GET /v1/events/log` and `GET /v1/messages` on the remote backends, `tail --since` on
/// SQLite), search, mentions, receipts or typing. Who left keeps what reached her as a member;
/// nothing sent or changed after reaches her.
@Suite("Privacy contract", .serialized, .timeLimit(.minutes(3)))
struct PrivacyContractTests {
    /// Someone outside the group, and what of it she may see.
    struct Outsider: Sendable {
        let name: String
        let user: BackendHarness.User
        let services: ServiceSet
        /// Her one-to-one with a friend outside the group: where her markers are sent.
        let direct: ConversationID
        /// Her newest cursor before the group was created.
        let before: EventCursor
        /// Her live streams, open since `before`.
        let events: AsyncStream<UserEvent>, messages: AsyncStream<Message>, typing: AsyncStream<TypingNotice>
        /// Whether her invitation still waits (the one row of the group she is shown).
        var invited = false
        /// The changes of the group about herself she is told of: her invitation, her declining.
        var ownChanges: Set<StoreChange.Kind> = []
        /// For who left: the newest cursor once she had left. Events of the group up to it reached her as a member.
        var leftAt: EventCursor?
        /// For who left: the messages sent while she was a member, which she may be shown as they were then.
        var sawAsMember: Set<MessageID> = []
        /// Words and emoji of the group she must never be shown: all of them, or for who left those added after.
        var secrets: [String] = []

        /// Whether `message`, on a road of hers, shows her something of `group` she may not see.
        func reveals(_ message: Message, of group: ConversationID) -> Bool {
            // The scenario deletes a message only after she left: a tombstone is news to her.
            reveals(message.id, in: message.conversationID, showing: ([message.text] + message.reactions.keys).joined(separator: " "), of: group)
                || message.conversationID == group && message.deleted
        }

        /// Whether message `id` of `conversation`, shown with `text`, is something of `group` she may not see.
        func reveals(_ id: MessageID, in conversation: ConversationID, showing text: String, of group: ConversationID) -> Bool {
            conversation == group && (!sawAsMember.contains(id) || secrets.contains { text.lowercased().contains($0) })
        }

        /// Whether `event`, on a road of hers, shows her something of `group` she may not see.
        func reveals(_ event: UserEvent, of group: ConversationID) -> Bool {
            let asMember = leftAt.map { left in event.cursor.map { !$0.follows(left) } ?? false } ?? false
            if let message = event.messageNow { return message.conversationID == group && (!asMember || reveals(message, of: group)) }
            if case .reacted(let now, _) = event {
                return now.conversationID == group
                    && (!asMember || reveals(now.messageID, in: group, showing: now.reactions.keys.joined(separator: " "), of: group))
            }
            guard case .change(let change, _) = event, change.conversationID == group else { return false }
            return !asMember && !(change.userID == user.id && ownChanges.contains(change.kind))
        }
    }

    @Test(
        "an invitee, one who declined and one who left see nothing of a group's messages, edits, deletions, reactions, mentions, receipts or typing on any road",
        arguments: BackendContractTests.backends)
    func outsidersSeeNothing(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), alan = try await harness.signUp("Alan"), fred = try await harness.signUp("Fred")
        let (asAda, asAlan, asFred) = (harness.services(for: ada), harness.services(for: alan), harness.services(for: fred))
        func outsider(_ name: String) async throws -> Outsider {
            let user = try await harness.signUp(name), services = harness.services(for: user)
            let direct = try await harness.direct(fred, user).id
            return Outsider(
                name: name, user: user, services: services, direct: direct, before: try #require(try await services.events.newestCursor()),
                events: try await services.events.liveEvents(), messages: try await services.events.liveMessages(in: nil),
                typing: try await services.typing.typingNotices())
        }
        var ivy = try await outsider("Ivy"), dee = try await outsider("Dee"), lea = try await outsider("Lea")
        var alanHears = try await asAlan.typing.typingNotices().makeAsyncIterator()

        // Ada, a stranger to all, makes the group: Alan and Lea accept, Ivy and Dee are invited.
        let group = try await asAda.conversations.createGroup(title: "Skunkworks", memberIDs: [alan.id, ivy.user.id, dee.user.id, lea.user.id]).id
        for member in [alan, lea.user] { _ = try await harness.services(for: member).conversations.accept(group) }
        let plan = try await asAda.chat.send(id: .random(), text: "@Ivy @Dee @Lea the aardvark plan", to: group)
        let files = try await asAlan.chat.send(id: .random(), text: "bring the badger files", to: group)
        _ = try await asAda.chat.edit(plan.id, in: group, text: "@Ivy @Dee @Lea the aardvark plan, revised")
        _ = try await asAlan.chat.react(to: plan.id, in: group, with: "👍", adding: true)
        try await asAlan.chat.markRead(group)

        try await dee.services.conversations.decline(group)
        try await lea.services.conversations.leave(group)
        lea.leftAt = try await asAda.events.newestCursor()
        lea.sawAsMember = [plan.id, files.id]

        let meeting = try await asAda.chat.send(id: .random(), text: "@Ivy @Dee @Lea @Alan the cobra meeting", to: group)
        _ = try await asAda.chat.edit(plan.id, in: group, text: "@Lea @Ivy the dingo plan")
        _ = try await asAlan.chat.delete(files.id, in: group)
        _ = try await asAlan.chat.react(to: plan.id, in: group, with: "🦄", adding: true)
        _ = try await asAlan.chat.react(to: meeting.id, in: group, with: "🦄", adding: true)
        _ = try await asAlan.chat.send(id: .random(), text: "@Lea @Dee @Ivy elephant in the room", to: group)
        try await asAlan.chat.markRead(group)
        try await asAda.typing.setTyping(true, in: group)
        try await asAlan.typing.setTyping(true, in: group)

        // What the outsiders must not get did go out, to the members.
        #expect(await alanHears.next() == TypingNotice(conversationID: group, userID: ada.id, typing: true))
        #expect(try await asAlan.search.search("cobra", in: nil, limit: 5, before: nil).hits.map(\.id) == [meeting.id])
        #expect(try await asAlan.search.mentions(since: nil, limit: 5).mentions.map(\.id) == [meeting.id])

        let afterLeaving = ["cobra", "dingo", "elephant", "🦄"]
        (ivy.invited, ivy.ownChanges, ivy.secrets) = (true, [.conversationInvited], ["aardvark", "badger", "revised", "👍"] + afterLeaving)
        (dee.ownChanges, dee.secrets) = ([.conversationInvited, .conversationLeft], ivy.secrets)
        lea.secrets = afterLeaving
        for outsider in [ivy, dee, lea] {
            try await Self.expectNothing(of: group, reaches: outsider, markedBy: asFred, fred.id, historyAnchor: plan.id, harness: harness, backend)
        }
    }

    /// Reads every road `outsider` has and expects nothing of `group` on it she may not see. Each
    /// read that could wait for ever is bounded by a marker `friend` sends (or types) in her
    /// one-to-one after everything else: what of the group has not come before it does not come.
    static func expectNothing(
        of group: ConversationID, reaches outsider: Outsider, markedBy friend: ServiceSet, _ friendID: UserID,
        historyAnchor: MessageID, harness: BackendHarness, _ backend: ContractBackend
    ) async throws {
        let (name, chat, events) = (outsider.name, outsider.services.chat, outsider.services.events)
        let newest = try await events.newestCursor()
        let marker = try await friend.chat.send(id: .random(), text: "marker for \(name)", to: outsider.direct)
        try await friend.typing.setTyping(true, in: outsider.direct)
        func shown(_ events: [UserEvent]) -> [String] {
            events.filter { outsider.reveals($0, of: group) }.map { "\($0.type) \($0.messageNow?.text ?? "")" }
        }

        // The list: her one-to-one, its last message the marker; of the group at most her invitation.
        let rows = try await outsider.services.conversations.conversations()
        #expect(rows.map(\.id) == [outsider.direct] && rows.first?.lastMessage?.id == marker.id, "\(name)'s list: \(rows.map(\.title))")
        #expect(try await outsider.services.conversations.invitations().map(\.id) == (outsider.invited ? [group] : []), "\(name)'s invitations")

        // History and every other door of the group are shut.
        await #expect(throws: ChatRules.notMember(group), "\(name): history") { try await chat.latestMessages(in: group, limit: 50) }
        await #expect(throws: ChatRules.notMember(group), "\(name): older history") {
            try await chat.messages(in: group, before: historyAnchor, limit: 50)
        }
        await #expect(throws: AppError.self, "\(name): catch-up of the group") {
            try await events.messages(after: outsider.before, in: group, limit: 500)
        }
        await #expect(throws: AppError.self, "\(name): the group's live messages") { try await events.liveMessages(in: group) }
        await #expect(throws: AppError.self, "\(name): receipts") { try await chat.receipts(in: group) }
        await #expect(throws: AppError.self, "\(name): marking read") { try await chat.markRead(group) }
        await #expect(throws: AppError.self, "\(name): typing") { try await outsider.services.typing.setTyping(true, in: group) }

        // Catch-up and the event log (over HTTP on the remote backends), from before the invitation.
        let log = try await events.events(after: outsider.before, limit: 500)
        #expect(log.last?.message?.id == marker.id, "\(name)'s event log reaches the marker")
        #expect(shown(log).isEmpty, "\(name)'s event log shows \(shown(log))")
        #expect(newest == log.dropLast().last?.cursor ?? outsider.before, "\(name)'s newest cursor counts only what she may see")
        let caughtUp = try await events.messages(after: outsider.before, in: nil, limit: 500)
        #expect(
            caughtUp.last?.id == marker.id && !caughtUp.contains { outsider.reveals($0, of: group) },
            "\(name)'s catch-up shows \(caughtUp.filter { outsider.reveals($0, of: group) }.map(\.text))")

        // The live streams, open since before the invitation, up to the marker.
        var heard: [UserEvent] = [], reachedMarker = false
        for await event in outsider.events {
            if event.message?.id == marker.id {
                reachedMarker = true
                break
            }
            heard.append(event)
        }
        #expect(reachedMarker && shown(heard).isEmpty, "\(name)'s live events show \(shown(heard))")
        var live: [Message] = []
        reachedMarker = false
        for await message in outsider.messages {
            if message.id == marker.id {
                reachedMarker = true
                break
            }
            live.append(message)
        }
        #expect(reachedMarker && !live.contains { outsider.reveals($0, of: group) }, "\(name)'s live messages: \(live.map(\.text))")
        var typing: [TypingNotice] = []
        reachedMarker = false
        for await notice in outsider.typing {
            if notice == TypingNotice(conversationID: outsider.direct, userID: friendID, typing: true) {
                reachedMarker = true
                break
            }
            typing.append(notice)
        }
        #expect(reachedMarker && !typing.contains { $0.conversationID == group }, "\(name) heard the group's typing: \(typing)")

        // Search and mentions.
        for word in outsider.secrets where word.allSatisfy(\.isLetter) {
            let hits = try await outsider.services.search.search(word, in: nil, limit: 20, before: nil).hits
            #expect(!hits.contains { outsider.reveals($0.id, in: $0.conversationID, showing: $0.snippet, of: group) }, "\(name) found \(word)")
        }
        await #expect(throws: AppError.self, "\(name): searching the group") {
            try await outsider.services.search.search("plan", in: group, limit: 20, before: nil)
        }
        let mentions = try await outsider.services.search.mentions(since: nil, limit: 50).mentions
        #expect(
            !mentions.contains { outsider.reveals($0.id, in: $0.conversationID, showing: $0.text, of: group) },
            "\(name)'s mentions: \(mentions.map(\.text))")

        // `tail --since` of the program, at a terminal over the same SQLite file.
        if backend == .sqlite {
            let lines = try await tailLines(as: outsider, after: outsider.before, upTo: marker, harness: harness)
            let leaked = lines?.filter { line in
                guard let event = try? tailJSON.decode(UserEvent.self, from: Data(line.utf8)) else { return line.contains(group.rawValue) }
                return outsider.reveals(event, of: group)
            }
            #expect(leaked == [], "\(name)'s tail --since printed \(lines ?? ["nothing up to the marker"])")
        }
    }

    /// Reads what `tail --json` prints (`JSONLines`: `conversationId` for `conversationID`, ISO 8601 dates) as the events it was.
    static let tailJSON = {
        struct Key: CodingKey {
            let stringValue: String
            let intValue: Int? = nil
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in Key(stringValue: path.last!.stringValue.replacingOccurrences(of: "Id", with: "ID")) }
        decoder.dateDecodingStrategy = .custom { decoder in
            try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(try decoder.singleValueContainer().decode(String.self))
        }
        return decoder
    }()

    /// What `messageai tail --since CURSOR --json` prints for `outsider`, signed in at a terminal
    /// over the harness's SQLite file, before the line of `marker`; `nil` if it ended without it.
    static func tailLines(as outsider: Outsider, after cursor: EventCursor, upTo marker: Message, harness: BackendHarness) async throws -> [String]? {
        var machine = LocalMachine("privacy-tail")
        defer { machine.remove() }
        machine.environment["MESSAGEAI_SQLITE_PATH"] = harness.folder.appendingPathComponent("contract.sqlite").path
        let login = try await machine.run(["login", "--email", outsider.user.email, "--password-stdin"], input: "password-\(outsider.name)\n")
        try #require(login.status == 0, "\(login.errors)")
        let tail = try machine.start(["tail", "--since", cursor.description, "--json"])
        var lines: [String] = [], reachedMarker = false
        for await line in tail.lines {
            if line.contains(marker.id.rawValue) {
                reachedMarker = true
                break
            }
            lines.append(line)
        }
        await tail.kill9()
        return reachedMarker ? lines : nil
    }
}
