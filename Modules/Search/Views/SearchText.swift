import CLIKit
import Foundation
import Kernel
import Search

/// A message found (a search's hit, a mention): where, by whom and when, and where it is in the store's order.
protocol FoundMessage {
    var id: MessageID { get }
    var conversationID: ConversationID { get }
    var senderID: UserID { get }
    var sentAt: Date { get }
    var cursor: Int64 { get }
}

extension SearchHit: FoundMessage {}
extension Mention: FoundMessage {}

/// How hits and mentions read on a terminal, and in JSON.
enum SearchText {
    /// One line per hit, numbered from `first`: `#1 [14:02] Engine room · Grace: …the match…`,
    /// the matching words bold on a terminal.
    @MainActor
    static func lines(_ hits: [SearchHit], from first: Int = 1, lookup: any FrontendLookup, console: Console) async -> [String] {
        await lines(hits, from: first, lookup: lookup, console: console) { marked($0, console: console) }
    }

    /// One line per mention, numbered from `first`: `#1 [14:02] Engine room · Grace: @Ada can you…`.
    @MainActor
    static func lines(_ mentions: [Mention], from first: Int = 1, lookup: any FrontendLookup, console: Console) async -> [String] {
        await lines(mentions, from: first, lookup: lookup, console: console) { TerminalText.line(TextFormat.preview($0.text, limit: 80)) }
    }

    /// One line per message found, numbered from `first`, with `body` after its place, time and
    /// sender. Every name and text goes through the terminal filter.
    @MainActor
    private static func lines<Found: FoundMessage>(
        _ found: [Found], from first: Int, lookup: any FrontendLookup, console: Console,
        body: (Found) -> String
    ) async -> [String] {
        let names = (try? await lookup.displayNames(of: Array(Set(found.map(\.senderID))))) ?? [:]
        var titles: [ConversationID: String] = [:]
        for id in Set(found.map(\.conversationID)) { titles[id] = (try? await lookup.conversationTitle(id)) ?? id.rawValue }
        return found.enumerated().map { offset, item in
            let place = TextFormat.preview(TerminalText.line(titles[item.conversationID] ?? item.conversationID.rawValue), limit: 24)
            let who = TextFormat.preview(TerminalText.line(names[item.senderID] ?? item.senderID.rawValue), limit: 24)
            return console.styled("#\(first + offset) [\(TextFormat.time(item.sentAt))]", .dim) + " \(place) · " + console.styled(who, .bold) + ": "
                + body(item)
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

    /// A found message's JSON row: where, by whom and when, and the cursor to resume after it; then
    /// a hit's plain snippet and its marks (character offsets), or a mention's text as it is now.
    struct JSONRow: Encodable {
        let id: String
        let conversationId: String
        let senderId: String
        let sentAt: Date
        private(set) var snippet: String?
        private(set) var marks: [SearchHit.Mark]?
        private(set) var text: String?
        let cursor: Int64

        private init(found: some FoundMessage) {
            id = found.id.rawValue
            conversationId = found.conversationID.rawValue
            senderId = found.senderID.rawValue
            sentAt = found.sentAt
            cursor = found.cursor
        }

        init(_ hit: SearchHit) {
            self.init(found: hit)
            (snippet, marks) = (hit.snippet, hit.marks)
        }

        init(_ mention: Mention) {
            self.init(found: mention)
            text = mention.text
        }
    }
}
