import Chat
import Foundation
import Kernel
import ServiceGraph
import TestSupport
import Testing

/// Edits and deletions on every backend: who may, the limits, and that every reader (live, a
/// resumed one, a new device paging history, a replay of the whole event log) ends on the
/// message as it is now.
@Suite("Message changes contract", .serialized, .timeLimit(.minutes(5)))
struct MessageChangeContractTests {
    @Test(
        "edit: only the author, a retry changes nothing, at most 10 times; history, the live stream and catch-up carry the new text",
        arguments: BackendContractTests.backends)
    func edits(_ backend: ContractBackend) async throws {
        let (harness, _, _, asAda, asGrace, direct) = try await Self.adaAndGrace(on: backend)
        defer { harness.remove() }
        let sent = try await asAda.chat.send(id: .random(), text: "helo", to: direct)
        var live = try await asGrace.events.liveEvents().makeAsyncIterator()

        #expect(await kind { try await asGrace.chat.edit(sent.id, in: direct, text: "mine now") } == .forbidden)
        #expect(await kind { try await asAda.chat.edit(.random(), in: direct, text: "x") } == .notFound)
        #expect(await kind { try await asAda.chat.edit(sent.id, in: direct, text: "   ") } == .invalidInput)
        let edited = try await asAda.chat.edit(sent.id, in: direct, text: "hello")
        #expect(edited.text == "hello" && edited.version == 1 && edited.edited && !edited.deleted && edited.cursor == sent.cursor)
        #expect(try await asAda.chat.edit(sent.id, in: direct, text: "hello") == edited, "the same text again is a retry")

        guard let event = await live.next(), case .messageChanged(let change, let message, let cursor) = event else {
            Issue.record("no change event")
            return
        }
        #expect(change == .edited && message == edited && cursor.position > (sent.cursor?.position ?? .max))
        #expect(try await asGrace.chat.latestMessages(in: direct, limit: 10).messages == [edited])

        for version in 2...ChatRules.maxEdits { _ = try await asAda.chat.edit(sent.id, in: direct, text: "hello \(version)") }
        #expect(await kind { try await asAda.chat.edit(sent.id, in: direct, text: "one too many") } == .conflict)
        let final = try #require(try await asGrace.chat.latestMessages(in: direct, limit: 10).messages.first)
        #expect(final.text == "hello \(ChatRules.maxEdits)" && final.version == ChatRules.maxEdits)

        // A reader that was away since the send catches up: the message event and every edit
        // event carry the message as it is now, so it never shows an older text.
        let missed = try await asGrace.events.events(after: try #require(sent.cursor).before, limit: 100)
        #expect(missed.count == ChatRules.maxEdits + 1 && missed.allSatisfy { $0.messageNow == final })
        #expect(missed.dropFirst().map(\.type) == Array(repeating: UserEvent.MessageChange.edited.rawValue, count: ChatRules.maxEdits))
    }

    @Test(
        "delete: only the author; the text is gone from the store, a tombstone remains; again changes nothing; a deleted message cannot be edited",
        arguments: BackendContractTests.backends)
    func deletions(_ backend: ContractBackend) async throws {
        let (harness, _, _, asAda, asGrace, direct) = try await Self.adaAndGrace(on: backend)
        defer { harness.remove() }
        let secret = "the launch code is 0000-\(UUID().uuidString.prefix(8))"
        let sent = try await asAda.chat.send(id: .random(), text: "first draft of \(secret)", to: direct)
        _ = try await asAda.chat.edit(sent.id, in: direct, text: secret)
        let after = try await asAda.chat.send(id: .random(), text: "after", to: direct)
        var live = try await asGrace.events.liveEvents().makeAsyncIterator()

        #expect(await kind { try await asGrace.chat.delete(sent.id, in: direct) } == .forbidden)
        let tombstone = try await asAda.chat.delete(sent.id, in: direct)
        #expect(tombstone.deleted && tombstone.text.isEmpty && tombstone.id == sent.id && tombstone.cursor == sent.cursor)
        #expect(try await asAda.chat.delete(sent.id, in: direct) == tombstone, "deleting again is a retry")
        #expect(await kind { try await asAda.chat.edit(sent.id, in: direct, text: "undo") } == .conflict)

        let event = await live.next()
        #expect(event?.type == UserEvent.MessageChange.deleted.rawValue && event?.messageNow == tombstone)
        #expect(try await asGrace.chat.latestMessages(in: direct, limit: 10).messages == [tombstone, after])
        let everything = try await asGrace.events.events(after: try #require(sent.cursor).before, limit: 100)
        #expect(!everything.contains { $0.messageNow?.text.contains(secret) == true }, "an event still carries the deleted text")
        #expect(try await storedCopies(of: String(secret.suffix(8)), in: harness) == 0, "the store still holds the deleted text")
        #expect(try await storedCopies(of: after.text, in: harness) == (backend == .memory ? 0 : 1), "the store's reader finds what is there")
        _ = try await asAda.chat.delete(after.id, in: direct)
        let preview = try #require(try await asGrace.conversations.conversations().first?.lastMessage)
        #expect(preview.deleted && preview.text.isEmpty && preview.id == after.id, "the list shows the last message as deleted")
    }

    @Test("an edit window of 24 hours after sending", arguments: BackendContractTests.clockedBackends)
    func editWindow(_ backend: ContractBackend) async throws {
        let (harness, _, _, asAda, _, direct) = try await Self.adaAndGrace(on: backend)
        defer { harness.remove() }
        let sent = try await asAda.chat.send(id: .random(), text: "soon", to: direct)
        harness.clock.advance(by: ChatRules.editWindow - 60)
        #expect(try await asAda.chat.edit(sent.id, in: direct, text: "still in time").version == 1)
        harness.clock.advance(by: 120)
        #expect(await kind { try await asAda.chat.edit(sent.id, in: direct, text: "too late") } == .conflict)
        #expect(try await asAda.chat.delete(sent.id, in: direct).deleted, "a message can be deleted at any time")
    }

    @Test("replaying the whole event log, once or twice, from any cursor, gives the view history gives", arguments: BackendContractTests.backends)
    func replayIsIdempotent(_ backend: ContractBackend) async throws {
        let (harness, _, _, asAda, asGrace, direct) = try await Self.adaAndGrace(on: backend)
        defer { harness.remove() }
        var messages: [Message] = []
        for index in 0..<6 { messages.append(try await asAda.chat.send(id: .random(), text: "m\(index)", to: direct)) }
        _ = try await asAda.chat.edit(messages[1].id, in: direct, text: "m1 edited")
        _ = try await asAda.chat.delete(messages[2].id, in: direct)
        _ = try await asAda.chat.edit(messages[4].id, in: direct, text: "m4 edited")
        _ = try await asAda.chat.edit(messages[4].id, in: direct, text: "m4 edited twice")
        _ = try await asGrace.chat.react(to: messages[4].id, in: direct, with: "🎉", adding: true)
        _ = try await asAda.chat.react(to: messages[5].id, in: direct, with: "🎉", adding: true)
        _ = try await asAda.chat.react(to: messages[5].id, in: direct, with: "🎉", adding: false)
        let history = try await asGrace.chat.latestMessages(in: direct, limit: 50).messages

        let start = try #require(messages[0].cursor).before
        let log = try await asGrace.events.events(after: start, limit: 500)
        func view(applying events: [UserEvent], to initial: [MessageID: Message] = [:]) -> [MessageID: Message] {
            events.reduce(into: initial) { view, event in if let message = event.messageNow { view[message.id] = message } }
        }
        let once = view(applying: log)
        #expect(once == Dictionary(uniqueKeysWithValues: history.map { ($0.id, $0) }))
        #expect(view(applying: log, to: once) == once, "applying the log twice changes the view")
        for cut in log.indices {
            let resumed = try await asGrace.events.events(after: try #require(log[cut].cursor), limit: 500)
            #expect(view(applying: resumed, to: view(applying: Array(log.prefix(cut + 1)))) == once, "resumed after event \(cut)")
        }
    }

    @Test(
        "after leaving a group its author may still delete her message (not edit, not react), and learns nothing more of it; others' messages and a stranger are refused",
        arguments: BackendContractTests.backends)
    func deleteAfterLeaving(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), bob = try await harness.signUp("Bob")
        let asAda = harness.services(for: ada), asGrace = harness.services(for: grace), asBob = harness.services(for: bob)
        let asEve = harness.services(for: try await harness.signUp("Eve"))
        let group = try await harness.group("Crew", by: grace, with: [ada, bob]).id
        let graces = try await asGrace.chat.send(id: .random(), text: "plans for friday", to: group)
        let adas = try await asAda.chat.send(id: .random(), text: "I will regret this", to: group, replyTo: graces.id)
        _ = try await asBob.chat.react(to: adas.id, in: group, with: "😬", adding: true)
        try await asAda.conversations.leave(group)
        _ = try await asGrace.chat.edit(graces.id, in: group, text: "plans for saturday, without Ada")
        var bobHears = try await asBob.events.liveEvents().makeAsyncIterator()

        #expect(await kind { try await asAda.chat.edit(adas.id, in: group, text: "undo") } == .forbidden)
        #expect(await kind { try await asAda.chat.react(to: adas.id, in: group, with: "👍", adding: true) } == .forbidden)
        #expect(await kind { try await asAda.chat.delete(graces.id, in: group) } == .forbidden, "another's message, after leaving")
        #expect(await kind { try await asAda.chat.delete(.random(), in: group) } == .forbidden, "no message: she learns nothing of which exist")
        #expect(await kind { try await asEve.chat.delete(graces.id, in: group) } == .forbidden, "a stranger")
        #expect(await kind { try await asEve.chat.delete(adas.id, in: group) } == .forbidden, "a stranger, another's message")
        #expect(await kind { try await asBob.chat.delete(adas.id, in: group) } == .forbidden, "a member, another's message")

        let tombstone = try await asAda.chat.delete(adas.id, in: group)
        #expect(tombstone.id == adas.id && tombstone.deleted && tombstone.text.isEmpty && tombstone.reactions.isEmpty && tombstone.senderID == ada.id)
        #expect(tombstone.replyTo == nil, "the answer shows her the message she answered as it is now: \(String(describing: tombstone.replyTo))")
        #expect(try await asAda.chat.delete(adas.id, in: group) == tombstone, "deleting again is a retry")
        #expect(await kind { try await asAda.chat.latestMessages(in: group, limit: 10) } == .forbidden, "she still reads nothing of it")

        let event = await bobHears.next()
        #expect(event?.type == UserEvent.MessageChange.deleted.rawValue && event?.messageNow?.id == adas.id && event?.messageNow?.deleted == true)
        let history = try await asBob.chat.latestMessages(in: group, limit: 10).messages
        #expect(
            history.map(\.id) == [graces.id, adas.id] && history.last?.deleted == true && history.last?.text.isEmpty == true
                && history.last?.replyTo?.id == graces.id)
        #expect(try await asGrace.chat.latestMessages(in: group, limit: 10).messages.last == history.last)
    }

    @Test(
        "react: one emoji, added twice counts once, removed, limited per message and per person; each reader is given the counts and their own; live, in history, gone with a deletion",
        arguments: BackendContractTests.backends)
    func reactions(_ backend: ContractBackend) async throws {
        let (harness, ada, grace, asAda, asGrace, direct) = try await Self.adaAndGrace(on: backend)
        defer { harness.remove() }
        let sent = try await asAda.chat.send(id: .random(), text: "lunch?", to: direct)
        var live = try await asAda.events.liveEvents().makeAsyncIterator()

        let liked = try await asGrace.chat.react(to: sent.id, in: direct, with: "👍", adding: true)
        #expect(liked.reactions == ["👍": [grace.id]] && liked.reactionCounts == ["👍": 1] && liked.text == "lunch?")
        #expect(try await asGrace.chat.react(to: sent.id, in: direct, with: "👍", adding: true) == liked, "a reaction added twice counts once")
        // The event carries the reactions alone, not the message's text; Ada is told how many, not who (ADR 30).
        let event = await live.next()
        #expect(
            event?.type == UserEvent.MessageChange.reacted.rawValue
                && event?.reactionsNow == MessageReactions(conversationID: direct, messageID: sent.id, reactions: [:], reactionCounts: ["👍": 1]))
        let both = try await asAda.chat.react(to: sent.id, in: direct, with: "👍", adding: true)
        #expect(both.reactions == ["👍": [ada.id]] && both.reactionCounts == ["👍": 2], "Ada's own, and how many")
        let taken = try await asGrace.chat.react(to: sent.id, in: direct, with: "👍", adding: false)
        #expect(taken.reactions.isEmpty && taken.reactionCounts == ["👍": 1])
        #expect(try await asGrace.chat.react(to: sent.id, in: direct, with: "❤️", adding: false) == taken, "nothing to remove")
        for bad in ["ab", "👍👍", "x", " ", "\u{1B}", "", "1", "👍\u{202E}", String(repeating: "\u{1F3FB}", count: 9)] {
            #expect(
                await kind { try await asGrace.chat.react(to: sent.id, in: direct, with: bad, adding: true) } == .invalidInput,
                "\(bad.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        let emoji = ["😀", "😂", "🥲", "😍", "🤔", "😴", "🤯", "🥳", "😎", "🤖", "👻", "🎉", "🔥", "💯", "🚀", "🌈", "🍕", "☕️", "🐢", "🦄", "🌵"]
        for index in 0..<ChatRules.maxReactionsPerPerson {
            _ = try await asGrace.chat.react(to: sent.id, in: direct, with: emoji[index], adding: true)
        }
        #expect(
            await kind { try await asGrace.chat.react(to: sent.id, in: direct, with: emoji[10], adding: true) } == .conflict, "11 of one person's")
        for index in ChatRules.maxReactionsPerPerson..<(ChatRules.maxReactionKinds - 1) {
            _ = try await asAda.chat.react(to: sent.id, in: direct, with: emoji[index], adding: true)
        }
        let full = try #require(try await asGrace.chat.latestMessages(in: direct, limit: 5).messages.first)
        #expect(full.reactionCounts.count == ChatRules.maxReactionKinds && full.reactions.count == ChatRules.maxReactionsPerPerson)
        #expect(full.reactions.values.allSatisfy { $0 == [grace.id] }, "Grace's own, named")
        #expect(await kind { try await asAda.chat.react(to: sent.id, in: direct, with: emoji[20], adding: true) } == .conflict, "a 21st kind")

        let tombstone = try await asAda.chat.delete(sent.id, in: direct)
        #expect(tombstone.reactions.isEmpty)
        #expect(await kind { try await asGrace.chat.react(to: sent.id, in: direct, with: "👍", adding: true) } == .conflict)
    }

