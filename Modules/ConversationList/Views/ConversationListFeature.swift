import ArgumentParser
import CLIKit
import ConversationList
import Kernel
import REPLKit

/// ConversationList's views, plugged into both front ends.
public enum ConversationListFeature: CLIPlugin, REPLPlugin {
    public static let featureName = "conversationlist"

    public static let commands: [any ParsableCommand.Type] = [ChatsCommand.self]

    @MainActor public static func screen(for route: Route, context: REPLContext) -> (any REPLScreen)? {
        route == .conversations ? ConversationListScreen(context: context) : nil
    }

    /// The list is home once signed in.
    @MainActor public static func start(signedIn: Bool, context: REPLContext) async -> REPLStart? {
        signedIn ? REPLStart(.conversations, rank: 30) : nil
    }

    @MainActor public static func commands(context: REPLContext) -> [REPLCommand] {
        [
            REPLCommand("new", arguments: "USER", summary: "open or start a one-to-one conversation") { user in
                await start(context: context, users: user, title: nil)
            },
            REPLCommand("group", arguments: "TITLE: USER, USER…", summary: "create a group") { arguments in
                let parts = arguments.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else { return context.showError(AppError(.usage, "usage: /group TITLE: USER, USER…")) }
                await start(context: context, users: parts[1], title: parts[0])
            },
        ]
    }

    @MainActor private static func start(context: REPLContext, users: String, title: String?) async {
        let references = users.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        guard !references.isEmpty else { return context.showError(AppError(.usage, "name at least one user")) }
        do {
            let ids = try await context.lookup.userIDs(for: references)
            let model = context.factory(ConversationListFactory.self).makeConversationListViewModel()
            await model.startConversation(with: ids, title: title)
            await context.present(model.created) { summary in context.navigate(.push(.conversation(summary.id))) }
        } catch {
            context.showError(AppError(error))
        }
    }
}
