import Foundation
import Kernel

/// A search as a person types it, read into terms: words (`cafe`), prefixes (`mess*`) and
/// phrases (`"exact words"`), all of which a message must hold. Words match whatever their
/// case and accents ("cafe" finds "Café"); text in scripts written without spaces (Chinese,
/// Japanese) is matched a character at a time, so a phrase of them finds them in a run.
public struct SearchQuery: Sendable, Equatable {
    /// One thing a message must hold.
    public enum Term: Sendable, Equatable {
        /// A word, folded (`Validation.searchKey`).
        case word(String)
        /// The start of a word, folded: `mess*`.
        case prefix(String)
        /// Words in a row, folded.
        case phrase([String])
    }

    /// Longest query, in bytes.
    public static let maxBytes = 256
    /// Most terms in a query (a phrase counts once), and most words in a phrase.
    public static let maxTerms = 8
    /// Shortest prefix before `*`, in characters: shorter ones would match most words.
    public static let minPrefix = 2
    /// Longest word an index holds or looks up, in UTF-8 bytes (`lexeme(_:)`): well within what
    /// every store accepts (PostgreSQL refuses a lexeme of 2,048 bytes), though a message may hold
    /// a word of 4,000 letters, or one character of thousands of bytes of marks.
    public static let maxLexemeBytes = 255

    /// What a message must hold, in the order typed.
    public let terms: [Term]

