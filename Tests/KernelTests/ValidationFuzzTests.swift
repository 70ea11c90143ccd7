import Foundation
import Kernel
import TestSupport
import Testing

/// Validation over random Unicode: whatever it accepts keeps its promises, and nothing crashes.
@Suite("Validation over random Unicode", .timeLimit(.minutes(1)))
struct ValidationFuzzTests {
    static let seeds: [UInt64] = [1, 2, 3, 4, 5, 6, 7, 8]

    /// Visible characters every field takes, with their size in bytes: one to eight.
    static let visible: [String] = ["a", "Z", "7", "é", "ß", "中", "😀", "👍🏽", "🇫🇷"]
    /// Characters no name, title or status may hold, whatever surrounds them (controls, invisible
    /// and direction-changing ones), listed here rather than taken from the code under test.
    static let forbiddenInLines: [String] = [
        "\u{07}", "\u{1B}", "\u{7F}", "\u{85}", "\u{9B}", "\u{200E}", "\u{200F}", "\u{202A}",
        "\u{202E}", "\u{2066}", "\u{2069}", "\u{2028}", "\n", "\r",
    ]
    /// Controls no message may hold (line breaks and tabs aside).
    static let forbiddenInMessages: [String] = ["\u{07}", "\u{1B}", "\u{7F}", "\u{85}", "\u{9B}", "\u{00}"]

    @Test("around the limits, each field takes text exactly when it is within both its character and its byte limit", arguments: seeds)
    func aroundTheLimits(seed: UInt64) throws {
        var random = RandomText(seed: seed)
        let fields: [(String, (String) throws -> String, Int, Int)] = [
            ("display name", Validation.displayName, Validation.maxDisplayNameLength, Validation.maxDisplayNameBytes),
            ("title", Validation.title, Validation.maxTitleLength, Validation.maxTitleBytes),
            ("status", Validation.status, Validation.maxStatusLength, Validation.maxStatusBytes),
            ("message", Validation.messageText, Validation.maxMessageLength, Validation.maxMessageBytes),
        ]
        for (field, check, maxLength, maxBytes) in fields {
            var counts = (accepted: 0, refused: 0)
            for _ in 0..<300 {
                // A length near the character limit, in characters whose sizes put the bytes near
                // the byte limit: mostly those of the average size the limits allow (4), some others.
                let length = maxLength - 4 + random.int(in: 0...8)
                let text = (0..<length).map { _ in
                    random.int(in: 0...3) == 0 ? Self.visible[random.int(in: 0...(Self.visible.count - 1))] : "😀"
                }.joined()
                let fits = text.count <= maxLength && text.utf8.count <= maxBytes
                let accepted = (try? check(text)) == text
                #expect(accepted == fits, "seed \(seed), \(field): \(text.count) characters, \(text.utf8.count) bytes")
                if accepted { counts.accepted += 1 } else { counts.refused += 1 }
            }
            #expect(counts.accepted > 30 && counts.refused > 30, "seed \(seed), \(field): \(counts)")
        }
    }

    @Test("a forbidden character anywhere in otherwise good text is refused", arguments: seeds)
    func forbiddenCharacters(seed: UInt64) throws {
        var random = RandomText(seed: seed)
        for _ in 0..<200 {
            let good = (0..<random.int(in: 2...20)).map { _ in Self.visible[random.int(in: 0...(Self.visible.count - 1))] }
            for (checks, forbidden) in [
                ([Validation.displayName, Validation.title, Validation.status], Self.forbiddenInLines),
                ([Validation.messageText], Self.forbiddenInMessages),
            ] {
                var characters = good
                let bad = forbidden[random.int(in: 0...(forbidden.count - 1))]
                characters.insert(bad, at: random.int(in: 1...(characters.count - 1)))
                for check in checks {
                    #expect(throws: AppError.self, "seed \(seed): \(characters.joined().debugDescription)") { try check(characters.joined()) }
                }
            }
        }
    }

