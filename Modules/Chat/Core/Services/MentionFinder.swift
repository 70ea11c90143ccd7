import Foundation
import Kernel

/// Finds whom a message mentions when it is stored: `@` followed by a member's display name
/// ("@Grace Hopper"), or by the first word of it when no other member's name starts with that
/// word ("@grace"), whatever the case and accents. The sender, people apart from the sender
/// (a block either way) and anyone who is not a member are never mentioned; nor more than
/// `limit` people by one message (the first named count).
public struct MentionFinder: Sendable {
    /// Most people one message mentions (`Validation.maxMentions`).
    public static let limit = Validation.maxMentions

    private let membership: any ConversationMembership
    private let names: any MemberNames

    /// Creates the finder over the membership port (for blocks) and the names port.
    public init(membership: any ConversationMembership, names: any MemberNames) {
        self.membership = membership
        self.names = names
    }

    /// The members `text`, sent by `sender` to a conversation of `members`, mentions, in the
    /// order named. Free for a text without `@`: it asks nothing of the ports, and runs on the
    /// caller's executor (a send's path has no hop between threads).
    public nonisolated(nonsending) func mentions(in text: String, by sender: UserID, members: [UserID]) async throws -> [UserID] {
        guard text.utf8.contains(UInt8(ascii: "@")) else { return [] }
        let apart = try await membership.people(apartFrom: sender)
        let candidates = members.filter { $0 != sender && !apart.contains($0) }
        guard !candidates.isEmpty else { return [] }
        return Self.mentions(in: text, among: try await names.displayNames(of: candidates))
    }

    /// The people of `names` that `text` mentions, in the order named, at most `limit`. Each
    /// `@` (not inside a word, so an email address mentions nobody) is read against the folded
    /// names once: the work is bounded by the text's length times the longest name.
    public static func mentions(in text: String, among names: [UserID: String]) -> [UserID] {
        let aliases = Self.aliases(names)
        guard !aliases.isEmpty else { return [] }
        let longest = aliases.keys.map(\.count).max() ?? 0
        let characters = Array(text)
        var found: [UserID] = []
        var index = 0
        while index < characters.count, found.count < limit {
            defer { index += 1 }
            guard characters[index] == "@", index == 0 || !isWordCharacter(characters[index - 1]) else { continue }
            var window = "", best: (people: [UserID], end: Int)?
            var end = index + 1
            while end < characters.count, end - index - 1 < longest {
                window += fold(String(characters[end]))
                end += 1
                if end == characters.count || !isWordCharacter(characters[end]), let people = aliases[window] { best = (people, end) }
            }
            guard let best else { continue }
            for person in best.people where !found.contains(person) && found.count < limit { found.append(person) }
            index = best.end - 1
        }
        return found
    }

    /// Each name (folded) and each first word that no other name starts with, to whom it names.
    private static func aliases(_ names: [UserID: String]) -> [String: [UserID]] {
        var full: [String: [UserID]] = [:]
        var firstWords: [String: [UserID]] = [:]
        for (id, name) in names.sorted(by: { $0.key < $1.key }) {
            let folded = fold(name)
            guard !folded.isEmpty else { continue }
            full[folded, default: []].append(id)
            if let first = folded.split(separator: " ").first.map(String.init), first != folded { firstWords[first, default: []].append(id) }
        }
        for (word, people) in firstWords where people.count == 1 && full[word] == nil { full[word] = people }
        return full
    }

    /// `text` as names are compared: whatever its case, accents and width.
    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    private static func isWordCharacter(_ character: Character) -> Bool { character.isLetter || character.isNumber }
}