    /// Reads `text`. An unclosed quote runs to the end; `*` counts only at the end of a word.
    /// - Throws: `.invalidInput` for an empty query or one of operators only, one longer than
    ///   `maxBytes` or with control characters, more than `maxTerms` terms or words in a
    ///   phrase, or a prefix shorter than `minPrefix`.
    public init(_ text: String) throws {
        guard text.utf8.count <= Self.maxBytes else {
            throw AppError(.invalidInput, "a search is at most \(Self.maxBytes) bytes; this one is \(text.utf8.count)")
        }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw AppError(.invalidInput, "a search cannot hold control characters")
        }
        var terms: [Term] = []
        for (index, part) in text.split(separator: "\"", omittingEmptySubsequences: false).enumerated() {
            if index % 2 == 1 {
                let words = Self.words(of: String(part))
                guard words.count <= Self.maxTerms else { throw AppError(.invalidInput, "a phrase is at most \(Self.maxTerms) words") }
                if words.count == 1 { terms.append(.word(words[0])) } else if !words.isEmpty { terms.append(.phrase(words)) }
                continue
            }
            for chunk in part.split(whereSeparator: \.isWhitespace) {
                let prefix = chunk.hasSuffix("*")
                let words = Self.words(of: String(chunk))
                guard let last = words.last else { continue }
                if prefix {
                    guard last.count >= Self.minPrefix else {
                        throw AppError(
                            .invalidInput, "a prefix before * needs at least \(Self.minPrefix) letters: \(AppError.quoting(String(chunk)))")
                    }
                    terms += words.dropLast().map(Term.word) + [.prefix(last)]
                } else {
                    // Words joined by punctuation ("e-mail") or written without spaces ("東京") are a phrase.
                    terms.append(words.count == 1 ? .word(last) : .phrase(words))
                }
            }
        }
        guard !terms.isEmpty else { throw AppError(.invalidInput, "a search needs at least one word (letters or digits)") }
        guard terms.count <= Self.maxTerms else { throw AppError(.invalidInput, "a search is at most \(Self.maxTerms) terms") }
        self.terms = terms
    }

    /// The words of `text`, folded: runs of letters and digits (`tokens(of:)`), and each character
    /// of a script written without spaces on its own. What `tokens(of:)` gives without the ranges; for an
    /// ASCII text (most are) read from its bytes, where folding is lower-casing: indexing a
    /// message then costs a fraction of what walking its characters does.
    public static func words(of text: String) -> [String] {
        let ascii: [String]? =
            text.utf8.withContiguousStorageIfAvailable { bytes in
                guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
                var words: [String] = []
                var start: Int?
                for index in 0...bytes.count {
                    let byte = index < bytes.count ? bytes[index] : 0x20
                    if (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) {
                        if start == nil { start = index }
                    } else if let begun = start {
                        words.append(
                            String(unsafeUninitializedCapacity: index - begun) { word in
                                for offset in 0..<(index - begun) {
                                    let letter = bytes[begun + offset]
                                    word[offset] = (0x41...0x5A).contains(letter) ? letter + 0x20 : letter
                                }
                                return index - begun
                            })
                        start = nil
                    }
                }
                return words
            } ?? nil
        return ascii ?? tokens(of: text).map(\.word)
    }

    /// `word` as an index holds it and a search looks it up: its first `maxLexemeBytes` bytes,
    /// cut between scalars (so perhaps inside a character). Longer words share their cut form,
    /// and each candidate is checked against the whole text (`SearchHit`), so results stay exact.
    public static func lexeme(_ word: String) -> String {
        guard word.utf8.count > maxLexemeBytes else { return word }
        var (end, bytes) = (word.unicodeScalars.startIndex, 0)
        for scalar in word.unicodeScalars {
            bytes += UTF8.width(scalar)
            guard bytes <= maxLexemeBytes else { break }
            end = word.unicodeScalars.index(after: end)
        }
        return String(word.unicodeScalars[..<end])
    }

    /// What an index holds of `text`: its words (`words(of:)`), each as a `lexeme(_:)`.
    public static func lexemes(of text: String) -> [String] {
        words(of: text).map(lexeme)
    }

    /// What an index holds of a message of `text` carrying files named `fileNames` in
    /// `conversationID`: the words of both (`searchable`, `lexemes(of:)`), then its conversation
    /// (`lexeme(of:)`).
    public static func lexemes(of text: String, fileNames: [String] = [], in conversationID: ConversationID) -> [String] {
        lexemes(of: searchable(text: text, fileNames: fileNames)) + [lexeme(of: conversationID)]
    }

    /// What a search reads of a message: its text, then a line per file name.
    public static func searchable(text: String, fileNames: [String]) -> String {
        fileNames.isEmpty ? text : ([text] + fileNames.map { "📎 " + $0 }).filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// What an index holds, beside a message's words, for the conversation it is in: `@` and the
    /// id's bytes in hex, which no word can be (words are letters and digits) nor any query ask
    /// for, so that a search asks its index for the caller's conversations alone and costs what
    /// they hold, not what the whole store holds.
    public static func lexeme(of conversationID: ConversationID) -> String {
        "@" + Hex.string(conversationID.rawValue.utf8)
    }

    /// The words of `text`, folded, each with where it is in `text`, as indices and as character
    /// offsets (both found in the one walk over its characters): runs of characters each wholly
    /// of a word (`isWordCharacter`), and each character of a script written without spaces.
    public static func tokens(of text: String) -> [(word: String, range: Range<String.Index>, characters: Range<Int>)] {
        var tokens: [(String, Range<String.Index>, Range<Int>)] = []
        var start: (index: String.Index, offset: Int)?
        var (index, offset) = (text.startIndex, 0)
        // Each word beyond ASCII folded once, by its bytes (not by `==`, which equates differently
        // encoded words): a text repeats its words, and their folding is most of reading it.
        var folded: [[UInt8]: String] = [:]
        func fold(_ word: Substring) -> String {
            guard word.utf8.contains(where: { $0 >= 0x80 }) else { return Validation.searchKey(String(word)) }
            let bytes = Array(word.utf8)
            if let known = folded[bytes] { return known }
            let key = Validation.searchKey(String(word))
            folded[bytes] = key
            return key
        }
        func close() {
            if let begun = start { tokens.append((fold(text[begun.index..<index]), begun.index..<index, begun.offset..<offset)) }
            start = nil
        }
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character.unicodeScalars.first.map(isUnspaced) == true {
                close()
                tokens.append((fold(text[index..<next]), index..<next, offset..<(offset + 1)))
            } else if isWordCharacter(character) {
                if start == nil { start = (index, offset) }
            } else {
                close()
            }
            (index, offset) = (next, offset + 1)
        }
        close()
        return tokens
    }

    /// Whether `character` is part of a word: it starts with a letter or a digit, and every scalar
    /// of it is a letter, a number, a mark or a format character (a joiner). Not its first scalar
    /// alone: a "prepend" letter (U+0D4E) makes one character of itself and the next, a quote or a
    /// space, which no word holds, so no word can change the syntax of a store's query.
    static func isWordCharacter(_ character: Character) -> Bool {
        guard let first = character.unicodeScalars.first, isLetterOrNumber(first.properties.generalCategory) else { return false }
        return character.unicodeScalars.dropFirst().allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark, .format: true
            case let category: isLetterOrNumber(category)
            }
        }
    }

    private static func isLetterOrNumber(_ category: Unicode.GeneralCategory) -> Bool {
        switch category {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber, .letterNumber, .otherNumber: true
        default: false
        }
    }

    /// Whether `scalar` is of a script written without spaces between words: Han, kana.
    static func isUnspaced(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isIdeographic || (0x3040...0x30FF).contains(scalar.value) || (0x31F0...0x31FF).contains(scalar.value)
    }

    /// Where `words` (a message's, folded) hold each term: the indices of the words that match,
    /// in order, or `nil` when one term is not held.
    public func matches(in words: [String]) -> [Int]? {
        var matched = [Bool](repeating: false, count: words.count)
        for term in terms {
            let found: [Int]
            switch term {
            case .word(let word): found = words.indices.filter { words[$0] == word }
            case .prefix(let prefix): found = words.indices.filter { words[$0].hasPrefix(prefix) }
            case .phrase(let phrase):
                found =
                    words.count < phrase.count
                    ? []
                    : (0...(words.count - phrase.count))
                        .filter { start in phrase.indices.allSatisfy { words[start + $0] == phrase[$0] } }
                        .flatMap { start in start..<(start + phrase.count) }
            }
            if found.isEmpty { return nil }
            for index in found { matched[index] = true }
        }
        return matched.indices.filter { matched[$0] }
    }
}
