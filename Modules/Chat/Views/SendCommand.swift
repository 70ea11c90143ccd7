import ArgumentParser
import CLIKit
import Chat
import Kernel

/// `messageai send CHAT TEXT`
struct SendCommand: FeatureCommand {
    static let configuration = CommandConfiguration(commandName: "send", abstract: "Send a message.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Conversation id, title or person's name.") var chat: String
    @Argument(help: "The text; - reads it from standard input (UTF-8, at most 16,000 bytes).") var text: String

    func run(in context: CLIContext) async throws {
        let id = try await context.lookup.conversationID(for: chat)
        let body = text == "-" ? try context.console.readAll(maxBytes: Validation.maxMessageBytes + 2) : text
        let model = try context.factory(ChatFactory.self).makeChatViewModel(conversationID: id)
        await model.send(body)
        if let error = model.inputError { throw error }
        if let error = model.lastSendError { throw error }
        guard let message = model.timeline.value?.messages.last, message.state == .sent else {
            throw AppError(.internal, "the message was not acknowledged")
        }
        try context.emit(message, text: ["Sent \(message.id)."])
    }
}
