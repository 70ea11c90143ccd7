import Foundation
import Kernel
import Search
import Synchronization
import TestSupport
import Testing

/// Reading a search, matching words whatever their case, accents and script, the snippet's
/// marks, ranking and pages, on the in-memory scan and through the view model.
@Suite("Search", .timeLimit(.minutes(3)))
@MainActor
struct SearchTests {
    let ada = UserID("u-ada"), grace = UserID("u-grace")
    let engine = ConversationID("c-engine"), other = ConversationID("c-other")

    @Test("words, prefixes and phrases; an unclosed quote runs to the end; words joined by punctuation or written without spaces are a phrase")
    func reading() throws {
        #expect(try SearchQuery("Café  MESS*").terms == [.word("cafe"), .prefix("mess")])
        #expect(try SearchQuery(#"see "exact Words" now"#).terms == [.word("see"), .phrase(["exact", "words"]), .word("now")])
        #expect(try SearchQuery(#"say "open quote"#).terms == [.word("say"), .phrase(["open", "quote"])])
        #expect(try SearchQuery("e-mail 東京").terms == [.phrase(["e", "mail"]), .phrase(["東", "京"])])
        #expect(try SearchQuery("ПРИВЕТ Ωμέγα").terms == [.word("привет"), .word("ωμεγα")])
    }

    @Test(
        "refused: empty, operators only, too long, too many terms, a short prefix, control characters",
        arguments: [
            "", "   ", "*", "\"\"", "\" * \"", "-- !! ??", String(repeating: "a", count: 257), "a b c d e f g h i", "m*", "hi\u{1B}[2J", "tab\there",
        ])
    func refused(_ text: String) {
        #expect(throws: AppError.self) { try SearchQuery(text) }
    }

    @Test("matching is whole words, whatever their case and accents, in Latin, Cyrillic, Greek and CJK; every term must match")
    func matching() throws {
        func finds(_ query: String, _ text: String) throws -> Bool { try SearchQuery(query).matches(in: SearchQuery.words(of: text)) != nil }
        #expect(try finds("cafe", "Meet at the CAFÉ"))
        #expect(try !finds("caf", "Meet at the café"), "a word is whole")
        #expect(try finds("caf*", "Meet at the café"))
        #expect(try finds("привет", "Привет, мир"))
        #expect(try finds("καφες", "Ένας ΚΑΦΈΣ παρακαλώ"))
        #expect(try finds("東京", "明日は東京タワーへ"))
        #expect(try !finds("京東", "明日は東京タワーへ"), "a phrase keeps its order")
        #expect(try finds(#""the notes""#, "all the notes are in"))
        #expect(try !finds(#""notes the""#, "all the notes are in"))
        #expect(try !finds("notes tea", "all the notes are in"), "every term must match")
    }

    @Test("a message's words for the index are its tokens' words: the quick way for ASCII text gives what walking its characters gives")
    func wordsAreTokens() {
        var random = RandomText(seed: 27)
        let texts =
            (0..<2_000).map { _ in random.string(maxScalars: 60) }
            + (0..<2_000).map { _ in String(random.string(maxScalars: 60).unicodeScalars.filter(\.isASCII)) }
            + [
                "", "Hello, World 42!", "a\r\nb", "tab\there", "MIXED case_words-and.dots", "Café Müller", "東京タワー", "x\u{0D4E}\"y",
                "a\u{200D}b c\u{0BBE}",
            ]
        for text in texts {
            #expect(SearchQuery.words(of: text) == SearchQuery.tokens(of: text).map(\.word), "\(text.debugDescription)")
        }
    }

