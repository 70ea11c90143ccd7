import ArgumentParser
import CLIKit
import Chat
import Kernel
import REPLKit

/// Chat's views, plugged into both front ends.
public enum ChatFeature: CLIPlugin, REPLPlugin {
    public static let featureName = "chat"

    public static let commands: [any ParsableCommand.Type] = [
        SendCommand.self, EditCommand.self, DeleteCommand.self, ReactCommand.self, HistoryCommand.self, ReadCommand.self, TailCommand.self,
    ]

    @MainActor public static func screen(for route: Route, context: REPLContext) -> (any REPLScreen)? {
        guard case .conversation(let id) = route else { return nil }
        return ChatScreen(context: context, conversationID: id)
    }

    /// Without the list, the most recent conversation (`/chat` switches).
    @MainActor public static func start(signedIn: Bool, context: REPLContext) async -> REPLStart? {
        guard signedIn, let id = try? await context.lookup.mostRecentConversation() else { return nil }
        return REPLStart(.conversation(id), rank: 20)
    }

    @MainActor public static func commands(context: REPLContext) -> [REPLCommand] {
        [
            REPLCommand("chat", arguments: "ID|NAME", summary: "open a conversation by id, title or name") { reference in
                do {
                    context.navigate(.push(.conversation(try await context.lookup.conversationID(for: reference))))
                } catch {
                    context.showError(AppError(error))
                }
            },
            REPLCommand("next", summary: "open the next conversation with unread messages") { _ in
                do {
                    guard let next = try await context.lookup.unreadConversations().first else { return context.show("No unread messages.") }
                    context.navigate(.push(.conversation(next.id)))
                } catch {
                    context.showError(AppError(error))
                }
            },
        ]
    }
}
