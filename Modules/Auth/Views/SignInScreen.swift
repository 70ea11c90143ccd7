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
            REPLCommand("signup", arguments: "EMAIL NAME", summary: "create an account (asks for a password)") { [unowned self] rest in
                let parts = rest.split(separator: " ", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { return context.showError(AppError(.usage, "usage: /signup EMAIL NAME")) }
                await submit(email: parts[0], name: parts[1])
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

    private func submit(email: String, name: String?) async {
        guard !email.isEmpty else { return context.showError(AppError(.usage, "usage: /login EMAIL")) }
        let password = name == nil ? await context.readSecret(prompt: "Password: ") : await context.readNewSecret(prompt: "Password: ")
        guard let password else { return }
        if let name {
            await model.signUp(email: email, displayName: name, password: password)
        } else {
            await model.signIn(email: email, password: password)
        }
        await context.present(model.state) { account in
            context.show("Signed in as \(account.email).")
            context.navigate(.home)
        }
    }
}
