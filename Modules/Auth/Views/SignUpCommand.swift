import ArgumentParser
import Auth
import CLIKit
import Kernel

/// `messageai signup --email E --name N [--invite CODE] [--password-stdin]`
struct SignUpCommand: FeatureCommand {
    static let configuration = CommandConfiguration(commandName: "signup", abstract: "Create an account and sign in.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "Email address (stored in lower case).") var email: String
    @Option(help: "Display name, 1–64 characters.") var name: String
    @Option(help: "The invitation code a server that admits by invitation gave you.") var invite: String?
    @Flag(help: "Read the password from the first line of standard input (on a terminal it is asked twice).") var passwordStdin = false

    func run(in context: CLIContext) async throws {
        let password = try context.readNewPassword(fromStdin: passwordStdin)
        let model = try context.factory(AuthFactory.self).makeSignInViewModel()
        await model.signUp(email: email, displayName: name, password: password, invite: invite)
        let account = try context.require(model.state)
        try context.emit(account, text: ["Signed up and signed in as \(account.email) (\(account.id))."])
    }
}
