import ArgumentParser
import CLIKit
import ConversationList
import Kernel

/// `messageai leave CHAT`
struct LeaveCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "leave", abstract: "Leave a conversation: nothing more of it reaches you.",
        discussion: "A one-to-one you left is joined again by starting it (messageai chats new USER).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Conversation id, list number, title or name.") var chat: String

    func run(in context: CLIContext) async throws {
        let id = try await context.lookup.conversationID(for: chat)
        let model = try context.factory(ConversationListFactory.self).makeConversationListViewModel()
        await model.leave(id)
        try context.emit(["conversationId": try context.require(model.left).rawValue], text: ["Left."])
    }
}
