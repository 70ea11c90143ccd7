import ArgumentParser
import Auth
import Foundation
import Kernel
import MessageAIServer
import ServiceGraph

/// `messageai-server admin`: what an operator does on the server's store directly, beside a
/// running server or without one: today its invitation codes (`admin invites`).
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin", abstract: "Look after the server's store directly: invitation codes, password resets, suspensions.",
        subcommands: [InvitesCommand.self, UsersCommand.self, AuditCommand.self])
}

/// `messageai-server admin audit`: what operators did, newest first.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "List what operators did (codes made and revoked, resets, suspensions), newest first.")
    @Option(help: "how many entries (1–1000)") var limit = 50
    @OptionGroup var store: StoreOptions

    func run() async throws {
        guard (1...1_000).contains(limit) else { throw ValidationError("--limit is from 1 to 1000") }
        try await store.run { graph in
            for entry in try await graph.auditEntries(limit: limit) {
                print("\(entry.at.formatted(.iso8601))  \(entry.actor)  \(entry.action)  \(entry.subject)")
            }
        }
    }
}

/// `messageai-server admin users reset-password|suspend|reinstate EMAIL`: a password reset
/// without mail, and suspensions.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users", abstract: "The server's accounts.", subcommands: [ResetPassword.self, Suspend.self, Reinstate.self])

    struct Suspend: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Suspend an account: every session of it ends and it signs in no more; its data stays.",
            discussion: """
                On PostgreSQL every instance closes the account's sockets within about a second. A running server \
                over a SQLite file refuses its sessions within 2 s (the time it trusts a checked token). Sign-in \
                then answers "this account is suspended" (exit 76).
                """)
        @Argument(help: "the account's email") var email: String
        @OptionGroup var store: StoreOptions

        func run() async throws { try await store.setSuspended(email, true) }
    }

    struct Reinstate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Reinstate a suspended account: it may sign in again.")
        @Argument(help: "the account's email") var email: String
        @OptionGroup var store: StoreOptions

        func run() async throws { try await store.setSuspended(email, false) }
    }

    struct ResetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-password", abstract: "Print a one-time code (good for an hour) that sets a new password.",
            discussion: """
                Give the code to the account's owner by a channel you trust; they run `messageai passwd --reset-code`. \
                Redeeming it ends every session of the account. A newer code replaces an older one; the code is kept \
                only as its digest and never logged.
                """)
        @Argument(help: "the account's email") var email: String
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await store.run { graph in
                let code = try await graph.issuePasswordReset(forEmail: email)
                try await StoreOptions.audit("users.reset-password", subject: email.lowercased(), in: graph)
                print(code)
            }
        }
    }
}

/// The store an admin command works on: the server's. (Not `--sqlite-path` and the rest, which
/// the server's own options take wherever they stand on the command line.)
struct StoreOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "the server's store: its SQLite file, or its postgres:// URL (default: as the server finds it: MESSAGEAI_SERVER_ variables, then its default file)",
            valueName: "file-or-url"))
    var store: String?

    /// Suspends (or reinstates) the account of `email` and says so with its id.
    func setSuspended(_ email: String, _ suspending: Bool) async throws {
        try await run { graph in
            let account = try await graph.setSuspended(email: email, suspending)
            try await Self.audit(suspending ? "users.suspend" : "users.reinstate", subject: "\(account.email) (\(account.id))", in: graph)
            print("\(suspending ? "suspended" : "reinstated") \(account.email) (\(account.id))")
        }
    }

    /// Who runs the command, as the audit record names an operator: `operator:USER@HOST`.
    static var actor: String {
        "operator:\(ProcessInfo.processInfo.userName)@\(ProcessInfo.processInfo.hostName)"
    }

    /// Records that the operator did `action` to `subject` (`ServiceGraph.audit`) and writes the
    /// same as one JSON line to standard error, the command's log.
    static func audit(_ action: String, subject: String, in graph: ServiceGraph) async throws {
        let entry = try await graph.audit(action, subject: subject, by: actor)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .iso8601
        FileHandle.standardError.write(Data("{\"audit\":".utf8) + (try encoder.encode(entry)) + Data("}\n".utf8))
    }

    /// Runs `body` on the store's graph, a failure printed as one line with its exit code.
    func run(_ body: (ServiceGraph) async throws -> Void) async throws {
        do {
            let key = store?.hasPrefix("postgres") == true ? ServerSettings.Key.postgresURL : ServerSettings.Key.sqlitePath
            let commandLine = store.map { [key.name: $0] } ?? [:]
            let settings = try ServerSettings.load(commandLine: commandLine, configFile: nil, environment: ProcessInfo.processInfo.environment)
            let graph = try await MessageAIServer.openGraph(settings)
            defer { graph.close() }
            try await body(graph)
        } catch let error as AppError {
            FileHandle.standardError.write(Data("messageai-server: error: \(error.message)\n".utf8))
            throw ExitCode(error.kind.exitCode)
        }
    }
}

/// `messageai-server admin invites create|list|revoke`: the codes a server that admits by
/// invitation (`registration.mode: invite`) takes at `messageai signup --invite CODE`.
struct InvitesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invites", abstract: "Invitation codes to sign up with.",
        discussion: """
            A code is shown once, when it is made, and kept only as its digest: note it then. Each admits \
            --uses sign-ups (one per account) until it expires; a used-up, expired, revoked or mistyped \
            code gets the same refusal.
            """,
        subcommands: [Create.self, List.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a code and print it (once).")
        @Option(help: "how many sign-ups it admits (1–10000)") var uses = 1
        @Option(help: ArgumentHelp("how long it lasts: 30m, 12h, 7d (at most 365d)", valueName: "time")) var expires = "7d"
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await store.run { graph in
                let (code, record) = try await graph.createRegistrationCode(uses: uses, lifetime: try RegistrationRules.lifetime(expires))
                try await StoreOptions.audit("invites.create", subject: "code \(record.id) (\(record.uses) uses)", in: graph)
                print(code)
                FileHandle.standardError.write(
                    Data("code \(record.id): \(record.uses) sign-up(s) until \(record.expiresAt.formatted(.iso8601)); shown only now\n".utf8))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the codes: id, uses left, expiry (never the codes).")

        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await store.run { graph in
                let now = Date()
                for code in try await graph.registrationCodes().codes() {
                    let state = code.expiresAt <= now ? "expired" : code.usesLeft == 0 ? "used up" : "expires \(code.expiresAt.formatted(.iso8601))"
                    print("\(code.id)  \(code.usesLeft) of \(code.uses) left  \(state)")
                }
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a code by its id (from list).")
        @Argument(help: "the code's id") var id: String
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await store.run { graph in
                guard try await graph.registrationCodes().revoke(id: id) else { throw AppError(.notFound, "no code \(id)") }
                try await StoreOptions.audit("invites.revoke", subject: "code \(id)", in: graph)
                print("revoked \(id)")
            }
        }
    }
}
