import CLIKit
import Kernel

/// The full-screen UI's conversation list: its entries (unread counts, `@` mentions, quiet ones
/// dimmed and marked `~`), where someone else types (`✎`), how many invitations wait, and the
/// conversation open, marked; drawn in the frame's first columns.
struct ListPane {
    var entries: [ListedConversation] = []
    var invitations = 0
    /// The conversations where someone else is typing.
    var typing: Set<ConversationID> = []
    /// The conversation open.
    var current: ConversationID?

    /// Where the open conversation is in the list.
    var position: Int? { entries.firstIndex { $0.id == current } }

    /// How many conversations a list `height` rows high shows (below its title, above the
    /// invitations' line).
    func rows(height: Int) -> Int { min(entries.count, max(0, height - 1 - (invitations > 0 ? 1 : 0))) }

    /// Draws the list in the first `width` columns of the first `height` rows, the last of
    /// those columns a rule.
    func draw(into buffer: inout CellBuffer, width: Int, height: Int) {
        guard width > 0 else { return }
        buffer.write(StyledText("Conversations", .bolded), row: 0, column: 0, width: width - 1)
        // The invitations' line takes the last row the list has, when any wait.
        let rows = rows(height: height)
        if invitations > 0 {
            let line = StyledText("+\(invitations) invitation\(invitations == 1 ? "" : "s")", CellStyle.bolded.colored(.yellow))
            buffer.write(line, row: rows + 1, column: 0, width: width - 1)
        }
        for (row, entry) in entries.prefix(rows).enumerated() {
            // A quiet (muted) conversation is dimmed, its unread count too: only a mention stands out.
            let line = StyledText("\(entry.number) ", entry.quiet ? .dimmed : .plain) + StyledText(entry.title, entry.quiet ? .dimmed : .plain)
            var marks = typing.contains(entry.id) ? StyledText(" ✎", .dimmed) : StyledText()
            if entry.unread > 0 { marks = marks + StyledText(" \(entry.unread)", entry.quiet ? .dimmed : .bolded) }
            if entry.mentions > 0 { marks = marks + StyledText(" @\(entry.mentions)", CellStyle.bolded.colored(.yellow)) }
            // What dimming says is said in text too, for a terminal that cannot dim.
            if entry.quiet { marks = marks + StyledText(" ~", .dimmed) }
            let room = max(1, width - 1 - CellWidth.of(marks.plain))
            var style = CellStyle.plain
            style.reverse = entry.id == current
            let used = buffer.write(line.styled(style), row: row + 1, column: 0, width: room, fill: style)
            buffer.write(marks.styled(style), row: row + 1, column: used, width: width - 1 - used, fill: style)
        }
        buffer.fill(rows: 0..<height, columns: (width - 1)..<width, with: "│", style: .dimmed)
    }
}
