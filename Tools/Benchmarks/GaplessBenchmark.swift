import ArgumentParser
import Foundation
import Kernel
import Logging
import PostgresNIO
import PostgresStore
import Synchronization
import TestSupport

/// ADR 21's promise measured: with writers on two instances at once, a reader on each instance
/// gets every position of the store in increasing order, none missing; and beside it, the same
/// checker on the design ADR 21 rejected (numbers from a sequence, a reader moving past the
/// largest it saw), where it finds positions skipped.
struct GaplessBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gapless", abstract: "Positions delivered gapless and in order across two instances on PostgreSQL, and the naive design's gaps.",
        discussion: "Build both first: swift build -c release --product messageai-server --product messageai-bench")
    @Option(help: "Messages in all.") var events = 1_000_000
    @Option(help: "Writers, half on each instance.") var writers = 16
    @Option(help: "Transactions in the negative control, each way.") var controlWrites = 20_000

    func run() async throws {
        let world = try await ClusterFixture(.crossed)
        defer { world.stop() }
        try await ordered(world)
        try await control(world)
    }

    /// The product: `writers` bare sockets, alternately on each instance, send into groups an
    /// auditor is in; the auditor has a socket on each instance, each noting the positions it gets.
    private func ordered(_ world: ClusterFixture) async throws {
        let users = try await world.users(writers + 1)
        let auditor = users[0]
        var groups: [ConversationID] = []
        for writer in users.dropFirst() {
            let group = try await writer.conversations.createGroup(title: "Gapless", memberIDs: [auditor.id])
            _ = try await auditor.conversations.accept(group.id)
            groups.append(group.id)
        }
        let readers = [Positions(), Positions()]
        for (number, reader) in readers.enumerated() {
            _ = try await LoadSocket.open(world.stack.instance(number + 1), token: auditor.token) { _, position in reader.note(position) }
        }
        let perWriter = events / writers
        let started = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, writer) in users.dropFirst().enumerated() {
                let socket = try await LoadSocket.open(world.stack.instance(index % 2 + 1), token: writer.token)
                let conversation = groups[index]
                group.addTask {
                    for number in 0..<perWriter { try await socket.send(id: .random(), text: "g\(number)", to: conversation) }
                }
            }
            try await group.waitForAll()
        }
        let sent = perWriter * writers
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        let stored = try world.stack.psql("SELECT seq FROM messages ORDER BY seq").split(separator: "\n").compactMap { Int64($0) }
        let deadline = ContinuousClock.now + .seconds(120)
        while readers.contains(where: { $0.count < stored.count }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
        let whole = try world.stack.psql(
            """
            SELECT (SELECT value FROM store_sequence), (SELECT count(*) FROM (SELECT seq FROM messages UNION ALL SELECT seq FROM store_changes) s),
                   (SELECT count(DISTINCT seq) FROM (SELECT seq FROM messages UNION ALL SELECT seq FROM store_changes) s)
            """)
        print(
            "ordered: \(sent) messages from \(writers) writers on two instances in \(Stats.format(elapsed, 1)) s "
                + "(\(Int(Double(sent) / elapsed))/s); store: newest position, events, distinct positions = \(whole.replacing("|", with: ", "))")
        for (number, reader) in readers.enumerated() {
            let verdict = reader.verdict(against: stored)
            print("  reader on instance \(number + 1): \(verdict)")
        }
    }

    /// The negative control, in a database of its own on the same cluster: writers number rows
    /// from a sequence before they commit and a reader moves past the largest number it saw
    /// (the rejected design), then the same with ADR 21's discipline (a counter row taken first,
    /// read up to its committed value).
    private func control(_ world: ClusterFixture) async throws {
        var logger = Logger(label: "gapless")
        logger.logLevel = .warning
        _ = try world.stack.psql("CREATE DATABASE control")
        let database = try await PGDatabase.open(
            world.stack.databaseURL.replacing("/messageai?", with: "/control?"), migrations: [], connections: 12, logger: logger)
        defer { database.close() }
        try await database.query("CREATE TABLE control_rows (seq bigint NOT NULL, naive boolean NOT NULL)")
        try await database.query("CREATE SEQUENCE control_numbers")
        try await database.query("CREATE TABLE control_counter (value bigint NOT NULL)")
        try await database.query("INSERT INTO control_counter VALUES (0)")
        for naive in [true, false] {
            let seen = Mutex<(last: Int64, count: Int, out: Int)>((0, 0, 0))
            let done = Mutex(false)
            let reader = Task {
                while true {
                    let finished = done.withLock { $0 }
                    let last = seen.withLock { $0.last }
                    let top = naive ? Int64.max : try await database.query("SELECT value FROM control_counter").first?.decode(Int64.self) ?? 0
                    let rows = try await database.query(
                        """
                        SELECT seq FROM control_rows WHERE naive = \(naive) AND seq > \(last) AND seq <= \(top) ORDER BY seq
                        """
                    ).map { try $0.decode(Int64.self) }
                    seen.withLock { seen in
                        seen.count += rows.count
                        seen.last = naive ? max(seen.last, rows.last ?? seen.last) : max(seen.last, top == .max ? seen.last : top)
                    }
                    if finished { break }
                }
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        for _ in 0..<controlWrites / 8 {
                            try await database.write(ordered: false) { transaction in
                                if naive {
                                    try await transaction.query("INSERT INTO control_rows SELECT nextval('control_numbers'), true")
                                } else {
                                    try await transaction.query("SELECT value FROM control_counter FOR UPDATE")
                                    try await transaction.query("INSERT INTO control_rows SELECT value + 1, false FROM control_counter")
                                    try await transaction.query("UPDATE control_counter SET value = value + 1")
                                }
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            done.withLock { $0 = true }
            try await reader.value
            let written = controlWrites / 8 * 8
            let read = seen.withLock { $0.count }
            print(
                "control, \(naive ? "numbers from a sequence, reader past the largest seen (rejected)" : "counter row taken first, read up to its value (ADR 21)"): "
                    + "\(written) rows committed by 8 writers, the reader got \(read), skipped \(written - read)")
        }
    }
}

/// The positions one reader got, in the order it got them.
final class Positions: Sendable {
    private let got = Mutex<[Int64]>([])

    func note(_ position: Int64) { got.withLock { $0.append(position) } }

    var count: Int { got.withLock { $0.count } }

    /// Whether they are exactly `stored` (the store's positions, ascending), in that order.
    func verdict(against stored: [Int64]) -> String {
        let positions = got.withLock { $0 }
        let outOfOrder = zip(positions, positions.dropFirst()).filter { $1 <= $0 }.count
        let missing = Set(stored).subtracting(positions).count
        let verdict = positions == stored ? "gapless and in order" : "NOT the store's positions"
        return "\(positions.count) positions of \(stored.count) stored: \(missing) missing, \(outOfOrder) out of order: \(verdict)"
    }
}
