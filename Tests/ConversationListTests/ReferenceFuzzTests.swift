import ConversationList
import Foundation
import Kernel
import TestSupport
import Testing

/// The reference rule over random titles and references: it never crashes, and an answer is
/// always the only conversation the rule allows.
@Suite("Conversation references over random Unicode", .timeLimit(.minutes(1)))
struct ReferenceFuzzTests {
    @Test(
        "a reference resolves to the one row that its number, id or title prefix names; none is not found, several a conflict",
        arguments: [11, 12, 13, 14] as [UInt64])
    func resolve(seed: UInt64) {
        var random = RandomText(seed: seed)
        var outcomes = (resolved: 0, notFound: 0, conflict: 0)
        for _ in 0..<300 {
            // Titles from a few letters, so that prefixes are often shared.
            let rows = (0..<random.int(in: 0...6)).map { index in
                let title = (0..<random.int(in: 1...4)).map { _ in ["a", "b", "É", "😀", " "][random.int(in: 0...4)] }.joined()
                return ConversationSummary(
                    conversation: Conversation(
                        id: ConversationID("c\(index)"), title: title, memberIDs: [],
                        createdAt: Date(timeIntervalSince1970: 0)),
                    title: title, activity: .none)
            }
            for _ in 0..<20 {
                let reference: String =
                    switch random.int(in: 0...3) {
                    case 0: String(random.int(in: -2...8))
                    case 1: "c\(random.int(in: 0...7))"
                    case 2 where !rows.isEmpty: String(rows[random.int(in: 0...(rows.count - 1))].title.prefix(random.int(in: 1...3)))
                    default: random.string(maxScalars: 4)
                    }
                // The rule, as the README states it: a number counts rows from 1; else an id; else
                // the start of a title, ignoring case; spaces around the reference do not count.
                let text = reference.trimmingCharacters(in: .whitespaces)
                let named = rows.enumerated().filter { offset, row in
                    Int(text) == offset + 1 || row.id.rawValue == text || (!text.isEmpty && row.title.lowercased().hasPrefix(text.lowercased()))
                }.map(\.element.id)
                do {
                    let row = try ConversationReference.resolve(reference, in: rows)
                    outcomes.resolved += 1
                    #expect(named == [row.id], "seed \(seed): \(reference.debugDescription) gave \(row.id), the rule names \(named)")
                } catch let error as AppError {
                    #expect(
                        error.kind == (named.isEmpty ? .notFound : .conflict) && named.count != 1,
                        "seed \(seed): \(reference.debugDescription) gave \(error.kind), the rule names \(named)")
                    if error.kind == .notFound { outcomes.notFound += 1 } else { outcomes.conflict += 1 }
                    #expect(error.message.count < 600)
                } catch {
                    Issue.record("unexpected \(error)")
                }
            }
        }
        #expect(outcomes.resolved > 500 && outcomes.notFound > 200 && outcomes.conflict > 100, "seed \(seed): \(outcomes)")
    }
}
