import ArgumentParser

/// `messageai chats [new]`
struct ChatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chats", abstract: "List your conversations, or start one.",
        subcommands: [ListChatsCommand.self, NewChatCommand.self], defaultSubcommand: ListChatsCommand.self)
}
