import ArgumentParser
import CLIKit
import Kernel
import Profile
import REPLKit

/// Profile's views, plugged into both front ends.
public enum ProfileFeature: CLIPlugin, REPLPlugin {
    public static let featureName = "profile"

    public static let commands: [any ParsableCommand.Type] = [ProfileCommand.self, UsersCommand.self]

    @MainActor public static func screen(for route: Route, context: REPLContext) -> (any REPLScreen)? {
        guard case .profile(let subject) = route else { return nil }
        return ProfileScreen(context: context, subject: subject)
    }

    /// Alone, one's own profile.
    @MainActor public static func start(signedIn: Bool, context: REPLContext) async -> REPLStart? {
        signedIn ? REPLStart(.profile(nil), rank: 10) : nil
    }

    @MainActor public static func commands(context: REPLContext) -> [REPLCommand] {
        [
            REPLCommand("profile", arguments: "[USER]", summary: "show your profile (or a user's by email or id)") { user in
                guard !user.isEmpty else { return context.navigate(.push(.profile(nil))) }
                do {
                    context.navigate(.push(.profile(try await context.lookup.userID(for: user))))
                } catch {
                    context.showError(AppError(error))
                }
            },
            REPLCommand("people", arguments: "QUERY", summary: "find people by name or email prefix (/search finds messages)") { query in
                let model = context.factory(ProfileFactory.self).makeUserSearchViewModel()
                await model.search(query)
                await context.present(model.results) { results in
                    if results.isEmpty { return context.show("No users match \(TerminalText.line(AppError.quoting(query))).") }
                    results.map(ProfileText.row).forEach(context.show)
                }
            },
        ]
    }
}
