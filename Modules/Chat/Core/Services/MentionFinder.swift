import Foundation
import Kernel

/// Finds whom a message mentions when it is stored: `@` followed by a member's display name
/// ("@Grace Hopper"), or by the first word of it when no other member's name starts with that
/// word ("@grace"), whatever the case and accents. A name several members share mentions each
/// of them. The sender, people apart from the sender (a block either way) and anyone who is not
/// a member are never mentioned; nor more than `limit` people by one message (the first named
/// count).
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
    /// caller's executor (a send's path has no hop between threads). With `@`, it reads the
    /// members' names, and the sender's blocks when a name is found.
    public nonisolated(nonsending) func mentions(in text: String, by sender: UserID, members: [UserID]) async throws -> [UserID] {
        guard text.utf8.contains(UInt8(ascii: "@")) else { return [] }
        // Every member's name decides what a name or first name means; who may be mentioned is
        // decided after, so that blocking one of two Alans does not make `@Alan` the other. The
        // sender's blocks are read only when a name was found (an email address finds none).
        let named = Self.mentions(in: text, among: try await names.displayNames(of: members), limit: members.count)
        guard !named.isEmpty else { return [] }
        let apart = try await membership.people(apartFrom: sender)
        return Array(named.filter { $0 != sender && !apart.contains($0) }.prefix(Self.limit))
    }

    /// The people of `names` that `text` mentions, in the order named, at most `limit`. An `@`
    /// inside a word (an email address) mentions nobody. Each `@` reads on only while what
    /// follows it, folded, still starts some name: the work is the text's length times at most
    /// the longest name, and a run of `@` costs one step each.
    public static func mentions(in text: String, among names: [UserID: String], limit: Int = Self.limit) -> [UserID] {
        let aliases = Self.aliases(names)
        guard !aliases.names.isEmpty else { return [] }
        let characters = Array(text)
        var found: [UserID] = [], seen: Set<UserID> = []
        var index = 0
        while index < characters.count, found.count < limit {
            defer { index += 1 }
            guard characters[index] == "@", index == 0 || !isWordCharacter(characters[index - 1]) else { continue }
            var window = "", best: (people: [UserID], end: Int)?
            var end = index + 1
            while end < characters.count {
                window += Validation.searchKey(String(characters[end]))
                end += 1
                guard aliases.anyStarts(with: window) else { break }
                if end == characters.count || !isWordCharacter(characters[end]), let people = aliases.names[window] { best = (people, end) }
            }
            guard let best else { continue }
            for person in best.people where found.count < limit && seen.insert(person).inserted { found.append(person) }
            index = best.end - 1
        }
        return found
    }

    /// The names a text is read against: each name (folded) and each first word that no other
    /// name starts with, to whom it names; and the same in order, to tell whether a reading can
    /// still become one.
    private struct Aliases {
        let names: [String: [UserID]]
        private let sorted: [String]

        init(_ names: [String: [UserID]]) {
            self.names = names
            sorted = names.keys.sorted()
        }

        /// Whether some name starts with `prefix`: the first name not before it does, if any does.
        func anyStarts(with prefix: String) -> Bool {
            var (low, high) = (0, sorted.count)
            while low < high {
                let middle = (low + high) / 2
                if sorted[middle] < prefix { low = middle + 1 } else { high = middle }
            }
            return low < sorted.count && sorted[low].hasPrefix(prefix)
        }
    }

    private static func aliases(_ names: [UserID: String]) -> Aliases {
        var full: [String: [UserID]] = [:]
        var firstWords: [String: [UserID]] = [:]
        for (id, name) in names.sorted(by: { $0.key < $1.key }) {
            let folded = Validation.searchKey(name)
            guard !folded.isEmpty else { continue }
            full[folded, default: []].append(id)
            if let first = folded.split(separator: " ").first.map(String.init), first != folded { firstWords[first, default: []].append(id) }
        }
        for (word, people) in firstWords where people.count == 1 && full[word] == nil { full[word] = people }
        return Aliases(full)
    }

    private static func isWordCharacter(_ character: Character) -> Bool { character.isLetter || character.isNumber }
}
