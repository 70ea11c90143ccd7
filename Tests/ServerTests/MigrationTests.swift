import Foundation
import Kernel
import TestSupport
import Testing

/// `messageai-server migrate`: a SQLite server's store moved into PostgreSQL, as an operator
/// outgrowing one machine would.
@Suite("Migration to PostgreSQL", .timeLimit(.minutes(3)))
struct MigrationTests {
    @Test(
        "migrate copies everything in its order; an interrupted run leaves the database empty and the next finishes; a third is refused; the old cursor gets 410"
    )
    func sqliteToPostgres() async throws {
        let world = try await ServerWorld()
        defer { world.remove() }
        let ada = try await world.probe.signUp("Ada"), grace = try await world.probe.signUp("Grace")
        let conversation = try await world.probe.startDirect(ada.token, with: grace.id)
        #expect(try await world.probe.send("POST", "/v1/invitations/\(conversation)/accept", token: grace.token, json: [:]).status == 200)
        var cursor = ""
        for index in 0..<30 {
            let sender = index.isMultiple(of: 3) ? grace : ada
            let sent = try await world.probe.send(
                "PUT", "/v1/conversations/\(conversation)/messages/m-\(index)", token: sender.token,
                json: ["text": "message \(index)"])
            cursor = try #require(sent.json?["cursor"] as? String)
        }
        // An edited message and a deleted one: their state and their change events move too.
        #expect(
            try await world.probe.send(
                "PATCH", "/v1/conversations/\(conversation)/messages/m-1", token: ada.token,
                json: ["text": "message 1, edited"]
            ).status == 200)
        let deleted = try await world.probe.send("DELETE", "/v1/conversations/\(conversation)/messages/m-3", token: grace.token)
        #expect(deleted.status == 200)
        cursor = try #require(deleted.json?["cursor"] as? String)
        #expect(try await world.probe.send("POST", "/v1/conversations/\(conversation)/read", token: grace.token, json: [:]).status == 204)
        // A mention unread, and a mute: in the list, they move too.
        let mention = try await world.probe.send(
            "PUT", "/v1/conversations/\(conversation)/messages/m-mention", token: ada.token, json: ["text": "@Grace see this"])
        #expect(mention.status == 200)
        cursor = try #require(mention.json?["cursor"] as? String)
        #expect(
            try await world.probe.send("PUT", "/v1/conversations/\(conversation)/notifications", token: grace.token, json: ["level": "mentions"])
                .status == 204)
        // A file sent: its row and its bytes (beside the SQLite file) move into the database.
        let picture = Data((0..<1_500_000).map { UInt8($0 % 253) })
        let uploaded = try await world.probe.send(
            "PUT", "/v1/conversations/\(conversation)/messages/m-file/files?name=plan.png", token: ada.token, body: picture)
        let file = try #require(uploaded.json?["id"] as? String, "\(uploaded.status)")
        let carried = try await world.probe.send(
            "PUT", "/v1/conversations/\(conversation)/messages/m-file", token: ada.token, json: ["text": "", "attachments": [file]])
        cursor = try #require(carried.json?["cursor"] as? String)
        let history = try await world.probe.send("GET", "/v1/conversations/\(conversation)/messages?limit=100", token: ada.token).body
        let list = try await world.probe.send("GET", "/v1/conversations", token: grace.token).body
        _ = await world.server.terminate()

        // A database with the schema and nothing else, and a trigger that fails the copy when it reaches the read markers.
        let database = try await PostgresCluster.shared().database()
        let schemaOnly = try await ServerProcess(
            databasePath: world.folder.appendingPathComponent("unused.sqlite").path, arguments: ["--postgres-url", database])
        _ = await schemaOnly.terminate()
        let cluster = try await PostgresCluster.shared()
        _ = try await cluster.psql(
            """
            CREATE FUNCTION interrupt() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'interrupted by the test'; END $$;
            CREATE TRIGGER interrupt BEFORE INSERT ON chat_reads FOR EACH STATEMENT EXECUTE FUNCTION interrupt();
            """, onDatabaseAt: database)
        let migrate = ["migrate", "--from-sqlite", world.server.databasePath, "--to-postgres", database]
        let interrupted = try await Self.server(migrate)
        #expect(interrupted.status != 0 && interrupted.errors.contains("interrupted by the test"), "\(interrupted)")
        let left = try await cluster.psql("SELECT (SELECT count(*) FROM auth_accounts) + (SELECT count(*) FROM messages)", onDatabaseAt: database)
        #expect(left.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "the interrupted copy left rows behind: \(left)")

        _ = try await cluster.psql("DROP TRIGGER interrupt ON chat_reads", onDatabaseAt: database)
        let finished = try await Self.server(migrate)
        #expect(finished.status == 0, "\(finished)")
        #expect(
            finished.output.contains("copied messages: 32 rows") && finished.output.contains("copied message_changes: 2 rows")
                && finished.output.contains("copied files: 1 rows") && finished.output.contains("file bytes: 1 files")
                && finished.output.contains("copied auth_sessions: 2 rows") && finished.output.contains("copied message_mentions: 1 rows")
                && finished.output.contains("copied conversation_notifications: 1 rows"), "\(finished.output)")
        let again = try await Self.server(migrate)
        #expect(again.status == 64 && again.errors.contains("is not empty"), "\(again)")
        #expect(
            try await cluster.psql("SELECT count(*) FROM messages", onDatabaseAt: database).trimmingCharacters(in: .whitespacesAndNewlines) == "32",
            "a second run copied again")

        let moved = try await ServerProcess(
            databasePath: world.folder.appendingPathComponent("unused.sqlite").path, arguments: ["--postgres-url", database])
        defer { moved.stop() }
        let probe = HTTPProbe(base: moved.url)
        // The same sessions, the same history in the same order, the same read marker.
        let movedHistory = try await probe.send("GET", "/v1/conversations/\(conversation)/messages?limit=100", token: ada.token).body
        // The positions as they were; only the cursors' epoch is the new store's.
        func positions(_ body: Data) -> String { String(decoding: body, as: UTF8.self).replacing(/"cursor":"[0-9a-f]+\./, with: "\"cursor\":\"") }
        #expect(!history.isEmpty && positions(movedHistory) == positions(history), "\(positions(history)) became \(positions(movedHistory))")
        #expect(
            String(decoding: movedHistory, as: UTF8.self).contains(#""text":"message 1, edited","version":1"#)
                && String(decoding: movedHistory, as: UTF8.self).contains(#""deleted":true"#), "the edit or the deletion did not move")
        #expect(
            try await cluster.psql("SELECT count(*) FROM message_changes", onDatabaseAt: database).trimmingCharacters(in: .whitespacesAndNewlines)
                == "2", "the change events did not move")
        let movedList = try await probe.send("GET", "/v1/conversations", token: grace.token).body
        #expect(movedList == list, "\(String(decoding: list, as: UTF8.self)) became \(String(decoding: movedList, as: UTF8.self))")
        #expect(
            String(decoding: list, as: UTF8.self).contains(#""unreadMentions":1"#)
                && String(decoding: list, as: UTF8.self).contains(#""level":"mentions""#), "\(String(decoding: list, as: UTF8.self))")
        #expect(try await probe.send("POST", "/v1/auth/signin", json: ["email": "ada@example.com", "password": "password-Ada"]).status != 500)
        #expect(try await probe.send("GET", "/v1/files/\(file)/bytes", token: grace.token).body == picture, "the file's bytes moved")
        // A cursor of the SQLite store is another store's: the client is told to reload, not resumed past a gap.
        #expect(try await probe.send("GET", "/v1/events/log?after=\(cursor)", token: ada.token).status == 410)
        // New messages come after the copied ones.
        let next = try await probe.send("PUT", "/v1/conversations/\(conversation)/messages/m-30", token: ada.token, json: ["text": "after the move"])
        let position = (next.json?["cursor"] as? String)?.split(separator: ".").last.flatMap { Int($0) } ?? 0
        let before = cursor.split(separator: ".").last.flatMap { Int($0) } ?? 0
        #expect(next.status == 200 && position > before, "\(next.status): position \(position) after \(before)")
        let all = try await probe.send("GET", "/v1/conversations/\(conversation)/messages?limit=100", token: grace.token)
        #expect((all.json?["messages"] as? [[String: Any]])?.last?["text"] as? String == "after the move")
    }

    /// Runs `messageai-server` with `arguments` to its end.
    private static func server(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = ServerProcess.executable
        process.arguments = arguments
        let finished = try await process.runToEnd()
        return (finished.status, finished.output, finished.errors)
    }
}
