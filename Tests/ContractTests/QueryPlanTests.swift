import Foundation
import GRDB
import Kernel
import Search
import Testing

@testable import ChatLive
@testable import ConversationListLive
@testable import SearchLive
@testable import ServiceGraph

/// How SQLite plans the hot statements of the SQLite store (`EXPLAIN QUERY PLAN` of the SQL the
/// store runs, read from its code), on a file the services made: while it is empty, once it is
/// full, and once ANALYZE has given the planner statistics (`sqlite_stat1`, which an operator's
/// `ANALYZE` or `PRAGMA optimize` makes). Each statement reaches `messages` by a key or an index
/// range, never by a scan of the table, and the memberships by their key.
@Suite("SQLite query plans")
struct QueryPlanTests {
    /// A statement of the store, the arguments it is run with, and what its plan must show.
    struct Statement {
        let name: String
        let sql: String
        let arguments: StatementArguments
        /// Details the plan must contain (an index use), each a line's beginning.
        let uses: [String]
    }

    static let source = SearchSchema.Source.chatAndList

    static func statements(conversation: String, reader: String) -> [Statement] {
        [
            Statement(
                name: "the writer's look-up of ids already stored", sql: ChatStatements.storedMessages,
                arguments: ["[\"m-1\",\"m-2\"]", conversation],
                uses: [
                    "SCAN ids VIRTUAL TABLE", "SEARCH m USING INDEX sqlite_autoindex_messages_1 (conversation_id=? AND id=?)",
                    "SEARCH q USING INDEX sqlite_autoindex_messages_1 (conversation_id=? AND id=?)",
                ]),
            Statement(
                name: "the messages a read of change rows changed", sql: ChatStatements.changedMessages,
                arguments: ["[[\"\(conversation)\",\"m-1\"]]"],
                uses: [
                    "SCAN k VIRTUAL TABLE", "SEARCH m USING INDEX sqlite_autoindex_messages_1 (conversation_id=? AND id=?)",
                    "SEARCH q USING INDEX sqlite_autoindex_messages_1 (conversation_id=? AND id=?)",
                ]),
            Statement(
                name: "the newest history page", sql: ChatStatements.page, arguments: [conversation, Int.max, 50],
                uses: ["SEARCH m USING INDEX messages_by_position (conversation_id=? AND position<?)"]),
            Statement(
                name: "an older history page", sql: ChatStatements.page, arguments: [conversation, 5_000, 50],
                uses: ["SEARCH m USING INDEX messages_by_position (conversation_id=? AND position<?)"]),
            Statement(
                name: "the position an older page starts from", sql: ChatStatements.position, arguments: ["m-1", conversation],
                uses: ["SEARCH messages USING INDEX sqlite_autoindex_messages_1 (conversation_id=? AND id=?)"]),
            Statement(
                name: "the list's activity, unread counts and unread mentions", sql: ChatStatements.activity,
                arguments: ["[\"\(conversation)\"]", reader],
                uses: [
                    "SCAN ids VIRTUAL TABLE", "SEARCH a USING PRIMARY KEY (conversation_id=?)", "SEARCH m USING INTEGER PRIMARY KEY (rowid=?)",
                    "SEARCH x USING", "SEARCH n USING INTEGER PRIMARY KEY (rowid=?)",
                ]),
            Statement(
                name: "the list's conversations", sql: SQLConversationListStore.list, arguments: [reader],
                uses: ["SEARCH c USING"]),
            Statement(
                name: "the conversations a person reads", sql: SQLSearchStore.readable(source), arguments: [reader, nil],
                uses: ["SEARCH c USING"]),
            Statement(
                name: "a search of the reader's conversations", sql: SQLSearchStore.candidates(source),
                arguments: ["\"message\" AND (\"\(SearchQuery.lexeme(of: ConversationID(conversation)))\")", Int64.max, 20],
                uses: ["SCAN i VIRTUAL TABLE", "SEARCH m USING INTEGER PRIMARY KEY (rowid=?)"]),
            Statement(
                name: "a person's mentions, newest first", sql: SQLSearchStore.mentions(source, newestFirst: true), arguments: [reader, -1, 20],
                uses: ["SEARCH x USING", "SEARCH m USING INTEGER PRIMARY KEY (rowid=?)", "SEARCH c USING"]),
            Statement(
                name: "a person's mentions after a key, oldest first", sql: SQLSearchStore.mentions(source, newestFirst: false),
                arguments: [reader, 100, 20],
                uses: ["SEARCH x USING", "SEARCH m USING INTEGER PRIMARY KEY (rowid=?)", "SEARCH c USING"]),
        ]
    }

