import ConversationList
import Foundation
import Kernel
import Testing
import TestSupport

/// The reference rule over random titles and references: it never crashes, and an answer is
/// always the only conversation the rule allows.
@Suite("Conversation references over random Unicode", .timeLimit(.minutes(1)))
struct ReferenceFuzzTests {
    @Test("a resolved reference is a number, an id or the one title it starts; else not found or ambiguous", arguments: [11, 12, 13, 14] as [UInt64])
    func resolve(seed: UInt64) {
        var random = RandomText(seed: seed)
        for _ in 0..<300 {
            let rows = (0..<random.int(in: 0...6)).map { index in
                ConversationSummary(conversation: Conversation(id: ConversationID("c\(index)"), title: random.string(maxScalars: 6), memberIDs: [],
                                                               createdAt: Date(timeIntervalSince1970: 0)),
                                    title: random.string(maxScalars: 6), activity: .none)
            }
            for _ in 0..<20 {
                let reference = random.int(in: 0...3) == 0 ? String(random.int(in: -2...8)) : random.string(maxScalars: 4)
                do {
                    let row = try ConversationReference.resolve(reference, in: rows)
                    let text = reference.trimmingCharacters(in: .whitespaces)
                    let byNumber = Int(text).map { $0 >= 1 && $0 <= rows.count && rows[$0 - 1].id == row.id } ?? false
                    let byPrefix = rows.filter { !text.isEmpty && $0.title.lowercased().hasPrefix(text.lowercased()) }.map(\.id) == [row.id]
                    #expect(byNumber || row.id.rawValue == text || byPrefix, "seed \(seed): \(reference.debugDescription)")
                } catch let error as AppError {
                    #expect(error.kind == .notFound || error.kind == .conflict)
                    #expect(error.message.count < 600)
                } catch {
                    Issue.record("unexpected \(error)")
                }
            }
        }
    }
}
