import CLIKit
import ConversationList
import Kernel

/// How list rows read in text, for the CLI and the REPL alike.
@MainActor
enum ConversationText {
    /// One row: its list number when it has one, else its id at the end.
    static func row(_ summary: ConversationSummary, number: Int?, console: Console) -> String {
        let mentions = summary.unreadMentions > 0 ? ", \(summary.unreadMentions) @you" : ""
        let unread = summary.unreadCount > 0 ? console.styled(" (\(summary.unreadCount) unread\(mentions))", .yellow) : ""
        let title = console.styled(TerminalText.line(summary.title), summary.unreadCount > 0 ? .bold : .cyan)
        let preview =
            summary.lastMessage.map { last in
                "  \(TextFormat.time(last.sentAt))  " + (last.deleted ? "(deleted)" : TerminalText.message(TextFormat.preview(last.text)))
            } ?? "  (no messages)"
        return (number.map { "\($0). " } ?? "") + "\(title)\(summary.isGroup ? " [group]" : "")\(unread)" + console.styled(preview, .dim)
            + (number == nil ? "  \(summary.id)" : "")
    }

    /// An invitation, numbered.
    static func invitation(_ invitation: Invitation, number: Int, console: Console) -> String {
        let members = invitation.memberCount == 1 ? "1 member" : "\(invitation.memberCount) members"
        let what = invitation.isGroup ? " [group] from \(TerminalText.line(invitation.inviterName)), \(members)" : ""
        return "\(number). " + console.styled(TerminalText.line(invitation.title), .bold) + what
            + console.styled("  \(TextFormat.time(invitation.invitedAt))  \(invitation.id)", .dim)
    }

    /// A line for each person not invited to a conversation just started, saying why; each named
    /// as they were typed (`references`, in the order of their `ids`).
    static func notInvited(_ summary: ConversationSummary, references: [String], ids: [UserID]) -> [String] {
        let typed = Dictionary(zip(ids, references), uniquingKeysWith: { first, _ in first })
        return (summary.notInvited ?? []).map { refusal in
            let who = TerminalText.line(typed[refusal.userID] ?? refusal.userID.rawValue)
            return switch refusal.reason {
            case .alreadyInvited: "\(who) was not invited again: your invitation waits for their answer."
            case .full: "\(who) was not invited: \(ConversationRules.maxPendingInvitations) invitations wait for them, all from people they know."
            }
        }
    }

    /// Numbered rows, or for no conversations a line pointing at `startHint` (each front end's own command).
    static func rows(_ summaries: [ConversationSummary], console: Console, startHint: String) -> [String] {
        guard !summaries.isEmpty else { return ["No conversations yet. Start one with `\(startHint)`."] }
        return summaries.enumerated().map { row($1, number: $0 + 1, console: console) }
    }
}
