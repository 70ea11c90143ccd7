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
        try Self.run("\(Self.binaries)/initdb", ["-D", folder.appendingPathComponent("data").path, "-U", "postgres", "-A", "trust", "--no-sync",
                                                  "-E", "UTF8", "--locale", "C"])
        try Self.run("\(Self.binaries)/pg_ctl", [
            "-D", folder.appendingPathComponent("data").path, "-w", "-l", folder.appendingPathComponent("log").path,
            "-o", "-p \(port) -k \(folder.path) -c listen_addresses=127.0.0.1 -c max_connections=400 -c fsync=off", "start",
        ])
    }

    /// A new empty database of the cluster: its URL, for `--postgres-url` or `GraphOptions.postgresURL`.
    public func database() async throws -> String {
        let name = "messageai_\(databases.withLock { count in count += 1; return count })_\(UUID().uuidString.prefix(6).lowercased())"
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
            try Self.run("/usr/bin/psql", ["-h", folder.path, "-p", String(port), "-U", "postgres", "-d", name, "-At", "-v", "ON_ERROR_STOP=1", "-c", sql])
        }
    }

    /// The shell command that stops the cluster at once and throws its folder away.
    var stopCommand: String {
        let stop = "\(Self.binaries)/pg_ctl -D '\(folder.path)/data' -m immediate stop"
        return (getuid() == 0 ? "runuser -u postgres -- \(stop)" : stop) + " >/dev/null 2>&1; rm -rf '\(folder.path)'"
    }

    /// Runs `program` to its end (as `postgres` when this process is root) and returns its
    /// output; throws with the output when it fails. Spawned and waited for by hand, with its
    /// output in a file and no other descriptor of this process (`addclosefrom_np`): Foundation's `Process` does not
    /// see `pg_ctl start` end (it leaves the server running behind it), a pipe would stay open as
    /// long as the server runs, and so would any socket of another test's the server inherited.
    @discardableResult
    private static func run(_ program: String, _ arguments: [String], asPostgres: Bool = true) throws -> String {
        let argv = (asPostgres && getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", program] : [program]) + arguments
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-postgres-output-\(UUID().uuidString)").path
        defer { unlink(outputFile) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Every descriptor from 3 up, closed in the child itself: a list made here beforehand would
        // miss one another thread opens meanwhile, such as the socket by which Foundation's
        // `Process` learns that a program it started has ended; the server, inheriting it, would
        // hold it open for good, and that program's `waitUntilExit` would never return.
        // (glibc has it since 2.34; Swift's Glibc module does not show it, so it is looked up.)
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let closeFrom = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map({ unsafeBitCast($0, to: CloseFrom.self) }),
              closeFrom(&actions, 3) == 0 else {
            throw PostgresClusterError(description: "this C library cannot close a spawned program's descriptors (glibc 2.34 or later can)")
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard spawned == 0 else { throw PostgresClusterError(description: "cannot start \(argv[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
        // Exited (the low 7 bits clear) with status 0.
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            throw PostgresClusterError(description: "\(URL(fileURLWithPath: program).lastPathComponent) failed (status \(status)): \(text.suffix(2_000))")
        }
        return text
    }
}

/// A cluster that could not be set up, started or used, with what its program said.
public struct PostgresClusterError: Error, CustomStringConvertible {
    public let description: String
}
