import CLIKit
import Chat
import Foundation
import Kernel
import REPLKit

/// How a message reads in text, for the CLI and the REPL alike, and as `send` and `history`
/// print it with `--json`.
@MainActor
enum MessageText {
    /// A stored message's JSON row: its fields, `state` (always `sent`, which scripts written
    /// against earlier versions read), and its current state: `edited`, `version`, `deleted`,
    /// `reactions` (each emoji you reacted with, to your id alone; `{}` for none) and
    /// `reactionCounts` (emoji to how many reacted).
    struct JSONRow: Encodable {
        private enum Keys: String, CodingKey { case state, edited, version, deleted, reactions }
        let message: Message

        func encode(to encoder: any Encoder) throws {
            try message.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode("sent", forKey: .state)
            try container.encode(message.edited, forKey: .edited)
            try container.encode(message.version, forKey: .version)
            try container.encode(message.deleted, forKey: .deleted)
            // A message with reactions encodes them itself (its encoding's rule); a row without any says `{}`.
            if message.reactionCounts.isEmpty { try container.encode([String: [UserID]](), forKey: .reactions) }
        }
    }

    /// One message's line: its time, its sender (in yellow when it mentions `me`), its text as it is now and how its send stands.
    static func line(_ entry: Timeline.Entry, sender: String, me: UserID? = nil, console: Console) -> String {
        let marker =
            switch entry.delivery {
            case .sent: ""
            case .pending: console.styled(" (sending…)", .dim)
            case .queued: console.styled(" (queued: sent when the server is back)", .yellow)
            case .failed(let reason): console.styled(reason.map { " (not sent: \(TerminalText.line($0)))" } ?? " (failed — /retry)", .red)
            }
        let body =
            if entry.message?.deleted == true {
                console.styled("(deleted)", .dim)
            } else {
                TerminalText.message(entry.text) + (entry.message?.edited == true ? console.styled(" (edited)", .dim) : "")
                    + (entry.message.map { reactions(of: $0) }.map { $0.isEmpty ? "" : " " + console.styled($0, .dim) } ?? "")
                    + (entry.message?.attachments ?? []).enumerated().map { " " + console.styled(file($1, number: $0 + 1), .cyan) }.joined()
            }
        let mentionsMe = me.map { entry.message?.mentions.contains($0) == true } ?? false
        return console.styled("[\(TextFormat.time(entry.sentAt))]", .dim) + " "
            + console.styled(TerminalText.line(sender), mentionsMe ? .yellow : .bold) + ": "
            + body + marker
    }

    /// A file a message carries, as a line shows it: `[#1 report.pdf, application/pdf, 1.2 MiB]`.
    /// The name is the sender's, filtered for the terminal as any text of theirs.
    static func file(_ attachment: Attachment, number: Int) -> String {
        "[#\(number) \(TerminalText.line(attachment.name)), \(TerminalText.line(attachment.mediaType)), \(FileStreams.size(attachment.size))]"
    }

    /// A message in a few words: the start of its text (`a deleted message` for a tombstone) and its time.
    static func summary(of message: Message) -> String {
        let text =
            message.deleted
            ? "a deleted message"
            : "\u{201C}" + TerminalText.line(String(message.text.prefix(40))) + (message.text.count > 40 ? "…" : "") + "\u{201D}"
        return text + " " + TextFormat.time(message.sentAt)
    }

    /// A message's reactions as `[👍 2 🎉 1]`, most first (then in emoji order); empty for none.
    /// Each emoji goes through the terminal filter, as everything others type does.
    static func reactions(of message: Message) -> String {
        guard !message.reactionCounts.isEmpty else { return "" }
        let counted = message.reactionCounts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
        return "[" + counted.map { "\(TerminalText.line($0.key)) \($0.value)" }.joined(separator: " ") + "]"
    }

    /// The line a reply shows above its text: who it answers and the start of that message now.
    static func quote(of message: Message, names: [UserID: String], me: UserID?, answered: Message?, console: Console) -> String? {
        guard let reply = message.replyTo else { return nil }
        let author = answered.map { $0.senderID == me ? "you" : TerminalText.line(names[$0.senderID] ?? $0.senderID.rawValue) }
        let quoted =
            reply.deleted
            ? "a deleted message"
            : "\u{201C}" + TerminalText.line(reply.quote) + (reply.quote.count < Message.Reply.quoteLength ? "" : "…")
                + "\u{201D}"
        return console.styled("    ↳ replying to " + (author.map { "\($0): " } ?? "") + quoted, .dim)
    }

