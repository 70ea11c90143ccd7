import ArgumentParser
import CLIKit
import Chat
import Kernel
import REPLKit

/// Chat's views, plugged into both front ends.
public enum ChatFeature: CLIPlugin, REPLPlugin {
    public static let featureName = "chat"

    public static let commands: [any ParsableCommand.Type] = [
        SendCommand.self, EditCommand.self, DeleteCommand.self, ReactCommand.self, ReceiptsCommand.self, TypingCommand.self, HistoryCommand.self,
        ReadCommand.self, TailCommand.self,
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
            REPLCommand("receipts", arguments: "private|shared", summary: "keep your read receipts private, or share them") { argument in
                guard ["private", "shared"].contains(argument) else { return context.show("Say /receipts private or /receipts shared.") }
                let model = context.factory(ChatFactory.self).makeReceiptPrivacyViewModel()
                await model.set(private: argument == "private")
                await context.present(model.state) { isPrivate in
                    context.show(
                        isPrivate
                            ? "Your read receipts are private: no one sees how far you read, and you see no one's." : "Your read receipts are shared."
                    )
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