    @Test(
        "a reply sent in one batch right behind the message it answers is stored answering it, as it would be sent after it",
        arguments: BackendContractTests.backends)
    func replyInTheSameBatch(_ backend: ContractBackend) async throws {
        let (harness, _, _, asAda, _, direct) = try await Self.adaAndGrace(on: backend)
        defer { harness.remove() }
        let (question, answer) = (MessageID.random(), MessageID.random())
        let outcomes = await asAda.chat.send([
            Message.Draft(id: question, conversationID: direct, text: "lunch?"),
            Message.Draft(id: answer, conversationID: direct, text: "yes, at noon", replyTo: question),
        ])
        let stored = try outcomes.map { try $0.get() }
        #expect(stored.map(\.id) == [question, answer])
        #expect(stored.last?.replyTo == Message.Reply(id: question, text: "lunch?", deleted: false))
    }

    @Test(
        "reply: a message answers one of its conversation and quotes its current text, or says it was deleted",
        arguments: BackendContractTests.backends)
    func replies(_ backend: ContractBackend) async throws {
        let (harness, ada, grace, asAda, asGrace, direct) = try await Self.adaAndGrace(on: backend)
        defer { harness.remove() }
        let long = String(repeating: "ab", count: 60)
        let question = try await asAda.chat.send(id: .random(), text: long, to: direct)
        var live = try await asAda.events.liveEvents().makeAsyncIterator()
        let answer = try await asGrace.chat.send(id: .random(), text: "yes", to: direct, replyTo: question.id)
        #expect(await live.next()?.messageNow == answer, "the reply arrives live with its quote")
        #expect(
            answer.replyTo == Message.Reply(id: question.id, text: long, deleted: false) && answer.replyTo?.quote.count == Message.Reply.quoteLength)
        #expect(
            try await asAda.chat.latestMessages(in: direct, limit: 5).messages.last?.replyTo?.quote == String(long.prefix(Message.Reply.quoteLength)))

        _ = try await asAda.chat.edit(question.id, in: direct, text: "coffee?")
        #expect(try await asAda.chat.latestMessages(in: direct, limit: 5).messages.last?.replyTo?.quote == "coffee?", "the quote is the current text")
        _ = try await asAda.chat.delete(question.id, in: direct)
        let quoted = try #require(try await asAda.chat.latestMessages(in: direct, limit: 5).messages.last?.replyTo)
        #expect(quoted.deleted && quoted.quote.isEmpty && quoted.id == question.id)
        let events = try await asAda.events.events(after: try #require(answer.cursor).before, limit: 10)
        #expect(events.first?.messageNow?.replyTo == quoted, "a reader catching up sees the quote as it is now")

        #expect(await kind { try await asGrace.chat.send(id: .random(), text: "to nothing", to: direct, replyTo: .random()) } == .notFound)
        let elsewhere = try await harness.direct(ada, try await harness.signUp("Eve"))
        let other = try await asAda.chat.send(id: .random(), text: "not here", to: elsewhere.id)
        #expect(
            await kind { try await asGrace.chat.send(id: .random(), text: "across", to: direct, replyTo: other.id) } == .notFound,
            "a reply answers a message of its own conversation")
        #expect(try await asAda.chat.latestMessages(in: direct, limit: 10).messages.count == 2, "a refused reply stored nothing")
        _ = grace
    }

    @Test(
        "read receipts: members see how far the others read, live; a person may keep theirs private, and then sees no one's",
        arguments: BackendContractTests.backends)
    func receipts(_ backend: ContractBackend) async throws {
        let (harness, ada, grace, asAda, asGrace, direct) = try await Self.adaAndGrace(on: backend)
        defer { harness.remove() }
        _ = try await asAda.chat.send(id: .random(), text: "one", to: direct)
        let two = try await asAda.chat.send(id: .random(), text: "two", to: direct)
        #expect(try await asAda.chat.receipts(in: direct) == [ReadReceipt(userID: grace.id, readCount: 0, lastRead: nil)])
        #expect(try await asGrace.chat.receipts(in: direct) == [ReadReceipt(userID: ada.id, readCount: 2, lastRead: two.id)], "sending reads")

        var live = try await asAda.events.liveEvents().makeAsyncIterator()
        try await asGrace.chat.markRead(direct)
        #expect(
            await live.next() == .change(.readMarkerMoved(in: direct, by: grace.id), cursor: try #require(try await asGrace.events.newestCursor())))
        #expect(try await asAda.chat.receipts(in: direct) == [ReadReceipt(userID: grace.id, readCount: 2, lastRead: two.id)])

        try await asGrace.chat.setReceiptsPrivate(true)
        #expect(try await asAda.chat.receipts(in: direct).isEmpty, "Grace keeps hers private")
        #expect(try await asGrace.chat.receipts(in: direct).isEmpty, "and sees no one's")
        let three = try await asAda.chat.send(id: .random(), text: "three", to: direct)
        try await asGrace.chat.markRead(direct)
        let marker = try await asAda.chat.send(id: .random(), text: "after", to: direct)
        while let event = await live.next(), event.message?.id != marker.id {
            #expect(event.message != nil, "Ada saw a private reader's marker move: \(event)")
        }
        try await asGrace.chat.setReceiptsPrivate(false)
        #expect(try await asAda.chat.receipts(in: direct) == [ReadReceipt(userID: grace.id, readCount: 3, lastRead: three.id)], "shared again")
        #expect(
            await kind {
                _ = try await Self.outsider(harness).chat.receipts(in: direct)
                return three
            } == .forbidden)
    }

    @Test("no read receipt passes between a blocked person and who blocked them, in a group they share", arguments: BackendContractTests.backends)
    func receiptsAndBlocks(_ backend: ContractBackend) async throws {
        let (harness, ada, grace, asAda, asGrace, _) = try await Self.adaAndGrace(on: backend)
        defer { harness.remove() }
        let mallory = try await harness.signUp("Mallory")
        let asMallory = harness.services(for: mallory)
        let group = try await harness.group("Shared", by: grace, with: [ada, mallory]).id
        try await asAda.conversations.block(mallory.id)
        let adaHears = try await asAda.events.liveEvents().makeAsyncIterator()
        let malloryHears = try await asMallory.events.liveEvents().makeAsyncIterator()
        _ = try await asGrace.chat.send(id: .random(), text: "hello all", to: group)
        try await asMallory.chat.markRead(group)
        try await asAda.chat.markRead(group)
        let marker = try await asGrace.chat.send(id: .random(), text: "marker", to: group)
        for (name, hears) in [("Ada", adaHears), ("Mallory", malloryHears)] {
            var iterator = hears
            var reads: [UserID] = []
            while let event = await iterator.next(), event.message?.id != marker.id {
                if case .change(let change, _) = event, change.kind == .readMarkerMoved, let reader = change.userID { reads.append(reader) }
            }
            #expect(reads == [name == "Ada" ? ada.id : mallory.id], "\(name) heard others read: \(reads)")
        }
        #expect(try await asAda.chat.receipts(in: group).map(\.userID) == [grace.id])
        #expect(try await asMallory.chat.receipts(in: group).map(\.userID) == [grace.id])
        #expect(Set(try await asGrace.chat.receipts(in: group).map(\.userID)) == [ada.id, mallory.id])
    }

    @Test(
        "a blocked person's reactions never reach who blocked them, nor theirs the blocked, in a group they share, counted or named: live, in catch-up and in history",
        arguments: BackendContractTests.backends)
    func reactionsAndBlocks(_ backend: ContractBackend) async throws {
        let (harness, ada, grace, asAda, asGrace, _) = try await Self.adaAndGrace(on: backend)
        defer { harness.remove() }
        let mallory = try await harness.signUp("Mallory")
        let asMallory = harness.services(for: mallory)
        let group = try await harness.group("Shared", by: grace, with: [ada, mallory]).id
        try await asAda.conversations.block(mallory.id)
        let post = try await asGrace.chat.send(id: .random(), text: "vote", to: group)
        var adaHears = try await asAda.events.liveEvents().makeAsyncIterator()
        var malloryHears = try await asMallory.events.liveEvents().makeAsyncIterator()

        _ = try await asMallory.chat.react(to: post.id, in: group, with: "👎", adding: true)
        _ = try await asAda.chat.react(to: post.id, in: group, with: "👍", adding: true)
        let seen = try await asGrace.chat.react(to: post.id, in: group, with: "🎉", adding: true)
        #expect(seen.reactions == ["🎉": [grace.id]] && seen.reactionCounts == ["👎": 1, "👍": 1, "🎉": 1], "Grace, blocking no one, counts all")
        // Each event carries the reactions as they are when read (ADR 23), and reactions read
        // together go out once (ADR 28), so how many events come and what an early one shows
        // depend on the store; none shows what the reader must not see.
        let seenBy = { (reactions: [String: [UserID]], counts: [String: Int]) in
            MessageReactions(conversationID: group, messageID: post.id, reactions: reactions, reactionCounts: counts)
        }
        let adaSees = seenBy(["👍": [ada.id]], ["👍": 1, "🎉": 1]), mallorySees = seenBy(["👎": [mallory.id]], ["👎": 1, "🎉": 1])
        var adaSaw: [MessageReactions] = [], mallorySaw: [MessageReactions] = []
        while adaSaw.last != adaSees, let event = await adaHears.next() { if let now = event.reactionsNow { adaSaw.append(now) } }
        while mallorySaw.last != mallorySees, let event = await malloryHears.next() { if let now = event.reactionsNow { mallorySaw.append(now) } }
        #expect(adaSaw.allSatisfy { $0.reactionCounts["👎"] == nil } && adaSaw.last == adaSees, "live, Ada saw \(adaSaw)")
        #expect(mallorySaw.allSatisfy { $0.reactionCounts["👍"] == nil } && mallorySaw.last == mallorySees, "live, Mallory saw \(mallorySaw)")

        let cursor = try #require(post.cursor)
        let caughtUp = try await asAda.events.events(after: cursor, limit: 10).compactMap(\.reactionsNow)
        #expect(
            caughtUp.allSatisfy { $0.reactionCounts["👎"] == nil && $0.reactions.keys.allSatisfy { $0 == "👍" } } && caughtUp.count == 3,
            "catch-up: \(caughtUp)")
        #expect(try await asAda.chat.latestMessages(in: group, limit: 5).messages.map(MessageReactions.init(of:)) == [adaSees])
        #expect(try await asMallory.chat.latestMessages(in: group, limit: 5).messages.map(MessageReactions.init(of:)) == [mallorySees])
        #expect(try await asGrace.chat.latestMessages(in: group, limit: 5).messages.map(MessageReactions.init(of:)) == [MessageReactions(of: seen)])
    }

    /// Someone in no conversation with anyone.
    private static func outsider(_ harness: BackendHarness) async throws -> ServiceSet {
        harness.services(for: try await harness.signUp("Eve"))
    }

    /// Ada and Grace on `backend`, each with their services, in a one-to-one.
    private static func adaAndGrace(on backend: ContractBackend) async throws
        -> (BackendHarness, BackendHarness.User, BackendHarness.User, ServiceSet, ServiceSet, ConversationID)
    {
        let harness = try await BackendHarness(backend)
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        return (harness, ada, grace, harness.services(for: ada), harness.services(for: grace), try await harness.direct(ada, grace).id)
    }

    /// The kind of error `operation` throws, if any.
    private func kind<Value>(_ operation: () async throws -> Value) async -> AppError.Kind? {
        do {
            _ = try await operation()
            return nil
        } catch {
            return AppError(error).kind
        }
    }

    /// How many rows of the store's message tables hold `text`, read as an operator would: with
    /// `psql`, or the `sqlite3` shell on the file; 0 for the memory backend, which has no store to read.
    private func storedCopies(of text: String, in harness: BackendHarness) async throws -> Int {
        let query = "SELECT count(*) FROM messages WHERE text LIKE '%\(text)%'"
        switch harness.graph.options.backend {
        case .postgres: return Int(try await harness.psql(query).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        case .remote where harness.postgresURL != nil: return Int(try await harness.psql(query).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        case .sqlite, .remote:
            let run = try SpawnedProgram.run(["/usr/bin/sqlite3", harness.folder.appendingPathComponent("contract.sqlite").path, query])
            return Int(run.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        case .memory: return 0
        }
    }
}

extension EventCursor {
    /// The cursor just before this one: where a reader that has seen everything before it stands.
    var before: EventCursor { EventCursor(epoch: epoch, position: position - 1) }
}

extension UserEvent {
    /// The reactions of a `chat.reacted` event.
    fileprivate var reactionsNow: MessageReactions? {
        if case .reacted(let now, _) = self { now } else { nil }
    }
}
