import ArgumentParser
import Auth
import CLIKit
import Kernel
import REPLKit

/// Auth's views, plugged into both front ends.
public enum AuthFeature: CLIPlugin, REPLPlugin {
    public static let featureName = "auth"

    public static let commands: [any ParsableCommand.Type] = [
        SignUpCommand.self, LoginCommand.self, LogoutCommand.self, WhoAmICommand.self, ChangePasswordCommand.self, DeleteAccountCommand.self,
        ReportCommand.self, AdminCommand.self, BotsCommand.self, TokensCommand.self, HooksCommand.self,
    ]

    @MainActor public static func screen(for route: Route, context: REPLContext) -> (any REPLScreen)? {
        route == .signIn ? SignInScreen(context: context) : nil
    }

    /// Sign-in first when nobody is signed in; alone, the sign-in screen (which tells who is signed in).
    @MainActor public static func start(signedIn: Bool, context: REPLContext) async -> REPLStart? {
        REPLStart(.signIn, rank: signedIn ? 0 : 100)
    }

    @MainActor public static func commands(context: REPLContext) -> [REPLCommand] {
        [
            REPLCommand("whoami", summary: "show the signed-in account") { _ in
                let model = context.factory(AuthFactory.self).makeSessionViewModel()
                await model.load()
                await context.present(model.account) { account in
                    guard let account else { return context.showError(AppError.notSignedIn) }
                    context.show("\(account.email) (\(account.id))")
                }
            },
            REPLCommand("logout", summary: "sign out") { _ in
                let model = context.factory(AuthFactory.self).makeSessionViewModel()
                await model.signOut()
                if let error = model.lastAction.error { return context.showError(error) }
                context.show("Signed out.")
                context.navigate(.home)
            },
        ]
    }
}
