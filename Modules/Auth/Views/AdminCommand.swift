import ArgumentParser
import Auth
import CLIKit
import Foundation
import Kernel

/// `messageai admin …`: looking after the server as one of its admins, through its admin API
/// (on a local backend, over its store). The same actions as `messageai-server admin` on the
/// store, and recorded in the same audit record.
struct AdminCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin", abstract: "Look after the server as one of its admins: accounts, admins, invitation codes, the audit record.",
        discussion: """
            Needs an account the server made an admin (the first one with `messageai-server admin grant EMAIL` on its store); \
            anyone else is refused (exit 76). Every change is recorded in the audit record (`messageai admin audit`).
            """,
        subcommands: [Users.self, Grant.self, Revoke.self, Invites.self, Reports.self, Audit.self])

    /// `messageai admin users list|show|suspend|reinstate|reset-password`
    struct Users: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The server's accounts.",
            subcommands: [List.self, Show.self, Suspend.self, Reinstate.self, Deactivate.self, ResetPassword.self],
            defaultSubcommand: List.self)

        struct List: FeatureCommand {
            static let configuration = CommandConfiguration(abstract: "List the accounts by email: id, admin, suspended, joined.")
            @OptionGroup var global: GlobalOptions
            @Option(help: "start after this email (the last of the page before)") var after: String?
            @Option(help: "how many (1–1000)") var limit = AdminRules.defaultPage

            func run(in context: CLIContext) async throws {
                let model = try context.factory(AuthFactory.self).makeAdminViewModel()
                await model.loadAccounts(after: after, limit: limit)
                let accounts = try context.require(model.accounts)
                try context.emitEach(accounts, text: accounts.isEmpty ? ["No accounts."] : accounts.map { TerminalText.line($0.line) })
            }
        }

        struct Show: FeatureCommand {
            static let configuration = CommandConfiguration(abstract: "Show one account.")
            @OptionGroup var global: GlobalOptions
            @Argument(help: "the account's email, or its user id (as reports show it)") var email: String

            func run(in context: CLIContext) async throws {
                try await AdminCommand.act(in: context) { await $0.show(email: email) }
            }
        }

        struct Suspend: FeatureCommand {
            static let configuration = CommandConfiguration(
                abstract: "Suspend an account: its sessions and sockets end within 2 s; it signs in no more (exit 76); its data stays.")
            @OptionGroup var global: GlobalOptions
            @Argument(help: "the account's email, or its user id (as reports show it)") var email: String

            func run(in context: CLIContext) async throws {
                try await AdminCommand.act(in: context) { await $0.setSuspended(email: email, true) }
            }
        }

        struct Reinstate: FeatureCommand {
            static let configuration = CommandConfiguration(abstract: "Reinstate a suspended account.")
            @OptionGroup var global: GlobalOptions
            @Argument(help: "the account's email, or its user id (as reports show it)") var email: String

            func run(in context: CLIContext) async throws {
                try await AdminCommand.act(in: context) { await $0.setSuspended(email: email, false) }
            }
        }

        struct Deactivate: FeatureCommand {
            static let configuration = CommandConfiguration(abstract: AdminRules.deactivateSummary)
            @OptionGroup var global: GlobalOptions
            @Argument(help: "the account's email, or its user id (as reports show it)") var email: String

            func run(in context: CLIContext) async throws {
                try await AdminCommand.act(in: context) { await $0.deactivate(email: email) }
            }
        }

        struct ResetPassword: FeatureCommand {
            static let configuration = CommandConfiguration(
                commandName: "reset-password",
                abstract: "Print a one-time code (good for an hour) its owner sets a new password with (messageai passwd --reset-code).")
            @OptionGroup var global: GlobalOptions
            @Argument(help: "the account's email, or its user id (as reports show it)") var email: String

            func run(in context: CLIContext) async throws {
                try await AdminCommand.act(in: context) { await $0.resetPassword(email: email) }
            }
        }
    }

    /// `messageai admin grant EMAIL`
    struct Grant: FeatureCommand {
        static let configuration = CommandConfiguration(abstract: "Make an account an admin.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "the account's email, or its user id (as reports show it)") var email: String

        func run(in context: CLIContext) async throws {
            try await AdminCommand.act(in: context) { await $0.setAdmin(email: email, true) }
        }
    }

    /// `messageai admin revoke EMAIL`
    struct Revoke: FeatureCommand {
        static let configuration = CommandConfiguration(abstract: "Make an account no longer an admin (never the last one: exit 67).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "the account's email, or its user id (as reports show it)") var email: String

        func run(in context: CLIContext) async throws {
            try await AdminCommand.act(in: context) { await $0.setAdmin(email: email, false) }
        }
    }

    /// `messageai admin invites create|list|revoke`
    struct Invites: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Invitation codes to sign up with (registration.mode invite).", subcommands: [Create.self, List.self, Revoke.self],
            defaultSubcommand: List.self)

        struct Create: FeatureCommand {
            static let configuration = CommandConfiguration(abstract: "Make a code and print it (once; only its digest is kept).")
            @OptionGroup var global: GlobalOptions
            @Option(help: "how many sign-ups it admits (1–10000)") var uses = 1
            @Option(help: ArgumentHelp("how long it lasts: 30m, 12h, 7d (at most 365d)", valueName: "time")) var expires = "7d"

            func run(in context: CLIContext) async throws {
                try await AdminCommand.act(in: context) { await $0.createInvite(uses: uses, lifetime: expires) }
            }
        }

        struct List: FeatureCommand {
            static let configuration = CommandConfiguration(abstract: "List the codes: id, uses left, expiry (never the codes).")
            @OptionGroup var global: GlobalOptions

            func run(in context: CLIContext) async throws {
                let model = try context.factory(AuthFactory.self).makeAdminViewModel()
                await model.loadInvites()
                let invites = try context.require(model.invites), now = Date()
                try context.emitEach(invites, text: invites.isEmpty ? ["No codes."] : invites.map { $0.line(at: now) })
            }
        }

        struct Revoke: FeatureCommand {
            static let configuration = CommandConfiguration(abstract: "Revoke a code by its id (from list).")
            @OptionGroup var global: GlobalOptions
            @Argument(help: "the code's id") var id: String

            func run(in context: CLIContext) async throws {
                try await AdminCommand.act(in: context) { await $0.revokeInvite(id: id) }
            }
        }
    }

    /// `messageai admin reports list|resolve`
    struct Reports: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Reported messages: as they were when reported, who sent and who reported them, and why.",
            subcommands: [List.self, Resolve.self], defaultSubcommand: List.self)

        struct List: FeatureCommand {
            static let configuration = CommandConfiguration(abstract: "List the open reports, newest first (--all: resolved ones too).")
            @OptionGroup var global: GlobalOptions
            @Flag(help: "Resolved reports too.") var all = false
            @Option(help: "how many (1–1000)") var limit = AdminRules.defaultPage

            func run(in context: CLIContext) async throws {
                let model = try context.factory(AuthFactory.self).makeAdminViewModel()
                await model.loadReports(includingResolved: all, limit: limit)
                let reports = try context.require(model.reports)
                try context.emitEach(
                    reports,
                    text: reports.isEmpty ? ["No reports."] : reports.flatMap { [TerminalText.line($0.line), "    " + TerminalText.line($0.text)] })
            }
        }

        struct Resolve: FeatureCommand {
            static let configuration = CommandConfiguration(
                abstract: "Resolve a report: dismiss it, or with --delete-message delete the message for everyone.",
                discussion: "Either way the report's copy of the message is forgotten, and the audit record names you.")
            @OptionGroup var global: GlobalOptions
            @Argument(help: "the report's id (from list)") var id: String
            @Flag(help: "Delete the reported message for everyone.") var deleteMessage = false

            func run(in context: CLIContext) async throws {
                try await AdminCommand.act(in: context) { await $0.resolveReport(id: id, deletingMessage: deleteMessage) }
            }
        }
    }

    /// `messageai admin audit`
    struct Audit: FeatureCommand {
        static let configuration = CommandConfiguration(abstract: "List what operators and admins did, newest first.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "how many entries (1–1000)") var limit = AdminRules.defaultPage

        func run(in context: CLIContext) async throws {
            let model = try context.factory(AuthFactory.self).makeAdminViewModel()
            await model.loadAudit(limit: limit)
            let entries = try context.require(model.audit)
            try context.emitEach(entries, text: entries.isEmpty ? ["No entries."] : entries.map { TerminalText.line($0.line) })
        }
    }

    /// Runs one action of the admin view model and shows what it gave.
    @MainActor static func act(in context: CLIContext, _ action: (AdminViewModel) async -> Void) async throws {
        let model = try context.factory(AuthFactory.self).makeAdminViewModel()
        await action(model)
        switch try context.require(model.lastAction) {
        case .account(let account): try context.emit(account, text: [TerminalText.line(account.line)])
        case .resetCode(let code): try context.emit(["code": code], text: [code])
        case .invite(let code, let invite):
            try context.emit(
                ["code": code, "id": invite.id], text: [code, "code \(invite.id): \(invite.uses) sign-up(s); \(invite.line(at: Date()))"])
        case .revoked(let id): try context.emit(["revoked": id], text: ["revoked \(id)"])
        case .deactivated(let email): try context.emit(["deactivated": email], text: ["deactivated \(TerminalText.line(email))"])
        case .resolved(let report): try context.emit(report, text: [TerminalText.line(report.line)])
        }
    }
}