    @Test("accepted names, titles and statuses are visible text within their limits; accepting twice changes nothing", arguments: seeds)
    func lines(seed: UInt64) throws {
        var random = RandomText(seed: seed)
        for _ in 0..<2_000 {
            let raw = random.string(maxScalars: 80)
            for (check, maxLength, maxBytes) in [(Validation.displayName, 64, 256), (Validation.title, 64, 256), (Validation.status, 140, 560)] {
                guard let value = try? check(raw) else { continue }
                #expect(value.count <= maxLength && value.utf8.count <= maxBytes)
                #expect(
                    !value.unicodeScalars.contains { $0.isControl || $0.isInvisibleOrDirectional || $0.isDirectionalOverride },
                    "seed \(seed): \(raw.debugDescription)")
                #expect(try check(value) == value)
            }
        }
    }

    @Test("accepted messages have only line breaks and tabs among controls, no CR, and fit 4,000 characters and 16,000 bytes", arguments: seeds)
    func messages(seed: UInt64) throws {
        var random = RandomText(seed: seed)
        var accepted = 0
        for _ in 0..<2_000 {
            let raw = random.string(maxScalars: 200)
            guard let text = try? Validation.messageText(raw) else { continue }
            accepted += 1
            #expect(text.count <= 4_000 && text.utf8.count <= 16_000 && !text.isEmpty)
            #expect(!text.unicodeScalars.contains { $0.isControl && $0 != "\n" && $0 != "\t" }, "seed \(seed): \(raw.debugDescription)")
            #expect(try Validation.messageText(text) == text)
        }
        #expect(accepted > 0)
    }

    @Test("text is trimmed exactly as Foundation trims it: White_Space off messages, space separators and tab off names", arguments: seeds)
    func trimmingAsFoundation(seed: UInt64) throws {
        var random = RandomText(seed: seed)
        let blanks: [String] = [
            " ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{1680}", "\u{2003}", "\u{2028}", "\u{2029}",
            "\u{202F}", "\u{205F}", "\u{3000}", "\u{200B}", "\u{FEFF}", "\u{301}",
        ]
        var compared = (messages: 0, statuses: 0)
        for _ in 0..<2_000 {
            let pad = { (random: inout RandomText) in (0..<random.int(in: 0...3)).map { _ in blanks[random.int(in: 0...(blanks.count - 1))] }.joined()
            }
            let raw = pad(&random) + random.string(maxScalars: 20) + pad(&random)
            if let text = try? Validation.messageText(raw) {
                compared.messages += 1
                #expect(
                    text == raw.replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(in: .whitespacesAndNewlines),
                    "seed \(seed): \(raw.debugDescription)")
            }
            if let status = try? Validation.status(raw) {
                compared.statuses += 1
                let expected = raw.trimmingCharacters(in: .whitespaces).split(separator: " ").joined(separator: " ")
                #expect(status == expected, "seed \(seed): \(raw.debugDescription)")
            }
        }
        #expect(compared.messages > 100 && compared.statuses > 10, "\(compared)")
    }

    @Test("a huge input is refused by its size without being scanned to the end")
    func hugeInput() {
        let combining = "a" + String(repeating: "\u{301}", count: 100_000)
        #expect(combining.count == 1)
        #expect(throws: AppError.self) { try Validation.displayName(combining) }
        #expect(throws: AppError.self) { try Validation.messageText(combining) }
        #expect(throws: AppError(.invalidInput, "password must be at most 72 bytes (bcrypt reads no further)")) {
            try Validation.password(String(repeating: "é", count: 37))
        }
        #expect(throws: AppError(.invalidInput, "password must not contain a NUL character")) { try Validation.password("\0\0\0\0\0\0\0\0") }
    }

    @Test("error messages quote at most 40 characters of what was typed")
    func quoting() {
        #expect(AppError.quoting("short") == "'short'")
        let long = AppError.quoting(String(repeating: "x", count: 100_000))
        #expect(long == "'" + String(repeating: "x", count: 40) + "…'")
        #expect(AppError.quoting(String(repeating: "👩🏽‍💻", count: 100)).utf8.count < 200)
    }
}
