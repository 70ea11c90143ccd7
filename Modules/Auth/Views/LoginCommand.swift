import ArgumentParser
import Auth
import CLIKit
import Kernel

/// `messageai login --email E [--password-stdin]`
struct LoginCommand: FeatureCommand {
    static let configuration = CommandConfiguration(commandName: "login", abstract: "Sign in to an existing account.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "Email address.") var email: String
    @Flag(help: "Read the password from the first line of standard input.") var passwordStdin = false

    func run(in context: CLIContext) async throws {
        let password = try context.readPassword(fromStdin: passwordStdin)
        let model = try context.factory(AuthFactory.self).makeSignInViewModel()
        await model.signIn(email: email, password: password)
        let account = try context.require(model.state)
        try context.emit(account, text: ["Signed in as \(account.email) (\(account.id))."])
    }
}
