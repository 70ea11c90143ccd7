import Chat
import Foundation
import Kernel
import Search
import ServiceGraph
import TestSupport
import Testing

/// What the bytes of a SQLite store keep of a deleted message's text and of the words an edit
/// replaced: nothing, in the file and its log after a checkpoint, once the change is answered,
/// the search index included (FTS5 keeps a dropped row's words in its segments until they are
/// merged; the process that changes a message purges them). Read as an operator would: the
/// file's bytes, after the `sqlite3` shell's checkpoint.
@Suite("Deleted text leaves the file", .serialized, .timeLimit(.minutes(2)))
struct DeletedTextTests {
    @Test(
        "a deleted text and an edit's old words are in no byte of the file or its log, after a search built the index",
        arguments: [ContractBackend.sqlite, .remote])
    func goneFromTheBytes(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let (asAda, plan) = try await indexThenChange(in: harness)
        let left = try await Self.copies(of: Self.removed, in: harness)
        #expect(left == [0, 0], "copies of the deleted text and of the edit's old words")
        #expect(try await asAda.search.search("xylophonequokka", in: nil, limit: 5, before: nil).hits.isEmpty)
        #expect(try await asAda.search.search("plan", in: nil, limit: 5, before: nil).hits.map(\.id) == [plan], "the index still finds what is there")
    }

    @Test("a process that never searched deletes a message another process indexed: its words leave the file before the delete is answered")
    func goneWhenAnotherProcessIndexed() async throws {
        let server = try await BackendHarness(.sqlite)
        defer { server.remove() }
        let oneShot = try await BackendHarness(.sqlite, sharing: server)
        let ada = try await server.signUp("Ada"), grace = try await server.signUp("Grace")
        let direct = try await server.direct(ada, grace).id
        let secret = try await server.services(for: ada).chat.send(id: .random(), text: "the locker code is quetzalcoatlus", to: direct)
        #expect(try await server.services(for: grace).search.search("quetzalcoatlus", in: nil, limit: 5, before: nil).hits.count == 1)

        _ = try await oneShot.services(for: ada).chat.delete(secret.id, in: direct)
        let left = try await Self.copies(of: ["quetzalcoatlus"], in: server)
        #expect(left == [0])
    }

    @Test("PostgreSQL: after the README's VACUUM FULL of the three tables, no file of the database holds a deleted text or an edit's old words")
    func goneAfterVacuumFullOnPostgres() async throws {
        let harness = try await BackendHarness(.postgres)
        defer { harness.remove() }
        let (asAda, plan) = try await indexThenChange(in: harness)
        #expect(try await asAda.search.search("plan", in: nil, limit: 5, before: nil).hits.map(\.id) == [plan])
        // The operator's VACUUM FULL comes once the index has caught up with the changes (its follower may be at them
        // now): a later round would leave the replaced words in a dead row version again.
        var caughtUp = false
        for _ in 0..<200 where !caughtUp {
            caughtUp = try await harness.psql("SELECT seq >= (SELECT max(seq) FROM message_changes) FROM search_progress").hasPrefix("t")
            if !caughtUp { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(caughtUp, "the index caught up with the edit and the deletion")
        // VACUUM FULL keeps a row version that a transaction still running may see (an index round, another session
        // of the suite's): the operator's command is run again until none is kept, at most 20 times.
        let database = try await harness.psql("SELECT oid FROM pg_database WHERE datname = current_database()").trimmingCharacters(
            in: .whitespacesAndNewlines)
        let folder = try await PostgresCluster.shared().folder.appendingPathComponent("data/base/\(database)")
        var left = [-1]
        for _ in 0..<20 where left != [0, 0] {
            _ = try await harness.psql("VACUUM FULL messages, message_changes, search_words")
            _ = try await harness.psql("CHECKPOINT")
            let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            #expect(files.count > 10, "the database's files: \(folder.path)")
            let bytes = try files.map { try Data(contentsOf: $0) }
            left = Self.removed.map { word in bytes.reduce(0) { $0 + $1.occurrences(of: Data(word.utf8)) } }
        }
        #expect(left == [0, 0], "copies of the deleted text and of the edit's old words in the database's files")
    }

    /// The words the changes of `indexThenChange(in:)` remove: a deleted text's, and an edit's old one.
    static let removed = ["xylophonequokka", "zebuwordold"]

    /// Ada sends two messages to Grace and finds each by search (so the index holds them), then
    /// edits the second and deletes the first: her services, and the edited message's id.
    private func indexThenChange(in harness: BackendHarness) async throws -> (ServiceSet, MessageID) {
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let asAda = harness.services(for: ada)
        let direct = try await harness.direct(ada, grace).id
        let secret = try await asAda.chat.send(id: .random(), text: "my secret word is \(Self.removed[0])", to: direct)
        let plan = try await asAda.chat.send(id: .random(), text: "the plan is \(Self.removed[1])", to: direct)
        for (word, message) in zip(Self.removed, [secret, plan]) {
            #expect(try await asAda.search.search(word, in: nil, limit: 5, before: nil).hits.map(\.id) == [message.id])
        }
        _ = try await asAda.chat.edit(plan.id, in: direct, text: "the plan is new")
        _ = try await asAda.chat.delete(secret.id, in: direct)
        return (asAda, plan.id)
    }

    /// How many times each of `words` stands in the bytes of the store's file and its log,
    /// after the `sqlite3` shell checkpointed the log into the file and emptied it.
    static func copies(of words: [String], in harness: BackendHarness) async throws -> [Int] {
        let file = harness.folder.appendingPathComponent("contract.sqlite").path
        // With a busy timeout, the checkpoint waits for the readers of the moment (an index's follower) to finish.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = ["-cmd", ".timeout 10000", file, "PRAGMA wal_checkpoint(TRUNCATE)"]
        // Waited for off Swift's shared threads (the shell may wait seconds for a reader).
        let checkpoint = try await shell.runToEnd()
        #expect(checkpoint.output.hasPrefix("0|"), "the checkpoint ran: \(checkpoint.output) \(checkpoint.errors)")
        let bytes = try harness.storeBytes()
        #expect(bytes.contains { !$0.isEmpty })
        return words.map { word in bytes.reduce(0) { $0 + $1.occurrences(of: Data(word.utf8)) } }
    }
}

extension Data {
    /// How many times `pattern` stands in these bytes.
    func occurrences(of pattern: Data) -> Int {
        var (count, start) = (0, startIndex)
        while let found = range(of: pattern, in: start..<endIndex) {
            count += 1
            start = found.upperBound
        }
        return count
    }
}
