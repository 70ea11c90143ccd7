import Chat
import Foundation
import Kernel
import Logging
import PostgresStore
import ServiceGraph
import TestSupport
import Testing

/// The PostgreSQL store on a real cluster: what opening it says when it cannot, and ADR 21's
/// order: two instances (two service graphs over one database, each with its own connections,
/// announcements and feed) writing at once never show a reader a position after a smaller one
/// that arrives later.
@Suite("PostgreSQL store", .timeLimit(.minutes(2)))
struct PostgresStoreTests {
    @Test("a bad URL is a usage error; a database that cannot be reached or does not exist is unavailable, said in one line, at once")
    func opening() async throws {
        func failure(_ url: String) async -> AppError? {
            do {
                _ = try await ServiceGraph.open(GraphOptions(backend: .postgres, sqlitePath: "", bcryptCost: 4, postgresURL: url))
                return nil
            } catch {
                return error as? AppError
            }
        }
        let cluster = try await PostgresCluster.shared()
        for (url, kind, words) in [
            ("mysql://root@localhost/chat", AppError.Kind.usage, "is not a postgres:// URL"),
            ("postgres://localhost/chat", .usage, "names no user"),
            ("postgres://u@localhost/", .usage, "names no database"),
            ("postgres://postgres:secret@127.0.0.1:1/chat", .unavailable, "cannot be reached"),
            (cluster.url(of: "nowhere"), .unavailable, "does not exist"),
        ] {
            let refused = await failure(url)
            #expect(
                refused?.kind == kind && refused?.message.contains(words) == true && refused?.message.contains("secret") == false,
                "\(url): \(refused.map { "\($0.kind) \($0.message)" } ?? "opened")")
        }
    }

    @Test(
        "two instances sending, reacting and marking read at once: a live reader on each gets every event once, in position order; no position is missing"
    )
    func concurrentWritersOnTwoInstances() async throws {
        let first = try await BackendHarness(.postgres)
        let second = try await BackendHarness(.postgres, sharing: first)
        defer {
            first.remove()
            second.remove()
        }
        let ada = try await first.signUp("Ada"), grace = try await first.signUp("Grace")
        let direct = try await first.direct(ada, grace)
        let target = try await first.services(for: ada).chat.send(id: .random(), text: "react to this", to: direct.id)
        // Readers on both instances, reading as the events come (a stream keeps at most 1,024
        // for a reader that lags), up to the message sent after everything else.
        func reader(_ events: AsyncStream<UserEvent>) -> Task<(positions: [Int64], messages: [MessageID]), Never> {
            Task {
                var positions: [Int64] = [], messages: [MessageID] = []
                for await event in events {
                    if let position = event.cursor?.position { positions.append(position) }
                    if let message = event.message { messages.append(message.id) }
                    if event.message?.text == "last" { break }
                }
                return (positions, messages)
            }
        }
        let onFirst = reader(try await first.services(for: grace).events.liveEvents())
        let onSecond = reader(try await second.services(for: ada).events.liveEvents())

        // Ada writes through the first instance and Grace through the second, four senders each,
        // with read markers between, and each reacts and takes it back in a loop (a change takes
        // the message's row before the sequence's, ADR 21); then one last message.
        let perSender = 150, perReactor = 60
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (harness, user, emoji) in [(first, ada, "👍"), (second, grace, "🎉")] {
                let chat = harness.services(for: user).chat
                group.addTask {
                    for index in 0..<perReactor {
                        _ = try await chat.react(to: target.id, in: direct.id, with: emoji, adding: index % 2 == 0)
                    }
                }
                for lane in 0..<4 {
                    group.addTask {
                        for index in 0..<perSender {
                            _ = try await chat.send(id: .random(), text: "\(user.id.rawValue) \(lane) \(index)", to: direct.id)
                            if index % 25 == 0 { try await chat.markRead(direct.id) }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        _ = try await first.services(for: ada).chat.send(id: .random(), text: "last", to: direct.id)

        for (name, read) in [("the first instance", await onFirst.value), ("the second instance", await onSecond.value)] {
            #expect(
                read.messages.count == 8 * perSender + 1 && Set(read.messages).count == read.messages.count,
                "\(name): \(read.messages.count) messages")
            #expect(zip(read.positions, read.positions.dropFirst()).allSatisfy { $0 < $1 }, "\(name): positions out of order")
        }
        // The store's positions, read by psql as an operator would: every number from 1 to the
        // newest is a message or a change, once.
        let numbers = try await first.psql(
            """
            SELECT (SELECT value FROM store_sequence), count(*), count(DISTINCT seq), min(seq), max(seq)
            FROM (SELECT seq FROM messages UNION ALL SELECT seq FROM store_changes UNION ALL SELECT seq FROM message_changes) events
            """)
        let fields = numbers.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|").map(String.init)
        #expect(try await first.psql("SELECT count(*) FROM message_changes").trimmingCharacters(in: .whitespacesAndNewlines) == "\(2 * perReactor)")
        #expect(
            fields.count == 5 && Set([fields[0], fields[1], fields[2], fields[4]]).count == 1 && fields[3] == "1",
            "newest|count|distinct|min|max: \(numbers)")
    }

    @Test(
        "a statement written to a connection that closed under it fails as unavailable at once (postgres-nio drops it unanswered), and the pool serves on"
    )
    func statementOnAClosedConnection() async throws {
        let database = try await PGDatabase.open(
            try await PostgresCluster.shared().database(), migrations: [], connections: 2,
            logger: Logger(label: "test"))
        defer { database.close() }
        let started = ContinuousClock.now
        let refusal = await #expect(throws: AppError.self) {
            try await database.write(ordered: false) { transaction in
                // The backend ends itself, as a crashed database's do; the statements after it are
                // written to a closed connection (the first of them may still hear the end).
                _ = try? await transaction.query("SELECT pg_terminate_backend(pg_backend_pid())")
                for _ in 0..<3 { _ = try? await transaction.query("SELECT 1") }
                try await transaction.query("SELECT 1")
            }
        }
        #expect(refusal?.kind == .unavailable, "\(String(describing: refusal))")
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(try await database.query("SELECT 1").count == 1, "the pool serves on")
    }
}
