import ChatAPI
import Foundation
import Kernel
import TestSupport
import Testing

/// A failure of the server's own, met for real: the store loses a table under a running server,
/// as an operator's mistake would do it. The client is told the failure's id and nothing of it;
/// the log has the failure under that id.
@Suite("Failures of the server's own", .serialized, .timeLimit(.minutes(2)))
struct ServerFailureTests {
    enum Store: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
        /// What the database says of the missing table.
        var complaint: String { self == .sqlite ? "no such table: messages" : #"relation "messages" does not exist"# }
    }

    /// Words of a database's error that must not reach a client.
    static let databaseWords = ["messages", "sqlite", "postgres", "table", "relation", "42p01", "sql", "exist", "column"]

    @Test(
        "a failing store: a 500 over HTTP, and an error frame over the events socket, each with a request id and none of the database's words; the log has the failure, its path and method, under that id",
        arguments: Store.allCases)
    func storeFailure(_ store: Store) async throws {
        let postgresURL = store == .postgres ? try await PostgresCluster.shared().database() : nil
        let world = try await ServerWorld(arguments: { _ in postgresURL.map { ["--postgres-url", $0] } ?? [] })
        defer { world.remove() }
        let ada = try await world.probe.signUp("Ada"), grace = try await world.probe.signUp("Grace")
        let direct = try await world.probe.startDirect(ada.token, with: grace.id)
        _ = try await world.probe.startDirect(grace.token, with: ada.id)  // accepts
        let rename = "ALTER TABLE messages RENAME TO messages_gone"
        if let postgresURL {
            _ = try await PostgresCluster.shared().psql(rename, onDatabaseAt: postgresURL)
        } else {
            _ = try await ForeignProgram.query(rename, on: world.server.databasePath)
        }

        let path = "/v1/conversations/\(direct)/messages"
        let answer = try await world.probe.send("GET", path, token: ada.token)
        let body = String(decoding: answer.body, as: UTF8.self)
        let id = try #require(answer.headers["x-request-id"], "no request id: \(answer.status) \(body)")
        #expect(answer.status == 500 && answer.errorKind == "internal" && body.contains("request \(id)"), "\(answer.status) \(body)")
        for word in Self.databaseWords { #expect(!body.lowercased().contains(word), "the body has '\(word)': \(body)") }
        let line = try #require(await Self.line(naming: id, in: world.server), "the log has no line with \(id):\n\(world.server.log.suffix(2_000))")
        #expect(line.contains("error") && line.contains(path) && line.contains("GET") && line.contains(store.complaint), "\(line)")

        // A send over the events socket meets the same failure: an error frame with an id of its own.
        let frame = ChatSocket.SendFrame(id: .random(), conversation: ConversationID(direct), text: "into the void")
        let replies = try await SocketSendTests.exchange(
            [String(decoding: try WireFormat.encoder().encode(frame), as: UTF8.self)],
            expecting: 1, as: ada.token, on: world)
        let refusal = try #require(replies.first?.error, "\(replies)")
        let socketID = try #require(refusal.message.firstMatch(of: /request ([0-9a-f]+)\)/)?.output.1, "\(refusal.message)")
        #expect(refusal.kind == "internal" && socketID != id)
        for word in Self.databaseWords { #expect(!refusal.message.lowercased().contains(word), "the frame has '\(word)': \(refusal.message)") }
        let socketLine = try #require(await Self.line(naming: String(socketID), in: world.server), "the log has no line with \(socketID)")
        #expect(socketLine.contains("error") && socketLine.contains(store.complaint), "\(socketLine)")
    }

    /// The server's log entry that names `id` (with the lines of a multi-line error), waiting up
    /// to 5 s for it to be written.
    private static func line(naming id: String, in server: ServerProcess) async -> String? {
        for _ in 0..<50 {
            // Each entry begins with its time; an error's own line breaks (a statement's) continue it.
            let entries = server.log.split(separator: /\n(?=\d{4}-\d{2}-\d{2}T)/)
            if let entry = entries.first(where: { $0.contains(id) }) { return String(entry) }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }
}
