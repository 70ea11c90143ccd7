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
        case .failed: console.styled(" (failed — /retry)", .red)
        }
        let body = TerminalText.message(message.text)
        return console.styled("[\(TextFormat.time(message.sentAt))]", .dim) + " " + console.styled(TerminalText.line(sender), .bold) + ": " + body + marker
    }

    /// Lines for `messages`, naming senders from `names` ("You" for `me`).
    static func lines(_ messages: [Message], names: [UserID: String], me: UserID?, console: Console) -> [String] {
        messages.map { line($0, sender: $0.senderID == me ? "You" : names[$0.senderID] ?? $0.senderID.rawValue, console: console) }
    }
}
