import REPLKit
import Testing

@Suite("Line editing", .timeLimit(.minutes(1)))
struct LineEditingTests {
    func keys(_ bytes: [UInt8]) -> [Key] {
        var decoder = KeyDecoder()
        return bytes.compactMap { decoder.feed($0) }
    }

    @Test("terminal bytes decode to keys: UTF-8, control keys and escape sequences")
    func decoding() {
        #expect(keys(Array("é👍".utf8)) == [.character("é"), .character("👍")])
        #expect(
            keys([0x01, 0x05, 0x15, 0x17, 0x03, 0x04, 0x09, 0x0D, 0x7F]) == [
                .home, .end, .killToStart, .deleteWordBackward, .interrupt, .endOfInput, .tab, .enter, .backspace,
            ])
        #expect(keys([0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x42, 0x1B, 0x5B, 0x43, 0x1B, 0x5B, 0x44]) == [.up, .down, .right, .left])
        #expect(keys([0x1B, 0x5B, 0x48, 0x1B, 0x4F, 0x46, 0x1B, 0x5B, 0x33, 0x7E, 0x1B, 0x7F]) == [.home, .end, .delete, .deleteWordBackward])
        #expect(keys(Array("\u{1B}[1;5D".utf8)) == [.wordLeft])
    }

    @Test("mouse reports decode to a click or the wheel, SGR or not; a release or a drag is no key, and none of its bytes is typed")
    func mouseReports() {
        #expect(
            keys(Array("\u{1B}[<0;5;3M\u{1B}[<0;5;3m\u{1B}[<65;120;40M\u{1B}[<32;5;3M".utf8)) == [
                .mouse(Key.Mouse(.click, row: 2, column: 4)), .unknown, .mouse(Key.Mouse(.wheelDown, row: 39, column: 119)), .unknown,
            ])
        // Without SGR: ESC [ M and three bytes, each 32 more than the button and the column and row from 1.
        #expect(
            keys(Array("\u{1B}[M !#\u{1B}[M`&(\u{1B}[M#!#x".utf8)) == [
                .mouse(Key.Mouse(.click, row: 2, column: 0)), .mouse(Key.Mouse(.wheelUp, row: 7, column: 5)), .unknown, .character("x"),
            ])
    }

    @Test("editing: insert in the middle, word delete, kill to start and end")
    func editing() {
        var line = LineBuffer("hello world")
        line.apply(.wordLeft)
        for character in "big " { line.apply(.character(character)) }
        #expect(line.text == "hello big world")
        line.apply(.end)
        line.apply(.deleteWordBackward)
        #expect(line.text == "hello big ")
        line.apply(.left)
        line.apply(.killToStart)
        #expect(line.text == " " && line.cursor == 0)
        line.replace(with: "abc")
        line.apply(.home)
        line.apply(.delete)
        line.apply(.killToEnd)
        #expect(line.text == "" && line.cursor == 0)
        line.apply(.backspace)
        #expect(line.text == "")
    }

    @Test("completion replaces the word before the cursor")
    func completion() {
        var line = LineBuffer("/open Gr")
        #expect(line.currentWord == "Gr")
        line.completeCurrentWord(with: "Grace ")
        #expect(line.text == "/open Grace " && line.cursor == 12)
    }
}