    @Test("each hot statement uses its index on an empty file, a full one and an analyzed one; none scans messages or the memberships")
    func plans() async throws {
        let harness = try await BackendHarness(.sqlite)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let direct = try await harness.direct(ada, grace)
        _ = try await harness.services(for: ada).search.search("warm", in: nil, limit: 1, before: nil)
        let path = harness.folder.appendingPathComponent("contract.sqlite").path
        let statements = Self.statements(conversation: direct.id.rawValue, reader: ada.id.rawValue)

        var phases = [("empty", try Self.plans(of: statements, at: path))]
        try Self.fill(path, conversation: direct.id.rawValue, senders: [ada.id.rawValue, grace.id.rawValue])
        // The search index takes in what was written (as a search does first).
        _ = try await harness.services(for: ada).search.search("message", in: nil, limit: 1, before: nil)
        phases.append(("full", try Self.plans(of: statements, at: path)))
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in try db.execute(sql: "ANALYZE") }
        try queue.close()
        phases.append(("analyzed", try Self.plans(of: statements, at: path)))

        for (phase, plans) in phases {
            for (statement, plan) in zip(statements, plans) {
                let shown = "\(phase), \(statement.name):\n" + plan.joined(separator: "\n")
                for use in statement.uses { #expect(plan.contains { $0.hasPrefix(use) }, "no \(use)\n\(shown)") }
                #expect(!plan.contains { Self.scansMessagesOrMembers($0) }, "a scan\n\(shown)")
                #expect(!plan.contains { $0.contains("AUTOMATIC") }, "an index built for the query\n\(shown)")
            }
        }
    }

    @Test("the check sees a scan: the writer's look-up without CROSS JOIN is planned messages first, which the test refuses")
    func checkSeesAScan() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("plan.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: "CREATE TABLE messages (seq INTEGER PRIMARY KEY, id TEXT NOT NULL, conversation_id TEXT NOT NULL, UNIQUE (conversation_id, id))")
        }
        try queue.close()
        let plainJoin = "SELECT m.seq FROM json_each(?) ids JOIN messages m ON m.conversation_id = ? AND m.id = ids.value"
        let plan = try Self.plans(of: [Statement(name: "plain join", sql: plainJoin, arguments: ["[\"a\"]", "c"], uses: [])], at: path)[0]
        #expect(plan.contains { Self.scansMessagesOrMembers($0) }, "\(plan)")
    }

    /// Whether a plan's line reads all of `messages` or of the memberships: a SCAN of them, or a
    /// SEARCH of `messages` by its conversation alone (its whole history).
    static func scansMessagesOrMembers(_ detail: String) -> Bool {
        let words = detail.split(separator: " ")
        guard words.count >= 2 else { return false }
        let table = String(words[1])
        if words[0] == "SCAN" { return ["m", "q", "n", "messages", "c", "mine", "conversation_members", "x"].contains(table) }
        return words[0] == "SEARCH" && ["m", "q", "messages"].contains(table) && detail.hasSuffix("(conversation_id=?)")
    }

    /// The `EXPLAIN QUERY PLAN` details of each of `statements` in the file at `path`.
    static func plans(of statements: [Statement], at path: String) throws -> [[String]] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try statements.map { statement in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + statement.sql, arguments: statement.arguments).map { row in row["detail"] as String
                }
            }
        }
    }

    /// 20,000 messages in `conversation` (every tenth mentioning its first sender), written
    /// straight into the file as `messageai-bench`'s seeder does.
    static func fill(_ path: String, conversation: String, senders: [String]) throws {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.write { db in
            let top = try Int64.fetchOne(db, sql: "SELECT value FROM store_sequence") ?? 0
            let count = 20_000
            for position in 1...count {
                let seq = top + Int64(position)
                let mentions = position % 10 == 0 ? "[\"\(senders[0])\"]" : nil
                try db.execute(
                    sql: """
                        INSERT INTO messages (seq, id, conversation_id, position, sender_id, text, sent_at, mentions) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        seq, "m-\(position)", conversation, position, senders[position % senders.count], "message \(position)", position,
                        mentions,
                    ])
                if mentions != nil {
                    try db.execute(
                        sql: "INSERT INTO message_mentions (user_id, seq, conversation_id, position) VALUES (?, ?, ?, ?)",
                        arguments: [senders[0], seq, conversation, position])
                }
            }
            try db.execute(
                sql: "INSERT OR REPLACE INTO chat_activity (conversation_id, message_count, last_seq) VALUES (?, ?, ?)",
                arguments: [conversation, count, top + Int64(count)])
            try db.execute(sql: "UPDATE store_sequence SET value = ?", arguments: [top + Int64(count)])
        }
    }
}
