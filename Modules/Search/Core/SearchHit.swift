import Foundation
import Kernel

/// A message a search found: where and by whom, and a short snippet of its text with the
/// matching words marked.
public struct SearchHit: Codable, Equatable, Sendable, Identifiable {
    /// The message's id (unique within its conversation only).
    public let id: MessageID
    public let conversationID: ConversationID
    public let senderID: UserID
    public let sentAt: Date
    /// At most `snippetLength` characters of its text around the first match (`…` where cut).
    public let snippet: String
    /// Where the matching words are in `snippet`, as character offsets.
    public let marks: [Mark]
    /// Where the message is in the store's order: `before` this, a search gives the page after
    /// this hit. Not its id, which another conversation may use too.
    public let cursor: Int64

    /// Characters of text shown around the first match.
    public static let snippetLength = 80

    /// A matching word in a snippet: `length` characters from `start`.
    public struct Mark: Codable, Equatable, Sendable {
        public let start: Int
        public let length: Int
    }

    /// The hit of `message` for `query`, its snippet cut around the first match; `nil` when its
    /// text (as it is now) does not hold every term.
    public init?(_ message: SearchCorpusMessage, query: SearchQuery) {
        let text = message.text
        let tokens = SearchQuery.tokens(of: text)
        guard let matched = query.matches(in: tokens.map(\.word)) else { return nil }
        id = message.id
        conversationID = message.conversationID
        senderID = message.senderID
        sentAt = message.sentAt
        cursor = message.key
        let first = matched.first.map { text.distance(from: text.startIndex, to: tokens[$0].range.lowerBound) } ?? 0
        let count = text.count
        let start = max(0, min(first - Self.snippetLength / 4, count - Self.snippetLength))
        let end = min(count, start + Self.snippetLength)
        let lead = start > 0 ? "…" : ""
        snippet = lead + String(text.dropFirst(start).prefix(end - start)).replacingOccurrences(of: "\n", with: " ") + (end < count ? "…" : "")
        marks = matched.compactMap { index in
            let range = tokens[index].range
            let offset = text.distance(from: text.startIndex, to: range.lowerBound)
            let length = text.distance(from: range.lowerBound, to: range.upperBound)
            guard offset >= start, offset + length <= end else { return nil }
            return Mark(start: offset - start + lead.count, length: length)
        }
    }
}

/// A page of hits, best first, and whether more follow.
public struct SearchPage: Codable, Equatable, Sendable {
    public let hits: [SearchHit]
    /// Whether a next page (`before` the last hit's cursor) has more.
    public let hasMore: Bool

    public init(hits: [SearchHit], hasMore: Bool) {
        self.hits = hits
        self.hasMore = hasMore
    }
}
