import Kernel

/// The rule that turns what a person typed into one conversation of their list, written once
/// for the CLI and the REPL.
///
/// In order: a list number (1…count); a conversation id; otherwise every conversation whose
/// title (a group's title, or the other person's name) starts with the text, compared without
/// case. An exact title is one of those: when "Bob" and "Bob Smith" both exist, `bob` could
/// mean either and is an error listing both with their numbers and ids, never a silent pick,
/// since anyone can start a chat with you under any name.
public enum ConversationReference {
    /// Candidates listed in an ambiguity error, at most.
    public static let maxCandidatesShown = 5

    /// The conversation `reference` names in `rows` (numbered from 1 in their order).
    /// - Throws: `.notFound` when none matches, `.conflict` when several could be meant.
    public static func resolve(_ reference: String, in rows: [ConversationSummary]) throws -> ConversationSummary {
        let text = reference.trimmingCharacters(in: .whitespaces)
        if let number = Int(text), number >= 1, number <= rows.count { return rows[number - 1] }
        if let row = rows.first(where: { $0.id.rawValue == text }) { return row }
        let key = text.lowercased()
        let matches = rows.enumerated().filter { !key.isEmpty && $0.element.title.lowercased().hasPrefix(key) }
        switch matches.count {
        case 1: return matches[0].element
        case 0: throw AppError(.notFound, "no conversation \(AppError.quoting(reference))")
        default:
            let shown = matches.prefix(maxCandidatesShown).map { "\($0.offset + 1). \(AppError.quoting($0.element.title)) (\($0.element.id))" }
            let more = matches.count > maxCandidatesShown ? ", and \(matches.count - maxCandidatesShown) more" : ""
            throw AppError(.conflict, "\(AppError.quoting(reference)) could mean \(matches.count) conversations: "
                + shown.joined(separator: ", ") + more + "; use the number or the id")
        }
    }
}
