import Chat
import Foundation
import GRDB
import Kernel
import Logging
import PostgresStore
import Search
import ServiceGraph
import TestSupport
import Testing

@testable import SearchLive

/// Search on every backend: a person finds the messages of their own conversations as they are
/// now, whatever the case, accents and script, and nothing of anyone else's.
@Suite("Search contract", .serialized, .timeLimit(.minutes(3)))
struct SearchContractTests {
    @Test(
        "found by its words now: an edited message by its new words and not its old, a deleted one never; only the caller's conversations",
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

    @Test(
        "pages, with 1 and with 2 hits a page, give every hit once, newest first, until hasMore is false, though two conversations each hold a message of the same id",
        arguments: BackendContractTests.backends)
    func pagesThroughEveryHit(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), eve = try await harness.signUp("Eve")
        let asAda = harness.services(for: ada)
        let withGrace = try await harness.direct(ada, grace).id, withEve = try await harness.direct(ada, eve).id
        // As `send --id daily-report` in each: an id is unique within its conversation only.
        let plan: [(ConversationID, MessageID)] = [
            (withGrace, .random()), (withGrace, MessageID("daily-report")), (withEve, .random()),
            (withEve, MessageID("daily-report")), (withGrace, .random()), (withEve, .random()),
        ]
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

    @Test(
        "words of 4,000 and 2,100 letters and a character of 1,500 combining marks are indexed (cut, on every store), a word found by what it starts with; an ordinary message after them is found",
        arguments: BackendContractTests.backends)
    func longWords(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let (asAda, asGrace) = (harness.services(for: ada), harness.services(for: grace))
        let direct = try await harness.direct(ada, grace).id
        let word = "q" + String(repeating: "a", count: 3_999)
        let long = try await asGrace.chat.send(id: .random(), text: word, to: direct)
        // PostgreSQL 15 takes a lexeme of 2,048 bytes or more and keeps its length modulo 2,048 (later ones refuse it).
        let other = "r" + String(repeating: "b", count: 2_099)
        let wrapped = try await asGrace.chat.send(id: .random(), text: other, to: direct)
        // One character (a letter and its spacing marks, which folding keeps) of 4,503 bytes; and one of a letter and 1,000 joiners.
        let marks = try await asGrace.chat.send(id: .random(), text: "grapheme \u{0B95}" + String(repeating: "\u{0BBE}", count: 1_500), to: direct)
        let joined = try await asGrace.chat.send(id: .random(), text: "joiners z" + String(repeating: "\u{200D}", count: 1_000), to: direct)
        let ordinary = try await asGrace.chat.send(id: .random(), text: "an ordinary message after them", to: direct)
        func found(_ query: String) async throws -> [MessageID] {
            try await asAda.search.search(query, in: nil, limit: 20, before: nil).hits.map(\.id)
        }
        #expect(try await found("ordinary") == [ordinary.id], "the index moved past them")
        #expect(try await found(String(word.prefix(250)) + "*") == [long.id], "the long word by what it starts with")
        #expect(try await found(String(word.prefix(255))).isEmpty, "a word is whole: its first 255 letters are another word")
        #expect(try await found(String(other.prefix(250)) + "*") == [wrapped.id])
        #expect(try await found("grapheme") == [marks.id])
        #expect(try await found("\u{0B95}" + String(repeating: "\u{0BBE}", count: 80)).isEmpty, "a word is whole")
        #expect(try await found("joiners") == [joined.id])
    }

    @Test(
        "queries no input can change the syntax of: quotes, backslashes and operators inside a word or around it answer a page, or are refused as input",
        arguments: BackendContractTests.backends)
    func hostileQueries(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let asAda = harness.services(for: ada)
        let direct = try await harness.direct(ada, grace).id
        // U+0D4E (a "prepend" letter) makes one character of itself and the quote after it.
        let quoted = try await asAda.chat.send(id: .random(), text: "x\u{0D4E}\"y it's a back\\slash", to: direct)
        let queries = [
            "x\u{0D4E}\"y", "x\u{0D4E}'y", "x\u{0D4E}\\y", "x\u{0D4E}''y", "x\u{0D4E}\\'y", "\u{0D4E}\"", "\u{0D4E}'\u{0D4E}\\",
            "\"", "'", "it's", "'it'", "a\"b", "back\\slash", "\\", "*", "ab*c", "ab**", "a:b", "ab:*", "x:*", "a & b | !c (d)", "&|!()",
            "!x", "(x", "x)", "a <-> b", "NEAR(a b)", "a AND b OR NOT c", "^x", "x\u{0D4E}*", "x\u{0D4E}:*y", "{x}", "x\u{0D4E}{y",
        ]
        for query in queries {
            do {
                _ = try await asAda.search.search(query, in: nil, limit: 5, before: nil)
            } catch let error as AppError where error.kind == .invalidInput {
            } catch {
                Issue.record("\(query.debugDescription): \(error)")
            }
        }
        #expect(try await asAda.search.search("x\u{0D4E}\"y", in: nil, limit: 5, before: nil).hits.map(\.id) == [quoted.id])
        #expect(try await asAda.search.search("back\\slash it's", in: nil, limit: 5, before: nil).hits.map(\.id) == [quoted.id])
    }

    @Test("PostgreSQL: a message whose words the database refuses is left out of the index, which moves on past it; searches answer")
    func postgresRowRefused() async throws {
        let harness = try await BackendHarness(.postgres)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let asAda = harness.services(for: ada)
        let direct = try await harness.direct(ada, grace).id
        // Any refusal will do: a trigger refuses the words of one message, as PostgreSQL refused a word of 2,048 bytes.
        _ = try await harness.psql(
            """
            CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN IF NEW.words @@ 'poison'::tsquery THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$;
            CREATE TRIGGER refuse_poison BEFORE INSERT OR UPDATE ON search_words FOR EACH ROW EXECUTE FUNCTION refuse_poison();
            """)
        _ = try await asAda.chat.send(id: .random(), text: "a searchable message", to: direct)
        _ = try await asAda.chat.send(id: .random(), text: "the poison pill", to: direct)
        let after = try await asAda.chat.send(id: .random(), text: "searchable after the pill", to: direct)
        #expect(try await asAda.search.search("searchable", in: nil, limit: 5, before: nil).hits.first?.id == after.id)
        let marks = try await harness.psql(
            "SELECT (SELECT seq FROM search_progress) = (SELECT max(seq) FROM messages), (SELECT count(*) FROM search_words)")
        #expect(marks.trimmingCharacters(in: .whitespacesAndNewlines) == "t|2", "\(marks)")
    }

    @Test(
        "PostgreSQL: should the database refuse a batch of words, each message is written alone; one it refuses is left out and logged by its key, never its text"
    )
    func postgresRefusedWordsLogged() async throws {
        let log = LogCapture()
        let logger = Logger(label: "test") { _ in LogCapture.Handler(capture: log) }
        let database = try await PGDatabase.open(
            try await PostgresCluster.shared().database(), migrations: PostgresSearchIndex.migrations, connections: 1,
            logger: Logger(label: "test"))
        defer { database.close() }
        // Words PostgreSQL refuses (text holding NUL; no message's words do), so this batch is made by hand.
        let refused = "secret\u{0}"
        try await database.write(ordered: false) { transaction in
            try await PostgresSearchIndex.write(
                [(key: 1, words: "one first"), (key: 2, words: "two \(refused)"), (key: 3, words: "three")],
                in: transaction, logger: logger)
        }
        let rows = try await database.query("SELECT seq FROM search_words ORDER BY seq").map { try $0.decode(Int64.self) }
        #expect(rows == [1, 3])
        #expect(log.lines.count == 1 && log.text.hasPrefix("error") && log.text.contains("key=2") && log.text.contains("state=22021"), "\(log.text)")
        #expect(!log.text.contains("secret") && !log.text.contains("two"), "the text is never logged: \(log.text)")
        // The quoting of a tsquery's lexemes, by PostgreSQL itself: a word with a quote and a backslash is one lexeme.
        let hostile = "a\"b'c\\d:*&|!"
        let matched = try await database.query("SELECT array_to_tsvector(ARRAY[\(hostile)]) @@ \(PostgresSearchStore.quoted(hostile))::tsquery")
        #expect(try matched.first?.decode(Bool.self) == true)
    }

    @Test(
        "the FTS5 expression and the tsquery quote every word, doubling a quote (and escaping a tsquery's backslash), and look words up as the index holds them: cut"
    )
    func queriesQuoteTheirWords() async throws {
        #expect(SQLSearchStore.quoted(["a\"b'c\\d", "e"]) == #""a""b'c\d e""#)
        #expect(PostgresSearchStore.quoted("a\"b'c\\d") == #"'a"b''c\\d'"#)
        let conversations = [ConversationID("c-1"), ConversationID("c-2")]
        #expect(
            SQLSearchStore.match(try SearchQuery(#"café mess* "e-mail x""#), in: conversations)
                == #""cafe" AND "mess"* AND "e mail x" AND ("@632d31" OR "@632d32")"#)
        #expect(
            PostgresSearchStore.tsquery(try SearchQuery(#"café mess* "e-mail x""#), in: conversations)
                == "'cafe' & 'mess':* & 'e' & 'mail' & 'x' & ('@632d31' | '@632d32')")
        let long = String(repeating: "é", count: 128)
        #expect(
            SQLSearchStore.match(try SearchQuery(long), in: [conversations[0]]) == "\"\(String(repeating: "e", count: 128))\" AND (\"@632d31\")",
            "folded: 128 bytes, not cut")
        let cut = String(repeating: "ж", count: 127)
        #expect(
            PostgresSearchStore.tsquery(try SearchQuery(cut + "ж"), in: [conversations[0]]) == "'\(cut)' & ('@632d31')", "256 bytes, cut to 254")
        // FTS5 itself reads a quoted string with quotes in it as a phrase of its words.
        let queue = try DatabaseQueue()
        let count = try await queue.write { db in
            try db.execute(
                sql: "CREATE VIRTUAL TABLE t USING fts5(words, tokenize = 'unicode61 remove_diacritics 0'); INSERT INTO t VALUES ('a b c d')")
            return try Int.fetchOne(
                db, sql: "SELECT count(*) FROM t WHERE t MATCH ?",
                arguments: [SQLSearchStore.quoted(["a"]) + " AND " + SQLSearchStore.quoted(["a\"b'c", "d*"])])
        }
        #expect(count == 1)
    }

    @Test(
        "the index gives a search the matches of the caller's conversations alone: none of 300 others' for a stranger, so its cost follows what they read (L6)",
        arguments: [ContractBackend.sqlite, .postgres])
    func indexWalksTheCallersConversations(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), eve = try await harness.signUp("Eve")
        let direct = try await harness.direct(ada, grace).id, evesOwn = try await harness.direct(eve, grace).id
        let (asAda, asEve) = (harness.services(for: ada), harness.services(for: eve))
        for number in 1...300 { _ = try await asAda.chat.send(id: .random(), text: "the common word, number \(number)", to: direct) }
        _ = try await asEve.chat.send(id: .random(), text: "nothing in common", to: evesOwn)
        #expect(try await asEve.search.search("word", in: nil, limit: 20, before: nil).hits.isEmpty)
        // What the index yields for each one's search, asked from outside, before any message is read.
        let query = try SearchQuery("common word")
        func matches(in conversations: [ConversationID]) async throws -> String {
            if backend == .postgres {
                let tsquery = PostgresSearchStore.tsquery(query, in: conversations).replacingOccurrences(of: "'", with: "''")
                return try await harness.psql("SELECT count(*) FROM search_words WHERE words @@ '\(tsquery)'::tsquery")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let file = harness.folder.appendingPathComponent("contract.sqlite").path
            let match = SQLSearchStore.match(query, in: conversations).replacingOccurrences(of: "'", with: "''")
            return try await ForeignProgram.query("SELECT count(*) FROM search_index WHERE search_index MATCH '\(match)'", on: file).output
        }
        #expect(try await matches(in: [evesOwn]) == "0", "Eve's search walks Ada's matches")
        #expect(try await matches(in: [direct]) == "300")
        #expect(try await asAda.search.search("common word", in: nil, limit: 20, before: nil).hasMore)
    }

    @Test(
        "SQLite: the sqlite3 shell finds the index's words, folded, and no row of a deleted message; a message the shell rewrites is not shown by its old words"
    )
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
        #expect(
            words.status == 0 && words.output == "creme brulee at 東 京 \(SearchQuery.lexeme(of: direct))", "\(words.output) \(words.errors)")
        let quokka = try await ForeignProgram.query("SELECT count(*) FROM search_index WHERE search_index MATCH 'quokka'", on: file)
        #expect(quokka.output == "0", "a deleted message's words are found: \(quokka.output)")
        let write = try await ForeignProgram.query("UPDATE messages SET text = 'rewritten' WHERE id = '\(kept.id.rawValue)'", on: file)
        #expect(write.status == 0, "\(write.errors)")
        #expect(try await asAda.search.search("brulee", in: nil, limit: 5, before: nil).hits.isEmpty, "shown by the words it no longer has")
    }
}
