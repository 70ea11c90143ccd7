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
    /// text (as it is now) does not hold every term. It costs one walk over the text (`tokens(of:)`
    /// finds each word's character offset), then walks of at most `snippetLength` characters for
    /// the snippet: never one from the start for each match. Only the matches within the snippet
    /// are marked, so at most `snippetLength`.
    public init?(_ message: SearchCorpusMessage, query: SearchQuery) {
        let text = message.searchable
        let tokens = SearchQuery.tokens(of: text)
        guard let matched = query.matches(in: tokens.map(\.word)), let first = matched.first.map({ tokens[$0] }) else { return nil }
        id = message.id
        conversationID = message.conversationID
        senderID = message.senderID
        sentAt = message.sentAt
        cursor = message.key
        // `snippetLength` characters from a quarter of it before the first match, ending sooner
        // only at the text's end, and then starting sooner.
        var (lower, upper) = (first.range.lowerBound, first.range.lowerBound)
        var (start, end) = (first.characters.lowerBound, first.characters.lowerBound)
        while start > 0, end - start < Self.snippetLength / 4 { (lower, start) = (text.index(before: lower), start - 1) }
        while upper < text.endIndex, end - start < Self.snippetLength { (upper, end) = (text.index(after: upper), end + 1) }
        while start > 0, end - start < Self.snippetLength { (lower, start) = (text.index(before: lower), start - 1) }
        let lead = start > 0 ? "…" : ""
        snippet = lead + String(text[lower..<upper]).replacingOccurrences(of: "\n", with: " ") + (upper < text.endIndex ? "…" : "")
        marks = matched.lazy.map { tokens[$0].characters }.prefix { $0.upperBound <= end }
            .map { Mark(start: $0.lowerBound - start + lead.count, length: $0.count) }
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
