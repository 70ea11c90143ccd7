import Kernel

/// Search of the memory backend, under `StoredSearchService`: no index, a scan of the caller's
/// messages through their own services (`SearchCorpus`), where the messages are few.
public struct InMemorySearchStore: SearchStore {
    private let corpus: any SearchCorpus

    /// The store that scans `corpus`, the caller's.
    public init(corpus: any SearchCorpus) { self.corpus = corpus }

    public func conversations(readBy reader: UserID, among conversationID: ConversationID?) async throws -> [ConversationID] {
        let readable = try await corpus.conversations()
        guard let conversationID else { return readable }
        return readable.contains(conversationID) ? [conversationID] : []
    }

    public func bringUpToDate() async throws {}

    public func candidates(_ query: SearchQuery, in conversations: [ConversationID], below: Int64, count: Int) async throws
        -> [SearchRules.Candidate]
    {
        let found = try await corpus.messages(in: conversations).filter { $0.key < below && SearchHit($0, query: query) != nil }
        return found.suffix(count).reversed().map { SearchRules.Candidate(key: $0.key, message: $0, deleted: false) }
    }

    public func mentions(of reader: UserID, after since: Int64, count: Int, newestFirst: Bool) async throws -> [Mention] {
        let found = try await corpus.messages(in: try await corpus.conversations()).filter { $0.mentions.contains(reader) && $0.key > since }
        return (newestFirst ? Array(found.suffix(count).reversed()) : Array(found.prefix(count))).map(Mention.init)
    }
}
