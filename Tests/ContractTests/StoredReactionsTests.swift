import Foundation
import Kernel
import Testing

@testable import ChatLive

/// The reactions column (`MessageRows.reactionsText`), which every change of a message reads and
/// writes again: written by hand, read without `JSONDecoder` when nothing is escaped, and still
/// read as JSON when something is (rows an older version or another program wrote).
@Suite("Stored reactions", .timeLimit(.minutes(1)))
struct StoredReactionsTests {
    static let people = (0..<1_900).map { UserID("user-\($0)-\(UUID().uuidString)") }
    static let emoji = ["👍", "🎉", "❤️", "😀", "中", "👍🏽", "a"]

    @Test("what the store writes reads back the same, by the plain path, for 1,900 reactors and for none")
    func roundTrip() throws {
        let many = Dictionary(
            uniqueKeysWithValues: Self.emoji.enumerated().map { index, kind in
                (kind, Array(Self.people[(index * 271)..<(index * 271 + 271)]))
            })
        for reactions in [many, ["👍": [Self.people[0]]], [:]] {
            let text = MessageRows.reactionsText(reactions)
            #expect(text == nil ? reactions.isEmpty : MessageRows.unescapedReactions(text!) == reactions, "read by the plain path")
            #expect(try MessageRows.reactions(text) == reactions)
            // The same text JSONDecoder reads, so that any other reader of the file agrees.
            if let text {
                #expect(try JSONDecoder().decode([String: [String]].self, from: Data(text.utf8)) == reactions.mapValues { $0.map(\.rawValue) })
            }
        }
    }

    @Test("text with escapes, white space or JSONEncoder's output goes to the decoder; damaged text throws")
    func otherText() throws {
        let awkward: [String: [String]] = ["\"": ["a\\b", "c/d"], "x\ny": ["\u{1}"], "👍": ["ada", "grace"]]
        let encoded = String(decoding: try JSONEncoder().encode(awkward), as: UTF8.self)
        #expect(MessageRows.unescapedReactions(encoded) == nil)
        #expect(try MessageRows.reactions(encoded) == awkward.mapValues { $0.map(UserID.init(rawValue:)) })
        let spaced = #"{ "👍" : [ "ada" , "grace" ] }"#
        #expect(MessageRows.unescapedReactions(spaced) == nil)
        #expect(try MessageRows.reactions(spaced) == ["👍": [UserID("ada"), UserID("grace")]])
        for damaged in [#"{"👍":["ada"]"#, #"{"👍":["ada"}"#, #"{"👍":"ada"}"#, #"{"👍":["ada"]}x"#, #"["ada"]"#, ""] {
            #expect(MessageRows.unescapedReactions(damaged) == nil, "\(damaged)")
            #expect(throws: (any Error).self, "\(damaged)") { try MessageRows.reactions(damaged) }
        }
    }
}
