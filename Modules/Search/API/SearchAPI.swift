import Kernel
import Search

/// Search's wire contract: a search, answered by the server's own search of the caller's
/// conversations (its index), and the caller's mentions.
public enum SearchAPI {
    /// The messages of the caller's conversations that match, newest first.
    public static let search = Endpoint<NoContent, SearchPage, PathParameters.None>(
        .get, "/v1/search", "Messages of your conversations that hold every term of q (words, prefix*, \"phrases\"), newest first",
        query: [Query.text, Query.conversation, Query.limit, Query.before])

    /// The messages of the caller's conversations that mention them, newest last.
    public static let mentions = Endpoint<NoContent, MentionPage, PathParameters.None>(
        .get, "/v1/mentions", "Messages of your conversations that mention you, newest last: the newest, or those after since (resumable with next)",
        query: [MentionsQuery.since, MentionsQuery.limit])

    /// A cursor as a query parameter carries it (digits, as `SearchRules.cursor` reads them).
    static let cursor = WireSchema.string(minLength: 1, maxLength: 19, pattern: "^[0-9]+$")

    /// The query parameters the list of mentions reads.
    public enum MentionsQuery {
        /// Where the list resumes.
        public static let since = QueryParameter("since", SearchAPI.cursor, "the mentions after this cursor (a page's next)")
        /// Most mentions.
        public static let limit = QueryParameter("limit", .integer(1...SearchRules.maxLimit), "most mentions (default 20)")
    }

    /// The query parameters the search reads.
    public enum Query {
        /// What to find.
        public static let text = QueryParameter(
            "q", .string(minLength: 1, maxLength: SearchQuery.maxBytes), required: true,
            "what to find: words, prefix*, \"phrases\" (at most 256 bytes, 8 terms)")
        /// Only this conversation.
        public static let conversation = QueryParameter("conversation", .identifier, "only this conversation")
        /// Most results.
        public static let limit = QueryParameter("limit", .integer(1...SearchRules.maxLimit), "most results (default 20)")
        /// Where the page starts: below a result's cursor.
        public static let before = QueryParameter(
            "before", SearchAPI.cursor,
            "a result's cursor: the page of the results after it")
    }

    /// Every Search endpoint.
    public static let endpoints = [search.spec, mentions.spec]
}

extension SearchPage: WireType {
    public static let schema = WireSchema.object(
        [
            (
                "hits",
                .array(
                    .object(
                        [
                            ("id", .identifier), ("conversationID", .identifier), ("senderID", .identifier), ("sentAt", .timestamp),
                            ("snippet", .string(maxLength: SearchHit.snippetLength + 2)), ("cursor", .integer(0...Int(Int64.max))),
                            (
                                "marks",
                                .array(
                                    .object(
                                        [("start", .integer(0...SearchHit.snippetLength + 2)), ("length", .integer(1...SearchHit.snippetLength))],
                                        required: ["start", "length"]), maxItems: SearchHit.snippetLength)
                            ),
                        ], required: ["id", "conversationID", "senderID", "sentAt", "snippet", "marks", "cursor"]), maxItems: SearchRules.maxLimit)
            ),
            ("hasMore", .boolean),
        ], required: ["hits", "hasMore"])
}

extension MentionPage: WireType {
    public static let schema = WireSchema.object(
        [
            (
                "mentions",
                .array(
                    .object(
                        [
                            ("id", .identifier), ("conversationID", .identifier), ("senderID", .identifier), ("sentAt", .timestamp),
                            ("text", .string(maxLength: Validation.maxMessageLength)), ("cursor", .integer(0...Int(Int64.max))),
                        ], required: ["id", "conversationID", "senderID", "sentAt", "text", "cursor"]), maxItems: SearchRules.maxLimit)
            ),
            ("next", .integer(0...Int(Int64.max))), ("hasMore", .boolean),
        ], required: ["mentions", "next", "hasMore"])
}
