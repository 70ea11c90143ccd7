import ArgumentParser
import Auth
import CLIKit
import Kernel

/// `messageai signup --email E --name N [--password-stdin]`
struct SignUpCommand: FeatureCommand {
    static let configuration = CommandConfiguration(commandName: "signup", abstract: "Create an account and sign in.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "Email address (stored in lower case).") var email: String
    @Option(help: "Display name, 1–64 characters.") var name: String
    @Flag(help: "Read the password from the first line of standard input.") var passwordStdin = false

    func run(in context: CLIContext) async throws {
        let password = try context.readPassword(fromStdin: passwordStdin)
        let model = try context.factory(AuthFactory.self).makeSignInViewModel()
        await model.signUp(email: email, displayName: name, password: password)
        let account = try context.require(model.state)
        try context.emit(account, text: ["Signed up and signed in as \(account.email) (\(account.id))."])
    }
}

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

/// `messageai logout`
struct LogoutCommand: FeatureCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Sign out of this profile.")
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) async throws {
        let model = try context.factory(AuthFactory.self).makeSessionViewModel()
        await model.signOut()
        _ = try context.require(model.lastAction)
        try context.emit(["signedIn": false], text: ["Signed out."])
    }
}

/// `messageai whoami`
struct WhoAmICommand: FeatureCommand {
    static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Show the signed-in account.")
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) async throws {
        let model = try context.factory(AuthFactory.self).makeSessionViewModel()
        await model.load()
        guard let account = try context.require(model.account) else { throw AppError.notSignedIn }
        try context.emit(account, text: ["\(account.email) (\(account.id))"])
    }
}

/// `messageai passwd`
struct ChangePasswordCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "passwd", abstract: "Change the password.",
        discussion: "Reads the current and the new password, each on its own line with --password-stdin.")
    @OptionGroup var global: GlobalOptions
    @Flag(help: "Read both passwords from standard input, one per line.") var passwordStdin = false

    func run(in context: CLIContext) async throws {
        let current = try context.readPassword(fromStdin: passwordStdin, prompt: "Current password: ")
        let new = try context.readPassword(fromStdin: passwordStdin, prompt: "New password: ")
        let model = try context.factory(AuthFactory.self).makeSessionViewModel()
        await model.changePassword(current: current, new: new)
        _ = try context.require(model.lastAction)
        try context.emit(["passwordChanged": true], text: ["Password changed."])
    }
}
