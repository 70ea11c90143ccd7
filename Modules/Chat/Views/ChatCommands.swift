import ArgumentParser
import CLIKit
import Chat
import Kernel
import Observation

/// `messageai send CHAT TEXT`
struct SendCommand: FeatureCommand {
    static let configuration = CommandConfiguration(commandName: "send", abstract: "Send a message.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Conversation id, title or person's name.") var chat: String
    @Argument(help: "The text; - reads it from standard input.") var text: String

    func run(in context: CLIContext) async throws {
        let id = try await context.lookup.conversationID(for: chat)
        let body = text == "-" ? Array(sequence(state: context.console) { $0.readLine() }).joined(separator: "\n") : text
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

/// `messageai history CHAT [--limit N] [--before MESSAGE_ID]`
struct HistoryCommand: FeatureCommand {
    static let configuration = CommandConfiguration(commandName: "history", abstract: "Print a conversation's messages, oldest first.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Conversation id, title or person's name.") var chat: String
    @Option(help: "How many messages (1–500).") var limit = 50
    @Option(help: "Only messages older than this message id.") var before: String?

    func validate() throws {
        guard (1...500).contains(limit) else { throw ValidationError("--limit must be from 1 to 500") }
    }

    func run(in context: CLIContext) async throws {
        let id = try await context.lookup.conversationID(for: chat)
        let model = try context.factory(ChatFactory.self).makeChatViewModel(conversationID: id)
        await model.open(limit: limit, before: before.map(MessageID.init(rawValue:)))
        let messages = try context.require(model.timeline).messages
        let names = context.json ? [:] : try await context.lookup.displayNames(of: Array(Set(messages.map(\.senderID))))
        let me = try await context.lookup.currentUserID()
        try context.emitEach(messages, text: MessageText.lines(messages, names: names, me: me, console: context.console))
    }
}

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

/// `messageai tail [CHAT] [--count N]`
struct TailCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "tail", abstract: "Print messages as they arrive.",
        discussion: "Runs until interrupted (Ctrl-C) or until --count messages have arrived.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Conversation id, title or name; all your conversations when left out.") var chat: String?
    @Option(help: "Stop after this many messages.") var count: Int?

    func run(in context: CLIContext) async throws {
        var id: ConversationID?
        if let chat { id = try await context.lookup.conversationID(for: chat) }
        let model = try context.factory(ChatFactory.self).makeLiveFeedViewModel(conversationID: id)
        let me = try await context.lookup.currentUserID()
        var printed = 0
        func printNew() async throws {
            let fresh = Array(model.received.dropFirst(printed))
            printed += fresh.count
            let names = context.json ? [:] : try await context.lookup.displayNames(of: Array(Set(fresh.map(\.senderID))))
            try context.emitEach(fresh, text: MessageText.lines(fresh, names: names, me: me, console: context.console))
        }
        let printer = Task { for await _ in Observations({ model.received.count }) { try? await printNew() } }
        await model.run(limit: count)
        printer.cancel()
        try await printNew()
        if let error = model.connection.error { throw error }
    }
}
