import ArgumentParser
import Foundation
import Kernel
import ServiceGraph

/// `messageai-server migrate`: moves a server's SQLite store into a new PostgreSQL database
/// (`StoreMigration`), saying what it copied.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Move a server's store from its SQLite file into a new, empty PostgreSQL database.",
        discussion: """
            Stop the server first. Everything is copied in one transaction: accounts, sessions (people \
            stay signed in), profiles, conversations, messages, read markers and events, in their order. \
            Interrupted, it leaves the database empty, so run it again; a database that is not empty is \
            refused. The new store has an epoch of its own: clients reload their lists once when they \
            reconnect, then go on live. Then start the servers with --postgres-url URL.
            """)

    @Option(name: .customLong("from-sqlite"), help: ArgumentHelp("the server's SQLite file (its sqlite.path)", valueName: "file"))
    var sqlitePath: String

    @Option(
        name: .customLong("to-postgres"), help: ArgumentHelp("the new database: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE", valueName: "url"))
    var postgresURL: String

    func run() async throws {
        do {
            let started = ContinuousClock.now
            let summary = try await StoreMigration.sqliteToPostgres(from: sqlitePath, to: postgresURL) { print("copied \($0)") }
            let rows = summary.rows.reduce(0) { $0 + $1.count }
            print("done: \(rows) rows in \(ContinuousClock.now - started); start the servers with --postgres-url (store epoch \(summary.epoch))")
        } catch let error as AppError {
            FileHandle.standardError.write(Data("messageai-server: error: \(error.message)\n".utf8))
            throw ExitCode(error.kind.exitCode)
        }
    }
}
