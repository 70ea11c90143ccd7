import ArgumentParser
import Auth
import Foundation
import Kernel
import MessageAIServer
import ServiceGraph

/// `messageai-server admin`: what an operator does on the server's store directly, beside a
/// running server or without one: its accounts and admins, invitation codes and the audit
/// record. The same actions as the admin API's (`AdminService`), allowed to the operator alone.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin", abstract: "Look after the server's store directly: accounts, admins, invitation codes, the audit record.",
        discussion: """
            Each change is recorded in the audit record (`admin audit`), naming you operator:USER@HOST, and written as one JSON \
            line to standard error. Make the first admin here (`admin grant EMAIL`); admins then use `messageai admin` too.
            """,
        subcommands: [UsersCommand.self, Grant.self, Revoke.self, InvitesCommand.self, AuditCommand.self])

    struct Grant: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make an account an admin of the server.")
        @Argument(help: "the account's email, or its user id (as reports show it)") var email: String
        @OptionGroup var store: StoreOptions

        func run() async throws { try await store.run { print(try await $0.setAdmin(email: email, true).line) } }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make an account no longer an admin (never the last one: exit 67).")
        @Argument(help: "the account's email, or its user id (as reports show it)") var email: String
        @OptionGroup var store: StoreOptions

        func run() async throws { try await store.run { print(try await $0.setAdmin(email: email, false).line) } }
    }
}

/// `messageai-server admin audit`: what operators and admins did, newest first.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "List what operators and admins did (codes, resets, suspensions, admins), newest first.")
    @Option(help: "how many entries (1–1000)") var limit = AdminRules.defaultPage
    @OptionGroup var store: StoreOptions

    func run() async throws {
        try await store.run { admin in
            for entry in try await admin.auditEntries(limit: limit) { print(entry.line) }
        }
    }
}

/// `messageai-server admin users list|show|suspend|reinstate|reset-password`.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users", abstract: "The server's accounts.",
        subcommands: [List.self, Show.self, Suspend.self, Reinstate.self, Deactivate.self, ResetPassword.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the accounts by email: id, admin, suspended, joined.")
        @Option(help: "start after this email (the last of the page before)") var after: String?
        @Option(help: "how many (1–1000)") var limit = AdminRules.defaultPage
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await store.run { admin in
                for account in try await admin.accounts(after: after, limit: limit) { print(account.line) }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one account.")
        @Argument(help: "the account's email, or its user id (as reports show it)") var email: String
        @OptionGroup var store: StoreOptions

        func run() async throws { try await store.run { print(try await $0.account(email: email).line) } }
    }

    struct Suspend: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Suspend an account: every session of it ends and it signs in no more; its data stays.",
            discussion: """
                Every running server on the store (each instance on PostgreSQL, the server of a SQLite file) closes \
                the account's sockets within about a second. Sign-in then answers "this account is suspended" \
                (exit 76), and others see its name marked suspended.
                """)
        @Argument(help: "the account's email, or its user id (as reports show it)") var email: String
        @OptionGroup var store: StoreOptions

        func run() async throws { try await store.run { print(try await $0.setSuspended(email: email, true).line) } }
    }

    struct Reinstate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Reinstate a suspended account: it may sign in again.")
        @Argument(help: "the account's email, or its user id (as reports show it)") var email: String
        @OptionGroup var store: StoreOptions

        func run() async throws { try await store.run { print(try await $0.setSuspended(email: email, false).line) } }
    }

    struct Deactivate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: AdminRules.deactivateSummary)
        @Argument(help: "the account's email, or its user id (as reports show it)") var email: String
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await store.run { admin in
                try await admin.deactivate(email: email)
                print("deactivated \(email)")
            }
        }
    }

    struct ResetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-password", abstract: "Print a one-time code (good for an hour) that sets a new password.",
            discussion: """
                Give the code to the account's owner by a channel you trust; they run `messageai passwd --reset-code`. \
                Redeeming it ends every session of the account. A newer code replaces an older one; the code is kept \
                only as its digest and never logged.
                """)
        @Argument(help: "the account's email, or its user id (as reports show it)") var email: String
        @OptionGroup var store: StoreOptions

        func run() async throws { try await store.run { print(try await $0.issuePasswordReset(email: email)) } }
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

    /// Who runs the command, as the audit record names an operator: `operator:USER@HOST`.
    static var actor: String {
        "operator:\(ProcessInfo.processInfo.userName)@\(ProcessInfo.processInfo.hostName)"
    }

    /// Writes `entry` as one JSON line to standard error, the command's log.
    @Sendable static func log(_ entry: AuditEntry) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .iso8601
        guard let json = try? encoder.encode(entry) else { return }
        FileHandle.standardError.write(Data("{\"audit\":".utf8) + json + Data("}\n".utf8))
    }

    /// Runs `body` with the operator's admin service over the store, a failure printed as one
    /// line with its exit code.
    func run(_ body: (any AdminService) async throws -> Void) async throws {
        do {
            let key = store?.hasPrefix("postgres") == true ? ServerSettings.Key.postgresURL : ServerSettings.Key.sqlitePath
            let commandLine = store.map { [key.name: $0] } ?? [:]
            let settings = try ServerSettings.load(commandLine: commandLine, configFile: nil, environment: ProcessInfo.processInfo.environment)
            let graph = try await MessageAIServer.openGraph(settings, auditLog: Self.log)
            defer { graph.close() }
            try await body(try graph.operatorAdmin(named: Self.actor))
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
            try await store.run { admin in
                let (code, invite) = try await admin.createInvite(uses: uses, lifetime: try RegistrationRules.lifetime(expires))
                print(code)
                FileHandle.standardError.write(Data("code \(invite.line(at: Date())); shown only now\n".utf8))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the codes: id, uses left, expiry (never the codes).")

        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await store.run { admin in
                let now = Date()
                for code in try await admin.invites() { print(code.line(at: now)) }
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a code by its id (from list).")
        @Argument(help: "the code's id") var id: String
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await store.run { admin in
                try await admin.revokeInvite(id: id)
                print("revoked \(id)")
            }
        }
    }
}