    /// Lines for `entries`, naming senders from `names` ("You" for `me` and this device's own
    /// sends not stored yet).
    /// A reply's line comes after a line quoting the message it answers (found among `shown`,
    /// the messages on the screen, to name its author).
    static func lines(_ entries: [Timeline.Entry], names: [UserID: String], me: UserID?, console: Console, shown: [Message] = []) -> [String] {
        var onScreen: [MessageID: Message] = [:]
        for message in shown + entries.compactMap(\.message) { onScreen[message.id] = message }
        return entries.map { entry -> String in
            let sender = entry.senderID.map { $0 == me ? "You" : names[$0] ?? $0.rawValue } ?? "You"
            var quoted: String?
            if let message = entry.message, let reply = message.replyTo {
                quoted = quote(of: message, names: names, me: me, answered: onScreen[reply.id], console: console)
            }
            return (quoted.map { $0 + "\n" } ?? "") + line(entry, sender: sender, me: me, console: console)
        }
    }

    /// The line saying what changed in `message` since it was shown as `shown`, changed `by`
    /// ("You" or a name): an edit, a deletion, or only its reactions.
    static func change(of message: Message, shown: Timeline.Entry.Delivery, by who: String, console: Console) -> String {
        guard case .sent(let before) = shown, before.version != message.version || before.deleted != message.deleted else {
            let reactions = reactions(of: message)
            return console.styled("[\(TextFormat.time(message.sentAt))]", .dim) + " "
                + console.styled(who == "You" ? "Your" : who + "'s", .bold) + " message now has "
                + (reactions.isEmpty ? "no reactions" : reactions)
        }
        let what =
            message.deleted
            ? "deleted a message from \(TextFormat.time(message.sentAt))"
            : "edited a message from \(TextFormat.time(message.sentAt)): " + TerminalText.message(message.text)
        return console.styled("[\(TextFormat.time(message.editedAt ?? message.sentAt))]", .dim) + " " + console.styled(who, .bold) + " " + what
    }

    /// Who is typing, from their names: "Grace is typing…", "Grace and Bob are typing…", or
    /// "3 people are typing…"; "" for no one. Each name is cut to 20 characters.
    static func typing(_ names: [String]) -> String {
        let shown = names.map { TextFormat.preview($0, limit: 20) }
        switch shown.count {
        case 0: return ""
        case 1: return shown[0] + " is typing…"
        case 2: return shown[0] + " and " + shown[1] + " are typing…"
        default: return "\(shown.count) people are typing…"
        }
    }
}

/// Where a day's heading goes among a conversation's messages as the REPL shows them: before a
/// message of another day than the one shown before it, whether it arrives after the others or
/// in a page of older ones shown before them.
@MainActor
struct DayHeadings {
    /// The days of the oldest and of the newest message shown.
    private var oldest: Date?, newest: Date?

    /// `items` (what each message of `entries` prints: its line and pictures) with the headings
    /// they need: after the newest shown, or `older`, before the oldest shown.
    mutating func placing(_ items: [[Printed]], of entries: [Timeline.Entry], older: Bool, console: Console) -> [Printed] {
        var placed: [Printed] = []
        var day = older ? nil : newest
        for (entry, item) in zip(entries, items) {
            let today = Calendar.current.startOfDay(for: entry.sentAt)
            if let day, day != today { placed.append(.line(Self.heading(today, console: console))) }
            day = today
            placed += item
        }
        guard let first = entries.first.map({ Calendar.current.startOfDay(for: $0.sentAt) }), let day else { return placed }
        if older {
            if let oldest, oldest != day { placed.append(.line(Self.heading(oldest, console: console))) }
            oldest = first
            newest = newest ?? day
        } else {
            newest = day
            oldest = oldest ?? first
        }
        return placed
    }

    /// `──── Friday 27 November ────`, dimmed.
    static func heading(_ day: Date, console: Console) -> String {
        console.styled("──── " + day.formatted(.dateTime.weekday(.wide).day().month(.wide)) + " ────", .dim)
    }
}
