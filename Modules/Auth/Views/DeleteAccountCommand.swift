import ArgumentParser
import Auth
import CLIKit
import Kernel

/// `messageai delete-account [--confirm EMAIL] [--password-stdin]`
struct DeleteAccountCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-account", abstract: "Delete your account and every message you sent, for everyone. There is no undo.",
        discussion: """
            Asks you to type your email, then your password. Your messages become tombstones in every conversation (their text \
            and files leave the store), your profile becomes "Deleted user", every session ends and the email may sign up again. \
            Take your data first with `messageai export`. A script gives --confirm EMAIL and the password with --password-stdin. \
            A server's last admin cannot be deleted (exit 67): grant another first.
            """)
    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("your account's email, to confirm without being asked", valueName: "email")) var confirm: String?
    @Flag(help: "Read the password from the first line of standard input.") var passwordStdin = false

    func run(in context: CLIContext) async throws {
        let model = try context.factory(AuthFactory.self).makeSessionViewModel()
        await model.load()
        guard let account = try context.require(model.account) else { throw AppError.notSignedIn }
        let typed: String?
        if let confirm {
            typed = confirm
        } else if context.console.isInteractive, !passwordStdin {
            context.console.printRaw("This deletes \(account.email) and every message it sent, for everyone. Type the email to go on: ")
            typed = try context.console.readLine()
        } else {
            throw AppError(.usage, "confirm with --confirm EMAIL (no terminal to ask on)")
        }
        guard let typed, (try? Validation.email(typed)) == account.email else {
            throw AppError(.usage, "that is not this account's email (\(account.email)); nothing was deleted")
        }
        let password = try context.readPassword(fromStdin: passwordStdin)
        await model.deleteAccount(password: password)
        _ = try context.require(model.lastAction)
        try context.emit(["deleted": account.email], text: ["Deleted \(account.email): your messages are tombstones now, and you are signed out."])
    }
}
