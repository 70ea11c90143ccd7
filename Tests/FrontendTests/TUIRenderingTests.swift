import CLIKit
import TUIKit
import Testing

/// The full-screen UI's drawing, on its own: how wide characters are, what a frame holds, and
/// what the terminal is sent.
@Suite("Full-screen rendering")
struct TUIRenderingTests {
    @Test(
        "characters take the columns a terminal gives them",
        arguments: [
            ("a", 1), ("東", 2), ("🎉", 2), ("e\u{301}", 1), ("\u{200B}", 0), ("🇯🇵", 2), ("❤\u{FE0F}", 2), ("❤", 1), ("👩‍💻", 2), ("ｱ", 1), ("Ａ", 2),
        ] as [(String, Int)])
    func widths(_ text: String, _ width: Int) {
        #expect(CellWidth.of(Character(text)) == width, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test("text is cut at its area, a wide character never straddles its edge, and overwriting half of one blanks the other")
    func cells() {
        var buffer = CellBuffer(rows: 2, columns: 6)
        #expect(buffer.write(StyledText("東京ab"), row: 0, column: 0, width: 5) == 5)
        #expect(buffer.text == "東京a\n")
        buffer.write(StyledText("x"), row: 0, column: 1, width: 1)
        #expect(buffer.text == " x京a\n", "the left half of 東 is gone with its right half")
        buffer.write(StyledText("東東東"), row: 1, column: 1, width: 5)
        #expect(buffer.text == " x京a\n 東東", "a third would straddle the area's edge")
        #expect(buffer[1, 5].character == " ")
    }

    @Test("only the front ends' own style codes are read as styles; any other escape is shown, never sent")
    func hostileLines() {
        let ours = StyledText(parsing: Style.bold.apply(to: "Ada") + ": hi " + Style.yellow.apply(to: "@you"))
        #expect(ours.plain == "Ada: hi @you")
        #expect(ours.runs.map(\.style.bold) == [true, false, false] && ours.runs.last?.style.color == .yellow)
        for hostile in ["\u{1B}[2J", "\u{1B}]0;owned\u{7}", "\u{1B}[10;10H", "\u{1B}[38;5;1m", "\u{9B}31m", "a\rb", "\u{1B}[1m\u{1B}[999m"] {
            let text = StyledText(parsing: "x" + hostile + "y")
            #expect(!text.plain.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(hostile.debugDescription)")
            var buffer = CellBuffer(rows: 1, columns: 40)
            buffer.write(text, row: 0, column: 0, width: 40)
            var painter = ScreenPainter(usesColor: true)
            let sent = painter.paint(buffer, cursor: nil)
            #expect(!sent.contains("x" + hostile), "\(hostile.debugDescription) reached the terminal")
        }
    }

    @Test("lines wrap after the last space that fits, and a word wider than the pane is cut where the row is full")
    func wrapping() {
        #expect(StyledText("the quick brown fox").wrapped(width: 10).map(\.plain) == ["the quick ", "brown fox"])
        #expect(StyledText("abcdefghijkl mn").wrapped(width: 5).map(\.plain) == ["abcde", "fghij", "kl mn"])
        #expect(StyledText("東京東京").wrapped(width: 3).map(\.plain) == ["東", "京", "東", "京"])
    }

    @Test("a frame is painted whole once, then only its changed cells, one cursor move a run; without colour no colour codes")
    func painting() {
        var painter = ScreenPainter(usesColor: true)
        var frame = CellBuffer(rows: 3, columns: 10)
        frame.write(StyledText("hello"), row: 1, column: 0, width: 10)
        let first = painter.paint(frame, cursor: (2, 0))
        #expect(first.contains("\u{1B}[2J") && first.contains("hello"))
        let same = painter.paint(frame, cursor: (2, 0))
        #expect(same == "\u{1B}[?25l\u{1B}[0m\u{1B}[3;1H\u{1B}[?25h", "nothing changed: no cell is sent")
        frame.write(StyledText("help"), row: 1, column: 0, width: 10)
        let changed = painter.paint(frame, cursor: nil)
        #expect(changed == "\u{1B}[?25l\u{1B}[2;4H\u{1B}[0mp \u{1B}[0m", "\(changed.debugDescription)")
        var plain = ScreenPainter(usesColor: false)
        var colored = CellBuffer(rows: 1, columns: 10)
        colored.write(StyledText(parsing: Style.red.apply(to: "alarm")), row: 0, column: 0, width: 10)
        #expect(!plain.paint(colored, cursor: nil).contains("31"))
        #expect(painter.paint(colored, cursor: nil).contains(";31m"), "a new size is painted whole, in colour")
    }
}
