import Kernel

/// The rule that turns what a person typed into one conversation of their list, written once
/// for the CLI and the REPL.
///
/// A reference can mean: the conversation at that list number (1…count), the conversation with
/// that id, and every conversation whose title (a group's title, or the other person's name)
/// starts with it, compared without case. It resolves only when all of these together name
/// exactly one conversation. An exact title is no exception: when "Bob" and "Bob Smith" both
/// exist, `bob` could mean either, and when someone is named "1", `1` could mean them or the
/// first row. Such a reference is an error listing the candidates with their numbers and ids,
/// never a silent pick, since anyone can start a chat with you under any name.
public enum ConversationReference {
    /// Candidates listed in an ambiguity error, at most.
    public static let maxCandidatesShown = 5

    /// The conversation `reference` names in `rows` (numbered from 1 in their order).
    /// - Throws: `.notFound` when none matches, `.conflict` when several could be meant.
    public static func resolve(_ reference: String, in rows: [ConversationSummary]) throws -> ConversationSummary {
        try resolve(reference, in: rows, id: \.id, title: \.title, naming: "conversation")
    }

    /// The invitation `reference` names in `invitations`, by the same rule.
    /// - Throws: `.notFound` when none matches, `.conflict` when several could be meant.
    public static func resolve(_ reference: String, in invitations: [Invitation]) throws -> Invitation {
        try resolve(reference, in: invitations, id: \.id, title: \.title, naming: "invitation")
    }

    private static func resolve<Row>(
        _ reference: String, in rows: [Row], id: KeyPath<Row, ConversationID>, title: KeyPath<Row, String>,
        naming kind: String
    ) throws -> Row {
        let text = reference.trimmingCharacters(in: .whitespaces)
        let key = text.lowercased()
        let number = Int(text).flatMap { (1...max(rows.count, 1)).contains($0) ? $0 - 1 : nil }
        let matches = rows.enumerated().filter { offset, row in
            offset == number || row[keyPath: id].rawValue == text || (!key.isEmpty && row[keyPath: title].lowercased().hasPrefix(key))
        }
        switch matches.count {
        case 1: return matches[0].element
        case 0: throw AppError(.notFound, "no \(kind) \(AppError.quoting(reference))")
        default:
            let shown = matches.prefix(maxCandidatesShown).map {
                "\($0.offset + 1). \(AppError.quoting($0.element[keyPath: title])) (\($0.element[keyPath: id]))"
            }
            let more = matches.count > maxCandidatesShown ? ", and \(matches.count - maxCandidatesShown) more" : ""
            throw AppError(
                .conflict,
                "\(AppError.quoting(reference)) could mean \(matches.count) \(kind)s: "
                    + shown.joined(separator: ", ") + more + "; use the number or the id")
        }
    }
}
