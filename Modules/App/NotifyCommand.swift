import AppContainer
import ArgumentParser
import CLIKit
import Kernel

/// `messageai notify`: the notices of direct messages and mentions, headless, for an always-on
/// box that forwards them (to a phone, say): one JSON object a line on standard output, and each
/// handed to `notify.command` when one is set.
struct NotifyCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify", abstract: "Follow the messages that would notify you, one JSON line each, until stopped.",
        discussion: """
            A message notifies you when it is sent to you alone or mentions you (NotificationRules): never your own, \
            nor one caught up after the stream was away, nor one from someone you blocked. Each line is \
            {"v":1,"reason":"direct"|"mention"|"message","conversationID","conversation","messageID","senderID","sender","text","sentAt"}; \
            with notify.command set, that program (run without a shell, killed after 5 s) gets the same line on its \
            standard input. Example: notify.command=/usr/local/bin/push-to-phone.
            """)
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) async throws {
        let container = try context.factory(AppContainer.self)
        guard try await context.lookup.currentUserID() != nil else { throw AppError.notSignedIn }
        // Headless: the command only, nothing on a terminal.
        let commands = container.settings.value(.notifyCommand).map { Notifier(style: .off, command: $0, environment: [:]) { _ in } }
        let console = context.console
        let notices = try await context.lookup.notices(open: { nil })
        console.printError("Following the messages that notify you; Ctrl-C stops.")
        for await notice in notices {
            console.print(notice.json)
            commands?.notify(notice)
        }
    }
}
