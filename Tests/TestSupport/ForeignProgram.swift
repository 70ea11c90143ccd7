import Foundation

/// A program nobody here wrote that an operator may point at a MessageAI database while it
/// runs: the `sqlite3` shell reading it or backing it up, or Python's `sqlite3` module reading it.
public struct ForeignProgram: Sendable, CustomStringConvertible {
    /// What a run printed.
    public struct Run: Sendable {
        public let status: Int32
        /// Standard output, trimmed.
        public let output: String
        public let errors: String
    }

    /// A short name, for file names and test names.
    public let name: String
    private let executable: String
    private let arguments: @Sendable (_ database: String, _ scratch: URL) -> [String]

    public var description: String { name }

    /// `sqlite3 FILE 'SELECT count(*) FROM sqlite_master'`.
    public static let sqlite3 = ForeignProgram(name: "sqlite3-shell", executable: "/usr/bin/sqlite3") { database, _ in
        [database, "SELECT count(*) FROM sqlite_master"]
    }
    /// Python's `sqlite3` module: connect, read, close.
    public static let python = ForeignProgram(name: "python-sqlite3", executable: "/usr/bin/env") { database, _ in
        [
            "python3", "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); print(c.execute('SELECT count(*) FROM sqlite_master').fetchone()[0]); c.close()",
            database,
        ]
    }
    /// `sqlite3 FILE '.backup COPY'`, the online backup an operator is told to use.
    public static let backup = ForeignProgram(name: "sqlite3-backup", executable: "/usr/bin/sqlite3") { database, scratch in
        [database, ".backup '\(scratch.appendingPathComponent("backup-\(UUID().uuidString).sqlite").path)'"]
    }

    /// `sqlite3 FILE "VACUUM INTO 'COPY'"`, the other consistent copy the README names.
    public static let vacuumInto = ForeignProgram(name: "sqlite3-vacuum-into", executable: "/usr/bin/sqlite3") { database, scratch in
        [database, "VACUUM INTO '\(scratch.appendingPathComponent("copy-\(UUID().uuidString).sqlite").path)'"]
    }

    /// Every one, for parameterised tests.
    public static let all = [sqlite3, python, backup, vacuumInto]

    /// Runs the program against `database`, keeping what it writes of its own under `scratch`.
    public func run(on database: String, in scratch: URL) async throws -> Run {
        try await Self.execute(executable, arguments(database, scratch))
    }

    /// Runs `sql` through the `sqlite3` shell against `database`: what a new reader sees.
    public static func query(_ sql: String, on database: String) async throws -> Run {
        try await execute("/usr/bin/sqlite3", [database, sql])
    }

    private static func execute(_ executable: String, _ arguments: [String]) async throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let finished = try await process.runToEnd()
        return Run(status: finished.status, output: finished.output.trimmingCharacters(in: .whitespacesAndNewlines), errors: finished.errors)
    }
}
