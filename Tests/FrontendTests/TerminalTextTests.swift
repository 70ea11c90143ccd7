import CLIKit
import Kernel
import TestSupport
import Testing

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
            #expect(
                !line.unicodeScalars.contains { $0.isControl || $0.isDirectionalOverride || $0.isInvisibleOrDirectional }, "\(text.debugDescription)")
            let message = TerminalText.message(text)
            #expect(!message.unicodeScalars.contains { ($0.isControl && $0 != "\n") || $0.isDirectionalOverride }, "\(text.debugDescription)")
            // Every line after a break starts with the indent (compared by scalars: a combining
            // mark may join the last space into one character).
            #expect(
                message.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
                    .allSatisfy { $0.starts(with: "    ".unicodeScalars) }, "\(text.debugDescription)")
        }
    }

    /// What must never reach a terminal raw, and what stands for it: a table of its own, not
    /// the predicates of the code under test.
    static let escapedEverywhere: [(String, String)] = [
        ("\u{0}", "␀"), ("\u{7}", "␇"), ("\u{8}", "␈"), ("\r", "␍"), ("\u{1B}", "␛"), ("\u{7F}", "␡"), ("\u{85}", "<U+0085>"),
        ("\u{9B}", "<U+009B>"), ("\u{202A}", "<U+202A>"), ("\u{202E}", "<U+202E>"), ("\u{2066}", "<U+2066>"), ("\u{2069}", "<U+2069>"),
        ("\u{2028}", "<U+2028>"), ("\u{2029}", "<U+2029>"),
    ]
    /// What a one-line field also shows as codes: breaks, tabs and invisible characters.
    static let escapedInLines: [(String, String)] = [
        ("\n", "␊"), ("\t", "␉"), ("\u{200B}", "<U+200B>"), ("\u{200E}", "<U+200E>"),
        ("\u{2060}", "<U+2060>"), ("\u{FEFF}", "<U+FEFF>"),
    ]
    /// Text written as it is.
    static let plain = ["a", "Z", " ", "é", "中", "😀", "שלום", "[", "2."]

    @Test(
        "text mixed from a table of what must be escaped comes out with each escaped as the table says, the rest as it was",
        arguments: [31, 32, 33] as [UInt64])
    func escapesByTable(seed: UInt64) {
        var random = RandomText(seed: seed)
        func pick<T>(_ items: [T]) -> T { items[random.int(in: 0...(items.count - 1))] }
        for _ in 0..<2_000 {
            var text = "", line = "", message = ""
            for _ in 0..<random.int(in: 1...12) {
                switch random.int(in: 0...3) {
                case 0:
                    let (raw, shown) = pick(Self.escapedEverywhere)
                    (text, line, message) = (text + raw, line + shown, message + shown)
                case 1:
                    let (raw, shown) = pick(Self.escapedInLines)
                    let inMessage = ["\n": "\n    ", "\t": "    "][raw] ?? raw
                    (text, line, message) = (text + raw, line + shown, message + inMessage)
                default:
                    let raw = pick(Self.plain)
                    (text, line, message) = (text + raw, line + raw, message + raw)
                }
            }
            #expect(TerminalText.line(text) == line, "seed \(seed): \(text.debugDescription)")
            #expect(TerminalText.message(text) == message, "seed \(seed): \(text.debugDescription)")
        }
    }
}
