import Foundation
import Glibc
import Synchronization

/// A PostgreSQL 15 cluster of the tests' own, from Debian's binaries: made with `initdb` in a
/// temporary folder, started with `pg_ctl` on a port of `TestPorts` (as the `postgres` user when
/// the tests run as root, since PostgreSQL refuses root), one per test process, stopped when the
/// process exits. Each test takes a new, empty database of it (`database()`), which the server
/// or the service graph then migrates. It runs with `fsync` off: the tests stop processes, never
/// the machine, and what only a crash of the operating system would lose is not theirs to show.
public final class PostgresCluster: Sendable {
    /// Where Debian puts PostgreSQL 15's server programs.
    public static let binaries = "/usr/lib/postgresql/15/bin"

    /// The cluster's folder (data, log, unix socket).
    public let folder: URL
    /// The port it listens on, at 127.0.0.1 and in `folder`'s socket.
    public let port: Int
    private let databases = Mutex(0)

    /// The process's cluster, started on first use (by one caller: the others wait for it).
    /// - Throws: when PostgreSQL cannot be set up or started (its log's end says why).
    public static func shared() async throws -> PostgresCluster {
        let start = starting.withLock { task in
            if let task { return task }
            let started = Task { try await OwnThread.run { try PostgresCluster() } }
            task = started
            return started
        }
        let cluster = try await start.value
        atExit.withLock { registered in
            guard !registered else { return }
            registered = true
            current.withLock { $0 = cluster }
            // At exit, without Foundation's `Process`, whose waiting needs threads that are going.
            atexit { _ = PostgresCluster.current.withLock { $0 }.map { system($0.stopCommand) } }
        }
        return cluster
    }

    private static let starting = Mutex<Task<PostgresCluster, any Error>?>(nil)
    private static let current = Mutex<PostgresCluster?>(nil)
    private static let atExit = Mutex(false)

    private init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-postgres-\(UUID().uuidString.prefix(8))")
        port = TestPorts.reserve()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if getuid() == 0 { try Self.run("/bin/chown", ["postgres:postgres", folder.path], asPostgres: false) }
        try Self.run(
            "\(Self.binaries)/initdb",
            [
                "-D", folder.appendingPathComponent("data").path, "-U", "postgres", "-A", "trust", "--no-sync",
                "-E", "UTF8", "--locale", "C",
            ])
        try Self.run(
            "\(Self.binaries)/pg_ctl",
            [
                "-D", folder.appendingPathComponent("data").path, "-w", "-l", folder.appendingPathComponent("log").path,
                "-o", "-p \(port) -k \(folder.path) -c listen_addresses=127.0.0.1 -c max_connections=400 -c fsync=off", "start",
            ])
    }

    /// A new empty database of the cluster: its URL, for `--postgres-url` or `GraphOptions.postgresURL`.
    public func database() async throws -> String {
        let number = databases.withLock { count in
            count += 1
            return count
        }
        let name = "messageai_\(number)_\(UUID().uuidString.prefix(6).lowercased())"
        let folder = folder, port = port
        try await OwnThread.run {
            try Self.run("\(Self.binaries)/createdb", ["-h", folder.path, "-p", String(port), "-U", "postgres", name])
        }
        return url(of: name)
    }

    /// The URL of database `name` over TCP.
    public func url(of name: String) -> String { "postgres://postgres@127.0.0.1:\(port)/\(name)" }

    /// Runs `sql` in database `name` with `psql`, as an operator would, and returns what it prints (unaligned, tuples only).
    public func psql(_ sql: String, in name: String) async throws -> String {
        let (folder, port) = (folder, port)
        return try await OwnThread.run {
            try Self.run(
                "/usr/bin/psql", ["-h", folder.path, "-p", String(port), "-U", "postgres", "-d", name, "-At", "-v", "ON_ERROR_STOP=1", "-c", sql])
        }
    }

    /// Runs `sql` with `psql` in the database of `url` (one `database()` gave), as `psql(_:in:)` does.
    public func psql(_ sql: String, onDatabaseAt url: String) async throws -> String {
        try await psql(sql, in: Self.name(ofDatabaseAt: url))
    }

    /// The name of the database of `url` (one `database()` gave).
    public static func name(ofDatabaseAt url: String) -> String { String(url.split(separator: "/").last ?? "") }

    /// The shell command that stops the cluster at once and throws its folder away.
    var stopCommand: String {
        let stop = "\(Self.binaries)/pg_ctl -D '\(folder.path)/data' -m immediate stop"
        return (getuid() == 0 ? "runuser -u postgres -- \(stop)" : stop) + " >/dev/null 2>&1; rm -rf '\(folder.path)'"
    }

    /// Runs `program` to its end (as `postgres` when this process is root) and returns its
    /// output; throws with the output when it fails. Spawned by `SpawnedProgram`: Foundation's
    /// `Process` does not see `pg_ctl start` end (it leaves the server running behind it).
    @discardableResult
    private static func run(_ program: String, _ arguments: [String], asPostgres: Bool = true) throws -> String {
        let argv = (asPostgres && getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", program] : [program]) + arguments
        let run = try SpawnedProgram.run(argv)
        guard run.status == 0 else {
            throw PostgresClusterError(
                description: "\(URL(fileURLWithPath: program).lastPathComponent) failed (status \(run.status)): \(run.output.suffix(2_000))")
        }
        return run.output
    }
}

/// A cluster that could not be set up, started or used, with what its program said.
public struct PostgresClusterError: Error, CustomStringConvertible {
    public let description: String
}
