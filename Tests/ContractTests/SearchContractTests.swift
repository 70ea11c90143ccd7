import Chat
import Foundation
import Kernel
import Search
import ServiceGraph
import TestSupport
import Testing

/// Search on every backend: a person finds the messages of their own conversations as they are
/// now, whatever the case, accents and script, and nothing of anyone else's.
@Suite("Search contract", .serialized, .timeLimit(.minutes(3)))
struct SearchContractTests {
    @Test("found by its words now: an edited message by its new words and not its old, a deleted one never; only the caller's conversations",
          arguments: BackendContractTests.backends)
    func findsWhatIsThereNow(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), eve = try await harness.signUp("Eve")
        let (asAda, asGrace, asEve) = (harness.services(for: ada), harness.services(for: grace), harness.services(for: eve))
        let direct = try await harness.direct(ada, grace).id
        let theirs = try await harness.direct(grace, eve).id
        _ = try await asGrace.chat.send(id: .random(), text: "Meet at the CAFÉ Müller at noon", to: direct)
        let typo = try await asAda.chat.send(id: .random(), text: "the draft is in teh folder", to: direct)
        _ = try await asAda.chat.edit(typo.id, in: direct, text: "the draft is in the folder")
        let secret = try await asAda.chat.send(id: .random(), text: "the vault code is zebra", to: direct)
        _ = try await asAda.chat.delete(secret.id, in: direct)
        _ = try await asAda.chat.send(id: .random(), text: "Привет, встреча в Τόκιο, 東京タワー", to: direct)
        _ = try await asEve.chat.send(id: .random(), text: "a cafe only Grace and Eve share", to: theirs)

        func found(_ query: String, by services: ServiceSet = asAda, in conversation: ConversationID? = nil) async throws -> [String] {
            try await services.search.search(query, in: conversation, limit: 20, before: nil).hits.map(\.snippet)
        }
        #expect(try await found("cafe") == ["Meet at the CAFÉ Müller at noon"], "Ada finds nothing of Grace and Eve's conversation")
        #expect(try await found("müll*") == ["Meet at the CAFÉ Müller at noon"])
        #expect(try await found("the folder").count == 1, "an edited message by its text now")
        #expect(try await found("teh").isEmpty, "and not by its text before")
        #expect(try await found("zebra").isEmpty, "a deleted message is never found")
        #expect(try await found("vault").isEmpty)
        for word in ["ПРИВЕТ", "τοκιο", "東京"] { #expect(try await found(word).count == 1, "\(word)") }
        #expect(try await found("cafe", by: asGrace).count == 2)
        #expect(try await found("cafe", by: asGrace, in: theirs) == ["a cafe only Grace and Eve share"])
        await #expect(throws: AppError.self, "Ada may not search a conversation she is not in") { try await found("cafe", in: theirs) }

        // Invited to a group and not yet joined: nothing of it is found.
        let group = try await asEve.conversations.createGroup(title: "Eve's", memberIDs: [ada.id]).id
        _ = try await asEve.chat.send(id: .random(), text: "a cafe meeting for the group", to: group)
        #expect(try await found("meeting").isEmpty, "an invitation shows nothing of the conversation")
        await #expect(throws: AppError.self) { try await found("meeting", in: group) }
    }

    @Test("results come newest first across conversations", arguments: BackendContractTests.backends)
    func newestFirstAcrossConversations(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), eve = try await harness.signUp("Eve")
        let asAda = harness.services(for: ada)
        let withGrace = try await harness.direct(ada, grace).id, withEve = try await harness.direct(ada, eve).id
        var sent: [MessageID] = []
        for (index, conversation) in [withGrace, withEve, withGrace, withEve].enumerated() {
            sent.append(try await asAda.chat.send(id: .random(), text: "lighthouse \(index)", to: conversation).id)
        }
        #expect(try await asAda.search.search("lighthouse", in: nil, limit: 10, before: nil).hits.map(\.id) == sent.reversed())
    }

    @Test("pages, with 1 and with 2 hits a page, give every hit once, newest first, until hasMore is false, though two conversations each hold a message of the same id",
          arguments: BackendContractTests.backends)
    func pagesThroughEveryHit(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), eve = try await harness.signUp("Eve")
        let asAda = harness.services(for: ada)
        let withGrace = try await harness.direct(ada, grace).id, withEve = try await harness.direct(ada, eve).id
        // As `send --id daily-report` in each: an id is unique within its conversation only.
        let plan: [(ConversationID, MessageID)] = [(withGrace, .random()), (withGrace, MessageID("daily-report")), (withEve, .random()),
                                                    (withEve, MessageID("daily-report")), (withGrace, .random()), (withEve, .random())]
        var sent: [String] = []
        for (index, (conversation, id)) in plan.enumerated() {
            let message = try await asAda.chat.send(id: id, text: "the daily report number \(index)", to: conversation)
            sent.insert("\(message.conversationID.rawValue)/\(message.id.rawValue)", at: 0)
            _ = try await asAda.chat.send(id: .random(), text: "nothing to find here \(index)", to: conversation)
        }
        for limit in [1, 2] {
            var pages: [[SearchHit]] = []
            var before: Int64?
            // Bounded, so that a page token that leads back makes the test fail, not hang.
            while pages.count <= plan.count {
                let page = try await asAda.search.search("report", in: nil, limit: limit, before: before)
                pages.append(page.hits)
                guard page.hasMore, let last = page.hits.last else { break }
                before = last.cursor
            }
            let found = pages.joined().map { "\($0.conversationID.rawValue)/\($0.id.rawValue)" }
            #expect(found == sent, "limit \(limit): every hit once, newest first")
            #expect(pages.count == (plan.count + limit - 1) / limit && pages.allSatisfy { !$0.isEmpty }, "limit \(limit): \(pages.map(\.count))")
        }
    }

    @Test("SQLite: the sqlite3 shell finds the index's words, folded, and no row of a deleted message; a message the shell rewrites is not shown by its old words")
    func sqliteIndexFromOutside() async throws {
        let harness = try await BackendHarness(.sqlite)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let direct = try await harness.direct(ada, grace).id
        let asAda = harness.services(for: ada)
        let kept = try await asAda.chat.send(id: .random(), text: "Crème Brûlée at 東京", to: direct)
        let gone = try await asAda.chat.send(id: .random(), text: "the quokka password", to: direct)
        _ = try await asAda.chat.delete(gone.id, in: direct)
        // A search first brings the index up to date.
        #expect(try await asAda.search.search("brulee", in: nil, limit: 5, before: nil).hits.map(\.id) == [kept.id])
        let file = harness.folder.appendingPathComponent("contract.sqlite").path
        let words = try await ForeignProgram.query("SELECT words FROM search_index", on: file)
        #expect(words.status == 0 && words.output == "creme brulee at 東 京", "\(words.output) \(words.errors)")
        let quokka = try await ForeignProgram.query("SELECT count(*) FROM search_index WHERE search_index MATCH 'quokka'", on: file)
        #expect(quokka.output == "0", "a deleted message's words are found: \(quokka.output)")
        let write = try await ForeignProgram.query("UPDATE messages SET text = 'rewritten' WHERE id = '\(kept.id.rawValue)'", on: file)
        #expect(write.status == 0, "\(write.errors)")
        #expect(try await asAda.search.search("brulee", in: nil, limit: 5, before: nil).hits.isEmpty, "shown by the words it no longer has")
    }
}
