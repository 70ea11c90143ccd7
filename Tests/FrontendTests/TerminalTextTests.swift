import CLIKit
import Kernel
import Testing
import TestSupport

@Suite("Terminal text", .timeLimit(.minutes(1)))
struct TerminalTextTests {
    @Test("controls, escapes, overrides and invisible characters are shown as visible codes, exactly")
    func exact() {
        #expect(TerminalText.line("ok\r\n2. Bank [group] (3 unread)") == "ok␍␊2. Bank [group] (3 unread)")
        #expect(TerminalText.line("\u{1B}[2J\u{7}\u{0}\u{7F}\u{85}") == "␛[2J␇␀␡<U+0085>")
        #expect(TerminalText.line("Bob Smith\u{200B}") == "Bob Smith<U+200B>")
        #expect(TerminalText.line("\u{202E}evil") == "<U+202E>evil")
        #expect(TerminalText.message("first\nsecond\tcol\r\u{1B}]0;title\u{7}") == "first\n    second    col␍␛]0;title␇")
        #expect(TerminalText.message("👩🏽‍💻 שלום \u{2067}x\u{2069}") == "👩🏽‍💻 שלום <U+2067>x<U+2069>")
        #expect(TerminalText.line("Grace Hopper") == "Grace Hopper")
    }

    @Test("over random Unicode, nothing that moves the cursor, escapes or reorders reaches the terminal", arguments: [21, 22, 23] as [UInt64])
    func fuzz(seed: UInt64) {
        var random = RandomText(seed: seed)
        for _ in 0..<3_000 {
            let text = random.string(maxScalars: 60)
            let line = TerminalText.line(text)
            #expect(!line.unicodeScalars.contains { $0.isControl || $0.isDirectionalOverride || $0.isInvisibleOrDirectional }, "\(text.debugDescription)")
            let message = TerminalText.message(text)
            #expect(!message.unicodeScalars.contains { ($0.isControl && $0 != "\n") || $0.isDirectionalOverride }, "\(text.debugDescription)")
            // Every line after a break starts with the indent (compared by scalars: a combining
            // mark may join the last space into one character).
            #expect(message.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
                .allSatisfy { $0.starts(with: "    ".unicodeScalars) }, "\(text.debugDescription)")
        }
    }
}
