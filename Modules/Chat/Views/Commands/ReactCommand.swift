import ArgumentParser
import CLIKit
import Chat
import Kernel

/// `messageai react CHAT MESSAGE EMOJI [--remove]`
struct ReactCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "react", abstract: "Add your reaction to a message, or take it back.",
        discussion: """
            A reaction is one emoji. Every member sees it live and in history. Adding it again, or removing one you have not \
            added, changes nothing. A message takes at most 20 different emoji, and at most 10 of yours (exit 67 past either). \
            MESSAGE is the id `history --json` prints.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Conversation id, title or person's name.") var chat: String
    @Argument(help: "The message's id.") var message: String
    @Argument(help: "One emoji.") var emoji: String
    @Flag(help: "Take your reaction back.") var remove = false

    func run(in context: CLIContext) async throws {
        let messageID: MessageID = try Validation.identifier(message, field: "MESSAGE")
        let conversation = try await context.lookup.conversationID(for: chat)
        let model = try context.factory(ChatFactory.self).makeChatViewModel(conversationID: conversation)
        guard let reacted = await model.react(to: messageID, with: emoji, adding: !remove) else {
            throw model.changeError ?? AppError(.internal, "the reaction was not acknowledged")
        }
        let summary = MessageText.reactions(of: reacted)
        try context.emit(MessageText.JSONRow(message: reacted), text: ["Reactions on \(reacted.id): \(summary.isEmpty ? "none" : summary)."])
    }
}
