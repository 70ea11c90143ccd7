import ArgumentParser
import Auth
import CLIKit
import Kernel

/// `messageai report CHAT MESSAGE --reason TEXT`
struct ReportCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Report a message of another member's to the server's admins.",
        discussion: """
            The admins see the message as it is now, who sent it, who reported it and why; nothing else of the conversation. \
            Reporting it again changes nothing. A few an hour (exit 75 past them). MESSAGE is the id `history --json` prints.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Conversation id, title or person's name.") var chat: String
    @Argument(help: "The message's id.") var message: String
    @Option(help: "Why (1–500 characters).") var reason: String

    func run(in context: CLIContext) async throws {
        let messageID: MessageID = try Validation.identifier(message, field: "MESSAGE")
        let conversation = try await context.lookup.conversationID(for: chat)
        let model = try context.factory(AuthFactory.self).makeReportViewModel()
        await model.report(messageID, in: conversation, reason: reason)
        let report = try context.require(model.reported)
        try context.emit(report, text: ["Reported \(report.messageID) to the admins (report \(report.id))."])
    }
}
