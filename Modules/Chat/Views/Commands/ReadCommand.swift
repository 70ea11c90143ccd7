import ArgumentParser
import CLIKit
import Chat
import Kernel

/// `messageai read CHAT`
struct ReadCommand: FeatureCommand {
    static let configuration = CommandConfiguration(commandName: "read", abstract: "Mark a conversation as read.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Conversation id, title or person's name.") var chat: String

    func run(in context: CLIContext) async throws {
        let id = try await context.lookup.conversationID(for: chat)
        let model = try context.factory(ChatFactory.self).makeChatViewModel(conversationID: id)
        await model.markRead()
        _ = try context.require(model.readState)
        try context.emit(["conversationId": id.rawValue], text: ["Marked \(id) as read."])
    }
}
