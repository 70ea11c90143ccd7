import Foundation
import Kernel
import Logging
import PostgresNIO
import PostgresStore
import Search
import ServiceGraph
import TestSupport
import Testing

@testable import ChatLive
@testable import SearchLive
@testable import ServiceGraph

/// How PostgreSQL plans the hot statements of the PostgreSQL store, asked of PostgreSQL itself on
/// a database the store migrated: while it is new (no statistics: a table never analyzed counts
/// as 10 pages) and after it has grown with no ANALYZE since (autovacuum's first pass comes a
/// minute or more later), so that no plan depends on statistics that are not there yet
/// (docs/performance.md, "A fresh PostgreSQL database"). `messages` is looked up by its keys,
/// never scanned whole.
@Suite("PostgreSQL query plans", .timeLimit(.minutes(2)), heavyTests)
struct PostgresQueryPlanTests {
    /// Messages put into the database between the phases, from another connection, as other instances would.
    static let grown = 100_000

    @Test("messageai_send's look-ups of messages: no Seq Scan on messages on a new database, nor after it grew under the plans of its first sends")
    func sendPath() async throws {
        let (cluster, url) = try await migratedDatabase()
        let name = PostgresCluster.name(ofDatabaseAt: url)
        // One session, as one connection of an instance's pool: its first sends while the table
        // is new (PL/pgSQL keeps a plan of its own for each statement from the sixth call on),
        // then the table grows through another connection, then this session sends again.
        // auto_explain hands the plan of each statement inside the function to the session.
        func send(_ id: String, _ conversation: String) -> String {
            "SELECT ord, seq, is_new FROM messageai_send(ARRAY['\(id)'], ARRAY['\(conversation)'], ARRAY['u-ada'], ARRAY['hello'], "
                + "ARRAY[1::bigint], ARRAY[''], ARRAY['']);"
        }
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-plan-\(UUID().uuidString).sql")
        defer { try? FileManager.default.removeItem(at: script) }
        let psql = "/usr/bin/psql -h '\(cluster.folder.path)' -p \(cluster.port) -U postgres -d \(name) -v ON_ERROR_STOP=1"
        try
            ([
                "LOAD 'auto_explain';", "SET auto_explain.log_min_duration = 0;", "SET auto_explain.log_nested_statements = on;",
                "SET auto_explain.log_level = notice;", "SET client_min_messages = notice;", "\\echo ==== new",
            ] + (1...8).map { send("m-new-\($0)", "c-1") } + [
                "\\echo ==== filling",
                "\\! \(psql) -qc \"\(Self.fill(Self.grown).replacingOccurrences(of: "\n", with: " "))\"",
                "\\echo ==== grown",
            ] + (1...3).map { send("m-grown-\($0)", "c-1") } + [send("m-new-1", "c-1")]).joined(separator: "\n").write(
                to: script, atomically: true, encoding: .utf8)
        let output = try await OwnThread.run { () throws -> String in
            let run = try SpawnedProgram.run(["/bin/sh", "-c", "\(psql) -f '\(script.path)'"])
            guard run.status == 0 else { throw AppError(.internal, "psql failed: \(run.output.suffix(3_000))") }
            return run.output
        }
        let phases = output.components(separatedBy: "==== ")
        let (new, grown) = (phases.first { $0.hasPrefix("new") } ?? "", phases.first { $0.hasPrefix("grown") } ?? "")
        // The function ran (12 calls, each a plan of its own statements and one of the call).
        #expect(
            new.components(separatedBy: "messageai_send(ARRAY").count > 8 && grown.components(separatedBy: "messageai_send(ARRAY").count > 4,
            "auto_explain showed no plans:\n\(output.suffix(3_000))")
        for (phase, plans) in [("new", new), ("grown", grown)] {
            let scans = Self.scansOfMessages(plans)
            #expect(!scans.isEmpty, "\(phase): no look-up of messages in the plans:\n\(plans.suffix(3_000))")
            #expect(!scans.contains { $0.hasPrefix("Seq Scan") }, "\(phase): \(scans.filter { $0.hasPrefix("Seq Scan") })\n\(plans.suffix(6_000))")
        }
        // Grown, each look-up goes by the message's key (conversation, id), not by a walk of its conversation.
        let walks = Self.scansOfMessages(grown).filter { !$0.contains("messages_conversation_id_id_key") }
        #expect(walks.isEmpty, "grown: look-ups not by (conversation_id, id): \(walks)\n\(grown.suffix(6_000))")
    }

    @Test(
        "the history page, the position it starts from and the messages of change rows: no Seq Scan on messages on a new database, grown, or analyzed"
    )
    func historyPage() async throws {
        let (cluster, url) = try await migratedDatabase()
        let page = PostgresChatStatements.page(ConversationID("c-1"), below: .max, limit: 50).sql
        let position = PostgresChatStatements.position(of: MessageID("m-1"), in: ConversationID("c-1")).sql
        let changed = PostgresChatStatements.changedMessages([.init(conversationID: "c-1", messageID: "m-1")]).sql
        func plans() async throws -> String {
            try await Self.plans(
                """
                PREPARE page(text, bigint, bigint) AS \(page);
                PREPARE older(text, bigint, bigint) AS \(page);
                PREPARE position(text, text) AS \(position);
                PREPARE changed(text[], text[]) AS \(changed);
                EXPLAIN EXECUTE page('c-1', 9223372036854775807, 50);
                EXPLAIN EXECUTE older('c-1', 50000, 50);
                EXPLAIN EXECUTE position('m-1', 'c-1');
                EXPLAIN EXECUTE changed(ARRAY['c-1', 'c-2'], ARRAY['m-1', 'f-2']);
                """, cluster: cluster, url: url)
        }
        var phases = [("new", try await plans())]
        _ = try await cluster.psql(Self.fill(Self.grown), onDatabaseAt: url)
        phases.append(("grown", try await plans()))
        _ = try await cluster.psql("ANALYZE", onDatabaseAt: url)
        phases.append(("analyzed", try await plans()))
        for (phase, plans) in phases {
            let scans = Self.scansOfMessages(plans)
            #expect(scans.count >= 8, "\(phase): \(plans)")
            #expect(!scans.contains { $0.hasPrefix("Seq Scan") }, "\(phase): \(plans)")
            // The page is an index range of its conversation's positions, not a sort of its messages.
            #expect(!plans.contains("Sort"), "\(phase): \(plans)")
        }
    }

    @Test(
        "search's statements: the newest entries read backwards along the index's key, then the GIN index for the caller's conversations alone; never a Seq Scan of search_words, new, grown or analyzed (L6)"
    )
    func searchStatements() async throws {
        let (cluster, url) = try await migratedDatabase()
        let source = SearchSchema.Source.chatAndList
        // A common word of conversation c-1 (which holds most messages), and the same word
        // searched by a stranger, whose conversation c-x holds none.
        let (own, strangers) = (
            PostgresSearchStore.tsquery(try SearchQuery("message"), in: [ConversationID("c-1")]),
            PostgresSearchStore.tsquery(try SearchQuery("message"), in: [ConversationID("c-x")])
        )
        let recent = PostgresSearchStore.recent(source, tsquery: own, below: .max, count: 21).sql
        let indexed = PostgresSearchStore.indexed(source, tsquery: strangers, below: .max, count: 21).sql
        func plans(analyzing: Bool = false) async throws -> String {
            try await Self.plans(
                """
                PREPARE recent(bigint, bigint, text, bigint) AS \(recent);
                PREPARE indexed(text, bigint, bigint) AS \(indexed);
                EXPLAIN EXECUTE recent(9223372036854775807, \(PostgresSearchStore.recentEntries), '\(own.replacingOccurrences(of: "'", with: "''"))', 21);
                EXPLAIN \(analyzing ? "(ANALYZE)" : "") EXECUTE indexed('\(strangers.replacingOccurrences(of: "'", with: "''"))', 9223372036854775807, 21);
                """, cluster: cluster, url: url)
        }
        var phases = [("new", try await plans())]
        // The messages, then their words as the index itself writes them: "message", the number, the conversation.
        _ = try await cluster.psql(Self.fill(Self.grown), onDatabaseAt: url)
        let database = try await PGDatabase.open(url, migrations: PostgresBackend.migrations, connections: 1, logger: Logger(label: "test"))
        defer { database.close() }
        while try await !PostgresSearchIndex.catchUp(database, source: source, logger: Logger(label: "test")) {}
        phases.append(("grown", try await plans(analyzing: true)))
        _ = try await cluster.psql("ANALYZE", onDatabaseAt: url)
        phases.append(("analyzed", try await plans()))
        for (phase, plans) in phases {
            #expect(!plans.contains("Seq Scan on search_words"), "\(phase): \(plans)")
            #expect(plans.components(separatedBy: "Bitmap Index Scan on search_words_by_word").count == 3, "\(phase): \(plans)")
            // New, the table is as small as it looks, and reading it whole may well be the cheaper plan.
            if phase != "new" {
                #expect(plans.components(separatedBy: "Index Scan Backward using search_words_pkey").count == 3, "\(phase): \(plans)")
            }
        }
        // Grown, the stranger's search visits none of the 100,000 matches of "message" in the table.
        let heap = phases[1].1.split(separator: "\n").filter { $0.contains("Bitmap Heap Scan on search_words") }
        #expect(heap.count == 2 && heap.allSatisfy { $0.contains("rows=0 loops=1") }, "\(phases[1].1)")
    }

    /// The plans `statements` (PREPAREs and EXPLAIN EXECUTEs) print in the database at `url`: with
    /// the parameters' values, as PostgresNIO's unnamed statements are planned, then the generic
    /// plan, which a statement prepared once and run many times would keep.
    private static func plans(_ statements: String, cluster: PostgresCluster, url: String) async throws -> String {
        var text = ""
        for mode in ["force_custom_plan", "force_generic_plan"] {
            text += try await cluster.psql("SET plan_cache_mode = \(mode);\n" + statements, onDatabaseAt: url) + "\n"
        }
        return text
    }

    /// A new database of the tests' cluster, migrated as an instance migrates it when it starts.
    private func migratedDatabase() async throws -> (cluster: PostgresCluster, url: String) {
        let cluster = try await PostgresCluster.shared()
        let url = try await cluster.database()
        let graph = try await ServiceGraph.open(GraphOptions(backend: .postgres, sqlitePath: "", bcryptCost: 4, postgresURL: url))
        graph.close()
        return (cluster, url)
    }

    /// SQL that adds `count` messages to conversations `c-0`…`c-9` (most to `c-1`), numbered
    /// after what is there, as sends would leave them; no ANALYZE.
    static func fill(_ count: Int) -> String {
        """
        INSERT INTO messages (seq, id, conversation_id, position, sender_id, text, sent_at)
            SELECT 1000000 + g, 'f-' || g, 'c-' || (CASE WHEN g % 2 = 0 THEN 1 ELSE g % 10 END), 1000 + g, 'u-ada', 'message ' || g, g
            FROM generate_series(1, \(count)) g;
        UPDATE store_sequence SET value = 1000000 + \(count);
        """
    }

    /// The lines of `plans` that read `messages` (its table or one of its indexes): the node's kind and what it uses.
    static func scansOfMessages(_ plans: String) -> [String] {
        plans.split(separator: "\n").compactMap { line in
            let text = line.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "->  ", with: "")
            let isScan = [
                "Seq Scan on messages ", "Index Scan using messages", "Index Only Scan using messages", "Bitmap Index Scan on messages",
                "Bitmap Heap Scan on messages ",
            ].contains { text.hasPrefix($0) }
            return isScan ? String(text.prefix { $0 != "(" }).trimmingCharacters(in: .whitespaces) : nil
        }
    }
}