    @Test(
        "a word is of characters whose every scalar is a letter, a number, a mark or a joiner: a \"prepend\" letter takes no quote, space or backslash into one"
    )
    func wordsHoldNoSyntax() throws {
        // U+0D4E, U+0600 and U+110BD are "prepend" characters: each makes one character of itself and the next.
        for prepend in ["\u{0D4E}", "\u{0600}", "\u{110BD}"] {
            for mark in ["\"", "'", "\\", " ", "*", ":", "&", "|", "!", "(", ")", "-", "\u{3000}"] {
                let text = "x\(prepend)\(mark)y"
                #expect(SearchQuery.words(of: text).allSatisfy { !$0.contains(mark) && !$0.contains(" ") }, "\(text.debugDescription)")
            }
        }
        #expect(SearchQuery.words(of: "x\u{0D4E}\"y") == ["x", "y"])
        #expect(try SearchQuery("x\u{0D4E}\"y").terms == [.phrase(["x", "y"])], "a quote in a character parts words, as punctuation does")
        #expect(try SearchQuery("x\u{0D4E}'y").terms == [.phrase(["x", "y"])])
        #expect(SearchQuery.words(of: "Hindi हिंदी, Tamil தமிழ், a\u{200D}b").count == 5, "marks and joiners stay inside words")
        var random = RandomText(seed: 25)
        for _ in 0..<2_000 {
            let text = random.string(maxScalars: 40)
            for word in SearchQuery.words(of: text) {
                #expect(!word.unicodeScalars.contains { [" ", "\"", "'", "\\"].contains($0) }, "\(text.debugDescription): \(word.debugDescription)")
            }
        }
    }

    @Test("an index holds a word cut to 255 bytes between scalars, a long character's too; shorter words as they are")
    func lexemes() {
        let long = String(repeating: "a", count: 4_000)
        #expect(SearchQuery.lexeme(long) == String(repeating: "a", count: SearchQuery.maxLexemeBytes))
        #expect(SearchQuery.lexeme("short") == "short")
        let accents = String(repeating: "é", count: 200)
        #expect(SearchQuery.lexeme(accents) == String(repeating: "é", count: 127), "254 bytes: a scalar of 2 bytes is never cut")
        // One character of 4,503 bytes: cut inside it, between its scalars.
        let character = "\u{0B95}" + String(repeating: "\u{0BBE}", count: 1_500)
        let cut = SearchQuery.lexeme(character)
        #expect(cut.utf8.count == 255 && character.unicodeScalars.starts(with: cut.unicodeScalars))
        let text = "ok \(long) \(character) \(accents)"
        #expect(SearchQuery.lexemes(of: text) == SearchQuery.words(of: text).map(SearchQuery.lexeme))
        #expect(SearchQuery.lexemes(of: text).allSatisfy { $0.utf8.count <= SearchQuery.maxLexemeBytes })
    }

