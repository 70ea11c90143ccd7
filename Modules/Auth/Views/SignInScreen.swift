import Auth
import CLIKit
import Kernel
import REPLKit

/// The REPL's first screen when nobody is signed in: `/login EMAIL` or `/signup EMAIL NAME`.
/// With Auth alone and someone signed in, it says who (and `/login` switches).
@MainActor
final class SignInScreen: REPLScreen {
    let prompt = "sign in> "
    private let context: REPLContext
    private let model: SignInViewModel

    init(context: REPLContext) {
        self.context = context
        model = context.factory(AuthFactory.self).makeSignInViewModel()
    }

    var commands: [REPLCommand] {
        [
            REPLCommand("login", arguments: "EMAIL", summary: "sign in (asks for the password)") { [unowned self] email in
                await submit(email: email, name: nil)
            },
            REPLCommand("signup", arguments: "EMAIL NAME [--invite CODE]", summary: "create an account (asks for a password)") {
                [unowned self] rest in
                let (given, invite) = Self.invite(in: rest)
                let parts = given.split(separator: " ", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { return context.showError(AppError(.usage, "usage: /signup EMAIL NAME [--invite CODE]")) }
                await submit(email: parts[0], name: parts[1], invite: invite)
            },
        ]
    }

    func enter() async {
        let session = context.factory(AuthFactory.self).makeSessionViewModel()
        await session.load()
        if let account = session.account.value ?? nil {
            return context.say("Signed in as \(account.email). /logout to sign out, /login EMAIL to switch, /help for more.")
        }
        context.say("Welcome to MessageAI. /login EMAIL to sign in, /signup EMAIL NAME to create an account, /help for more.")
    }

    func handle(_ line: String) async {
        context.say("Not signed in yet: /login EMAIL or /signup EMAIL NAME.")
    }

    /// `rest` without a trailing `--invite CODE`, and the code.
    static func invite(in rest: String) -> (rest: String, invite: String?) {
        guard let range = rest.range(of: " --invite ", options: .backwards) else { return (rest, nil) }
        let code = rest[range.upperBound...].trimmingCharacters(in: .whitespaces)
        return (String(rest[..<range.lowerBound]), code.isEmpty ? nil : code)
    }

    private func submit(email: String, name: String?, invite: String? = nil) async {
        guard !email.isEmpty else { return context.showError(AppError(.usage, "usage: /login EMAIL")) }
        let password = name == nil ? await context.readSecret(prompt: "Password: ") : await context.readNewSecret(prompt: "Password: ")
        guard let password else { return }
        if let name {
            await model.signUp(email: email, displayName: name, password: password, invite: invite)
        } else {
            await model.signIn(email: email, password: password)
        }
        await context.present(model.state) { account in
            context.show("Signed in as \(account.email).")
            context.navigate(.home)
        }
    }
}
