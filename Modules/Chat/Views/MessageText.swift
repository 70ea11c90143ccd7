import CLIKit
import Chat
import Kernel

/// How a message reads in text, for the CLI and the REPL alike.
@MainActor
enum MessageText {
    static func line(_ message: Message, sender: String, console: Console) -> String {
        let marker = switch message.state {
        case .sent: ""
        case .pending: console.styled(" (sending…)", .dim)
        case .queued: console.styled(" (queued: sent when the server is back)", .yellow)
        case .failed: console.styled(message.failureReason.map { " (not sent: \(TerminalText.line($0)))" } ?? " (failed — /retry)", .red)
        }
        let body = TerminalText.message(message.text)
        return console.styled("[\(TextFormat.time(message.sentAt))]", .dim) + " " + console.styled(TerminalText.line(sender), .bold) + ": " + body + marker
    }

    /// Lines for `messages`, naming senders from `names` ("You" for `me`).
    static func lines(_ messages: [Message], names: [UserID: String], me: UserID?, console: Console) -> [String] {
        messages.map { message in
            // Sending: this device's own, before the backend names the sender.
            let mine = message.senderID == me || message.state == .pending
            return line(message, sender: mine ? "You" : names[message.senderID] ?? message.senderID.rawValue, console: console)
        }
    }
}