    @Test("the snippet is cut around the first match and marks each matching word")
    func snippet() throws {
        let text = String(repeating: "filler ", count: 20) + "the Café is open " + String(repeating: "more ", count: 20)
        let hit = try #require(
            SearchHit(
                SearchCorpusMessage(id: MessageID("m1"), conversationID: engine, senderID: ada, sentAt: .now, text: text),
                query: try SearchQuery("cafe open")))
        #expect(hit.snippet.hasPrefix("…") && hit.snippet.hasSuffix("…") && hit.snippet.count <= SearchHit.snippetLength + 2)
        let marked = hit.marks.map { String(Array(hit.snippet)[$0.start..<($0.start + $0.length)]) }
        #expect(marked == ["Café", "open"])
    }

    @Test(
        "a hit's snippet and marks are those of walking each match from the text's start, found in one walk: random texts, hostile ones; at most one mark a character"
    )
    func marksInOneWalk() throws {
        /// The snippet and marks as walking from the text's start for each match gives them.
        func reference(_ text: String, _ query: SearchQuery) -> (snippet: String, marks: [[Int]])? {
            let tokens = SearchQuery.tokens(of: text)
            guard let matched = query.matches(in: tokens.map(\.word)) else { return nil }
            let offset = { (index: String.Index) in text.distance(from: text.startIndex, to: index) }
            let (first, count, length) = (offset(tokens[matched[0]].range.lowerBound), text.count, SearchHit.snippetLength)
            let start = max(0, min(first - length / 4, count - length)), end = min(count, start + length)
            let lead = start > 0 ? "…" : ""
            let snippet =
                lead + String(text.dropFirst(start).prefix(end - start)).replacingOccurrences(of: "\n", with: " ") + (end < count ? "…" : "")
            return (
                snippet,
                matched.map { offset(tokens[$0].range.lowerBound)..<offset(tokens[$0].range.upperBound) }
                    .filter { $0.lowerBound >= start && $0.upperBound <= end }.map { [$0.lowerBound - start + lead.count, $0.count] }
            )
        }
        var random = RandomText(seed: 37)
        var cases = [
            (String(repeating: "東", count: 4_000), "東"), (String(repeating: "é ", count: 2_000), "e"), (String(repeating: "x ", count: 2_000), "x"),
            (String(repeating: "東", count: 4_000) + " zzqq", "zzqq"), ("a\r\nb a\nb\u{0301} ab", "b"),
        ]
        for _ in 0..<500 {
            let text = (0..<random.int(in: 1...8)).map { _ in random.string(maxScalars: 60) }.joined(
                separator: random.int(in: 0...1) == 0 ? " " : "\n")
            let words = SearchQuery.words(of: text)
            guard !words.isEmpty else { continue }
            cases.append((text, words[random.int(in: 0...(words.count - 1))]))
        }
        for (text, typed) in cases {
            guard let query = try? SearchQuery(typed) else { continue }
            let tokens = SearchQuery.tokens(of: text)
            #expect(
                tokens.map(\.characters)
                    == tokens.map {
                        text.distance(from: text.startIndex, to: $0.range.lowerBound)..<text.distance(from: text.startIndex, to: $0.range.upperBound)
                    })
            let hit = SearchHit(
                SearchCorpusMessage(id: MessageID("m"), conversationID: engine, senderID: ada, sentAt: .now, text: text), query: query)
            let expected = reference(text, query)
            #expect(
                hit?.snippet == expected?.snippet && hit?.marks.map { [$0.start, $0.length] } == expected?.marks,
                "\(text.debugDescription) by \(typed)")
            #expect((hit?.marks.count ?? 0) <= SearchHit.snippetLength)
        }
    }

    @Test("a search of candidates that fail the check reads them in at most 11 statements and spends a look-up for each 100 past the first 100")
    nonisolated func candidatesCost() async throws {
        // 2,000 candidates holding both words, never in the phrase's order: each is read and checked.
        let candidates = (0..<2_500).map { index in
            SearchRules.Candidate(
                key: Int64(2_500 - index),
                message: SearchCorpusMessage(
                    id: MessageID("m\(index)"), conversationID: engine, senderID: ada, sentAt: .now, text: "wx zq", key: Int64(2_500 - index)),
                deleted: false)
        }
        for limit in [1, 20, 100] {
            let spent = Spent()
            let budget = UsageBudget { action, _, cost in spent.add(action == .lookup ? cost : 0) }
            var statements = 0
            let page = try await SearchRules.verified(try SearchQuery(#""zq wx""#), limit: limit, below: .max, by: ada, budget: budget) {
                below, count in
                statements += 1
                return Array(candidates.filter { $0.key < below }.prefix(count))
            }
            #expect(page.hits.isEmpty && statements <= 11, "limit \(limit): \(statements) statements")
            #expect(spent.total == SearchRules.maxCandidates / SearchRules.candidatesPerLookup - 1, "besides the one of the search's start")
        }
        // A page of hits found at once checks `limit + 1` candidates: no more look-ups than the start's.
        let spent = Spent()
        let page = try await SearchRules.verified(
            try SearchQuery("zq"), limit: 20, below: .max, by: ada, budget: UsageBudget { _, _, cost in spent.add(cost) }
        ) { below, count in
            Array(candidates.filter { $0.key < below }.prefix(count))
        }
        #expect(page.hits.count == 20 && page.hasMore && spent.total == 0)
    }

    @Test(
        "a search looks in the conversations its caller reads, or the one asked if they read it, and spends a look-up for each 100 past the first 100"
    )
    func scopeCost() throws {
        let readable = (1...250).map { ConversationID("c-\($0)") }
        for (count, extra) in [(0, 0), (1, 0), (100, 0), (101, 1), (200, 1), (250, 2)] {
            let spent = Spent()
            let budget = UsageBudget { action, _, cost in spent.add(action == .lookup ? cost : 0) }
            let scope = try SearchRules.scope(Array(readable.prefix(count)), asked: nil, by: ada, budget: budget)
            #expect(scope == Array(readable.prefix(count)) && spent.total == extra, "\(count) conversations: \(spent.total) look-ups")
        }
        let spent = Spent()
        let budget = UsageBudget { _, _, cost in spent.add(cost) }
        #expect(try SearchRules.scope(readable, asked: readable[7], by: ada, budget: budget) == [readable[7]] && spent.total == 0)
        #expect(throws: AppError.self) { try SearchRules.scope([], asked: readable[7], by: ada, budget: budget) }
    }

    @Test("an index holds a conversation as `@` and its id's bytes in hex, which no word of a message can be")
    func conversationLexeme() {
        #expect(SearchQuery.lexeme(of: ConversationID("c-1.A_z")) == "@632d312e415f7a")
        #expect(SearchQuery.lexemes(of: "Ada @c 632d31", in: ConversationID("c-1")) == ["ada", "c", "632d31", "@632d31"])
    }

    /// Look-ups a budget was asked for.
    final class Spent: Sendable {
        private let spent = Mutex(0)
        var total: Int { spent.withLock { $0 } }
        func add(_ cost: Int) { spent.withLock { $0 += cost } }
    }

    @Test(
        "the memory store's scan finds only the caller's readable messages, best first, a page at a time after a hit's cursor; any cursor gives the hits below it"
    )
    func scanPages() async throws {
        let messages = (0..<30).map { (index: Int) -> SearchCorpusMessage in
            SearchCorpusMessage(
                id: MessageID("m\(index)"), conversationID: engine, senderID: grace, sentAt: Date(timeIntervalSince1970: Double(index)),
                text: index % 10 == 0 ? "notes and more notes" : "notes \(index)", key: Int64(100 + index))
        }
        let service = StoredSearchService(
            store: InMemorySearchStore(corpus: FixedCorpus(messages: messages)), caller: Caller(token: "t") { self.ada })
        let first = try await service.search("notes", in: nil, limit: 5, before: nil)
        #expect(first.hits.map(\.id.rawValue) == ["m29", "m28", "m27", "m26", "m25"], "newest first")
        #expect(first.hits.map(\.cursor) == [129, 128, 127, 126, 125] as [Int64] && first.hasMore)
        let second = try await service.search("notes", in: nil, limit: 5, before: first.hits.last?.cursor)
        #expect(second.hits.map(\.id.rawValue) == ["m24", "m23", "m22", "m21", "m20"])
        #expect(try await service.search("notes", in: nil, limit: 5, before: 1_000).hits.first?.id.rawValue == "m29")
        let last = try await service.search("notes", in: nil, limit: 5, before: 102)
        #expect(last.hits.map(\.id.rawValue) == ["m1", "m0"] && !last.hasMore)
        #expect(try await service.search("notes", in: nil, limit: 5, before: 0).hits.isEmpty)

        let model = SearchViewModel(service: service)
        await model.search("notes", limit: 25)
        await model.more(limit: 25)
        #expect(model.results.value?.hits.count == 30 && model.results.value?.hasMore == false)
    }

    /// A corpus of fixed messages, all readable.
    struct FixedCorpus: SearchCorpus {
        let messages: [SearchCorpusMessage]
        func conversations() async throws -> [ConversationID] { Array(Set(messages.map(\.conversationID))) }
        func messages(in conversations: [ConversationID]) async throws -> [SearchCorpusMessage] {
            messages.filter { conversations.contains($0.conversationID) }
        }
    }
}
