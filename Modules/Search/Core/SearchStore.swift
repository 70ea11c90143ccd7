import Kernel

/// A store's search index as `StoredSearchService` uses it: it reads what a search asks for and
/// decides nothing `SearchRules` decides (which conversations are searched, how many candidates
/// are read and paid for, what a hit is). SQLite's FTS5 index and PostgreSQL's GIN index
/// implement it, and the memory backend's scan (`InMemorySearchStore`).
public protocol SearchStore: Sendable {
    /// The conversations `reader` reads (as a member, not one only invited): all of them, or
    /// `conversationID` alone when it is one of them.
    func conversations(readBy reader: UserID, among conversationID: ConversationID?) async throws -> [ConversationID]

    /// Indexes what is left to index, so that a person finds what they just sent.
    func bringUpToDate() async throws

    /// The newest `count` messages of `conversations` below `below` in the store's order whose
    /// words hold every term of `query` (not in order: `SearchRules.verified` checks that), each
    /// as it is now; asked of the index for those conversations alone, so that it costs what
    /// they hold, not the store's matches.
    func candidates(_ query: SearchQuery, in conversations: [ConversationID], below: Int64, count: Int) async throws -> [SearchRules.Candidate]

    /// At most `count` messages of the conversations `reader` reads that mention them, are not
    /// deleted, and come after `since` in the store's order: the newest or the oldest of them.
    func mentions(of reader: UserID, after since: Int64, count: Int, newestFirst: Bool) async throws -> [Mention]
}
