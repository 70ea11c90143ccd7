import Foundation
import Kernel
import Testing
import TestSupport

/// Validation over random Unicode: whatever it accepts keeps its promises, and nothing crashes.
@Suite("Validation over random Unicode", .timeLimit(.minutes(1)))
struct ValidationFuzzTests {
    static let seeds: [UInt64] = [1, 2, 3, 4, 5, 6, 7, 8]

    @Test("accepted names, titles and statuses are visible text within their limits; accepting twice changes nothing", arguments: seeds)
    func lines(seed: UInt64) throws {
        var random = RandomText(seed: seed)
        for _ in 0..<2_000 {
            let raw = random.string(maxScalars: 80)
            for (check, maxLength, maxBytes) in [(Validation.displayName, 64, 256), (Validation.title, 64, 256), (Validation.status, 140, 560)] {
                guard let value = try? check(raw) else { continue }
                #expect(value.count <= maxLength && value.utf8.count <= maxBytes)
                #expect(!value.unicodeScalars.contains { $0.isControl || $0.isInvisibleOrDirectional || $0.isDirectionalOverride }, "seed \(seed): \(raw.debugDescription)")
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
        let blanks: [String] = [" ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{1680}", "\u{2003}", "\u{2028}", "\u{2029}",
                                "\u{202F}", "\u{205F}", "\u{3000}", "\u{200B}", "\u{FEFF}", "\u{301}"]
        var compared = (messages: 0, statuses: 0)
        for _ in 0..<2_000 {
            let pad = { (random: inout RandomText) in (0..<random.int(in: 0...3)).map { _ in blanks[random.int(in: 0...(blanks.count - 1))] }.joined() }
            let raw = pad(&random) + random.string(maxScalars: 20) + pad(&random)
            if let text = try? Validation.messageText(raw) {
                compared.messages += 1
                #expect(text == raw.replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(in: .whitespacesAndNewlines), "seed \(seed): \(raw.debugDescription)")
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
        #expect(throws: AppError(.invalidInput, "password must be at most 72 bytes (bcrypt reads no further)")) { try Validation.password(String(repeating: "é", count: 37)) }
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
