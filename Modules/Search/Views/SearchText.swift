import CLIKit
import Foundation
import Kernel
import Search

/// How hits read on a terminal, and in JSON.
enum SearchText {
    /// One line per hit, numbered from `first`: `#1 [14:02] Engine room · Grace: …the match…`,
    /// the matching words bold on a terminal. Every name and text goes through the terminal filter.
    @MainActor
    static func lines(_ hits: [SearchHit], from first: Int = 1, lookup: any FrontendLookup, console: Console) async -> [String] {
        let names = (try? await lookup.displayNames(of: Array(Set(hits.map(\.senderID))))) ?? [:]
        var titles: [ConversationID: String] = [:]
        for id in Set(hits.map(\.conversationID)) { titles[id] = (try? await lookup.conversationTitle(id)) ?? id.rawValue }
        return hits.enumerated().map { offset, hit in
            let place = TextFormat.preview(TerminalText.line(titles[hit.conversationID] ?? hit.conversationID.rawValue), limit: 24)
            let who = TextFormat.preview(TerminalText.line(names[hit.senderID] ?? hit.senderID.rawValue), limit: 24)
            return console.styled("#\(first + offset) [\(TextFormat.time(hit.sentAt))]", .dim) + " \(place) · " + console.styled(who, .bold) + ": "
                + marked(hit, console: console)
        }
    }

    /// The snippet with its matches bold (plain where the console has no styles).
    @MainActor
    static func marked(_ hit: SearchHit, console: Console) -> String {
        let characters = Array(hit.snippet)
        var text = "", position = 0
        for mark in hit.marks where mark.start >= position && mark.start + mark.length <= characters.count {
            text += TerminalText.line(String(characters[position..<mark.start]))
            text += console.styled(TerminalText.line(String(characters[mark.start..<(mark.start + mark.length)])), .bold)
            position = mark.start + mark.length
        }
        return text + TerminalText.line(String(characters[position...]))
    }

    /// A hit's JSON row: plain snippet, the marks as character offsets.
    struct JSONRow: Encodable {
        let id: String
        let conversationId: String
        let senderId: String
        let sentAt: Date
        let snippet: String
        let marks: [SearchHit.Mark]

        init(_ hit: SearchHit) {
            id = hit.id.rawValue
            conversationId = hit.conversationID.rawValue
            senderId = hit.senderID.rawValue
            sentAt = hit.sentAt
            snippet = hit.snippet
            marks = hit.marks
        }
    }
}
