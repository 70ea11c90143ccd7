import ArgumentParser
import CLIKit
import Chat
import Kernel

/// `messageai typing CHAT [--seconds N] [--stop]`
struct TypingCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "typing", abstract: "Show the others in a conversation that you are typing, for a while.",
        discussion: """
            For a script or a bot composing an answer: the conversation's other members see "NAME is typing…" beside their \
            REPL's prompt for --seconds (the notice is sent again every 2.5 s), then see it stop. If this process is killed, \
            it stops by itself within 5 s. --stop stops it at once. Typing is never stored, nor shown by tail or history.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Conversation id, title or person's name.") var chat: String
    @Option(help: "How long to show you typing, 1–60 seconds.") var seconds = 5
    @Flag(help: "Stop showing you typing.") var stop = false

    func validate() throws {
        guard (1...60).contains(seconds) else { throw ValidationError("--seconds must be 1–60") }
    }

    func run(in context: CLIContext) async throws {
        let conversation = try await context.lookup.conversationID(for: chat)
        let model = try context.factory(ChatFactory.self).makeTypingViewModel(conversationID: conversation)
        if !stop {
            let until = ContinuousClock.now + .seconds(seconds)
            while ContinuousClock.now < until {
                try await model.sayTyping(true)
                try await Task.sleep(for: min(ChatRules.typingRefresh, until - .now))
            }
        }
        try await model.sayTyping(false)
        try context.emit(["typing": false], text: ["Stopped typing."])
    }
}
