import Foundation
import Kernel
import REPLKit
import TestSupport
import Testing

@testable import TUIKit

/// Pictures in the full-screen UI: the terminal's replies, decoding hostile files, the sixel and
/// kitty sequences, and the UI drawing, moving and letting go of a picture.
@Suite("Pictures", .timeLimit(.minutes(1)))
@MainActor
struct PictureTests {
    /// A PNG file of `width` × `height` pixels, each `pixel(x, y)`, its image data in stored
    /// (uncompressed) deflate blocks; `claiming` writes another size into its header.
    nonisolated static func png(width: Int, height: Int, claiming: (Int, Int)? = nil, _ pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) -> [UInt8] {
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)
            for x in 0..<width {
                let (red, green, blue) = pixel(x, y)
                raw += [red, green, blue]
            }
        }
        var deflate: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let count = min(65_535, raw.count - start), last: UInt8 = start + count == raw.count ? 1 : 0
            deflate += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            deflate += raw[start..<start + count]
            start += count
        } while start < raw.count
        var (a, b): (UInt32, UInt32) = (1, 0)
        for byte in raw {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        deflate += bigEndian(b << 16 | a)
        let size = claiming ?? (width, height)
        let header = bigEndian(UInt32(size.0)) + bigEndian(UInt32(size.1)) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", deflate) + chunk("IEND", [])
    }

    nonisolated private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in typed {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return bigEndian(UInt32(data.count)) + typed + bigEndian(~crc)
    }

    nonisolated private static func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xFF) } }

    /// A 64 × 32 JPEG file, red on the left half and blue on the right (ImageMagick, quality 95).
    nonisolated static let jpeg = Array(
        Data(
            base64Encoded:
                "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAIBAQEBAQIBAQECAgICAgQDAgICAgUEBAMEBgUGBgYFBgYGBwkIBgcJBwYGCAsICQoKCgoKBggLDAsKDAkKCgr/2wBDAQICAgICAgUDAwUKBwYHCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgr/wAARCAAgAEADAREAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAj/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFwEBAQEBAAAAAAAAAAAAAAAAAAoICf/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AIvZTd/AAAEhqqE14AACvEq6lAAABIaqhNeAAArxKupQAAASGqoTXgAAK8SrqUAAAEhqqE14AAD/2Q=="
        ) ?? Data())

    /// Red left, blue right: 4 × 2 pixels.
    nonisolated static let halves = png(width: 4, height: 2) { x, _ in x < 2 ? (255, 0, 0) : (0, 0, 255) }

    @Test("a terminal's replies decode as replies, never as typed keys, and Alt keys still work")
    func replies() {
        var decoder = KeyDecoder()
        let bytes = Array(
            ("\u{1B}_Gi=31;OK\u{1B}\\" + "\u{1B}_Gi=31;ENOTSUPPORTED:no\u{1B}\\" + "\u{1B}[?64;1;2;4;6;9;15;18;21;22c" + "\u{1B}[6;21;10t"
                + "\u{1B}ax").utf8)
        #expect(
            bytes.compactMap { decoder.feed($0) } == [
                .reply(.graphics(ok: true)), .reply(.graphics(ok: false)), .reply(.deviceAttributes([64, 1, 2, 4, 6, 9, 15, 18, 21, 22])),
                .reply(.cellSize(width: 10, height: 21)), .alt("a"), .character("x"),
            ])
    }

    @Test("kitty's OK before the device attributes wins; else 4 among them is sixel; else none, and the first answer stands")
    func detection() {
        func detected(_ replies: [TerminalReply]) -> TerminalGraphics.Detection {
            var detection = TerminalGraphics.Detection()
            replies.forEach { detection.take($0) }
            return detection
        }
        #expect(detected([.graphics(ok: true), .deviceAttributes([62, 4])]).graphics == .kitty)
        #expect(detected([.graphics(ok: false), .deviceAttributes([62, 4, 22])]).graphics == .sixel)
        #expect(detected([.deviceAttributes([4, 22])]).graphics == nil, "the first number is the terminal's class, not a feature")
        #expect(detected([.deviceAttributes([62]), .graphics(ok: true), .deviceAttributes([62, 4])]).isDone)
        #expect(detected([.deviceAttributes([62]), .graphics(ok: true), .deviceAttributes([62, 4])]).graphics == nil)
        #expect(!detected([.graphics(ok: true)]).isDone, "nothing is drawn before the asking ends")
        #expect(detected([.cellSize(width: 100_000, height: -3)]).cell == CellSize(width: 64, height: 1))
    }

    @Test("PNG and JPEG files decode by their bytes, scaled down to whole cells and never up")
    func decoding() throws {
        let cell = CellSize(width: 2, height: 2)
        let small = try Picture.decode(Self.halves, cell: cell, columns: 80)
        #expect((small.columns, small.rows, small.width, small.height) == (2, 1, 4, 2))
        #expect(Array(small.rgb[0..<3]) == [255, 0, 0] && Array(small.rgb[9..<12]) == [0, 0, 255])
        let photo = try Picture.decode(Self.jpeg, cell: cell, columns: 80)
        #expect((photo.columns, photo.rows) == (24, 12), "64 × 32 pixels in at most 40 × 12 cells of 2 × 2")
        #expect(photo.rgb[0] > 200 && photo.rgb[2] < 60, "red on the left: \(photo.rgb[0..<3])")
        #expect(photo.rgb[(photo.width - 1) * 3 + 2] > 200 && photo.rgb[(photo.width - 1) * 3] < 60, "blue on the right")
        let wide = Self.png(width: 800, height: 200) { _, _ in (9, 9, 9) }
        let fitted = try Picture.decode(wide, cell: .usual, columns: 80)
        #expect((fitted.columns, fitted.rows, fitted.width, fitted.height) == (Picture.maxColumns, 5, 400, 100))
        #expect(fitted.rgb.allSatisfy { $0 == 9 }, "averaging keeps a flat colour flat")
        let narrow = try Picture.decode(wide, cell: .usual, columns: 20)
        #expect((narrow.columns, narrow.rows) == (20, 3), "a narrow pane narrows the picture, aspect kept to the nearest cell")
    }

    @Test(
        "a hostile file is refused without a crash: a bomb by its header, cut short, not a picture at all",
        arguments: [
            (png(width: 2, height: 2, claiming: (100_000, 100_000)) { _, _ in (0, 0, 0) }, Picture.Refusal.tooLarge),
            (Array(halves.prefix(40)), .damaged), (Array("%PDF-1.7".utf8), .notAPicture), ([], .notAPicture),
            ([0xFF, 0xD8, 0xFF, 0x00, 0x01], .damaged),
        ] as [([UInt8], Picture.Refusal)])
    func hostile(bytes: [UInt8], refusal: Picture.Refusal) {
        #expect(throws: refusal) { try Picture.decode(bytes, cell: .usual, columns: 80) }
    }

    /// A 4 × 2 GIF, red left and blue right, its bottom right pixel transparent (Pillow).
    nonisolated static let gif = base64("R0lGODlhBAACAIEAAP8AAAAA/wD/AAAAACH5BAEAAAIALAAAAAAEAAIAAAgLAAEACBBAYAABAQEAOw==")
    /// A 16 × 16 interlaced GIF, row `y` of colour (16·y, 255 − 16·y, 0) (Pillow).
    nonisolated static let interlacedGIF = base64(
        "R0lGODdhEAAQAIMAAAD/ABDvACDfADDPAEC/AFCvAGCfAHCPAIB/AJBvAKBfALBPAMA/ANAvAOAfAPAPACwAAAAAEAAQAEAIbwABCBxIsCAABAgTKlyIgIDDhxAjEmBAsaLFiwwEaNzIsaMAAyBDihxpQIHJkyhTKnDAsqXLlw4CyJxJs2aAAThz6tw5oIDPn0CDFjhAtKjRowcSKF3KtGmCBVCjSp26oIHVq1izNnjAtavXrw8CAgA7"
    )
    /// A 3 × 3 GIF of two frames, red then blue (Pillow).
    nonisolated static let animatedGIF = base64(
        "R0lGODlhAwADAIEAAP8AAAAAAAAAAAAAACH/C05FVFNDQVBFMi4wAwEAAAAh+QQACgAAACwAAAAAAwADAAAIBwABCBw4MCAAIfkEAQoAAQAsAAAAAAMAAwCBAAD/AAAAAAAAAAAACAcAAQgcODAgADs="
    )
    /// The 4 × 2 picture of `gif` as a lossless WebP, its bottom right pixel of alpha 0 (Pillow).
    nonisolated static let webp = base64("UklGRiQAAABXRUJQVlA4TBgAAAAvA0AAEBcQ8y8gKPJ/tPkP+OAaWhH9jwA=")
    /// A 3 × 3 animated WebP of two frames, red then blue (Pillow).
    nonisolated static let animatedWebP = base64(
        "UklGRoQAAABXRUJQVlA4WAoAAAACAAAAAgAAAgAAQU5JTQYAAAAAAAAAAABBTk1GKAAAAAAAAAAAAAIAAAIAAGQAAAJWUDhMDwAAAC8CgAAABxD9j/4HIqL/AQBBTk1GKAAAAAAAAAAAAAIAAAIAAGQAAABWUDhMDwAAAC8CgAAABxDR//4HIqL/AQA="
    )

    nonisolated private static func base64(_ text: String) -> [UInt8] { Array(Data(base64Encoded: text) ?? Data()) }

    /// The pixel at `x`, `y` of `picture`.
    private static func pixel(_ picture: Picture, _ x: Int, _ y: Int) -> [UInt8] {
        Array(picture.rgb[(y * picture.width + x) * 3..<(y * picture.width + x) * 3 + 3])
    }

    @Test(
        "GIF and WebP decode by their bytes: transparency on black, interlaced rows in place, an animation's first frame",
        .enabled(if: Picture.kinds.contains("GIF"), "a build without libgif-dev and libwebp-dev draws PNG and JPEG only"))
    func gifAndWebP() throws {
        let cell = CellSize(width: 1, height: 1)
        for (name, file) in [("GIF", Self.gif), ("WebP", Self.webp)] {
            let picture = try Picture.decode(file, cell: cell, columns: 80)
            #expect((picture.width, picture.height) == (4, 2), "\(name)")
            #expect(Self.pixel(picture, 0, 0) == [255, 0, 0] && Self.pixel(picture, 2, 0) == [0, 0, 255], "\(name)")
            #expect(Self.pixel(picture, 3, 1) == [0, 0, 0], "\(name): the transparent pixel is laid on black")
        }
        let interlaced = try Picture.decode(Self.interlacedGIF, cell: CellSize(width: 2, height: 2), columns: 80)
        #expect((interlaced.width, interlaced.height) == (16, 16))
        for y in 0..<16 { #expect(Self.pixel(interlaced, 5, y) == [UInt8(16 * y), UInt8(255 - 16 * y), 0], "row \(y)") }
        for (name, file) in [("GIF", Self.animatedGIF), ("WebP", Self.animatedWebP)] {
            let first = try Picture.decode(file, cell: cell, columns: 80)
            #expect((first.width, first.height) == (3, 3) && first.rgb.count == 27, "\(name)")
            #expect(stride(from: 0, to: 27, by: 3).allSatisfy { Array(first.rgb[$0..<$0 + 3]) == [255, 0, 0] }, "\(name): the first frame, red")
        }
    }

    @Test(
        "a hostile GIF or WebP is refused without a crash: a bomb by its header, cut short",
        .enabled(if: Picture.kinds.contains("GIF")),
        arguments: [
            // A logical screen of 65,535 × 65,535 and nothing else.
            (Array("GIF89a".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0x3B], Picture.Refusal.tooLarge),
            (Array(gif.prefix(30)), .damaged), (Array("GIF89a".utf8), .damaged),
            // A lossless WebP header claiming 16,384 × 16,384 pixels.
            (Array(webp.prefix(21)) + [0xFF, 0xFF, 0xFF, 0x0F] + Array(webp.dropFirst(25)), .tooLarge),
            (Array(webp.prefix(30)), .damaged), (Array(animatedWebP.prefix(60)), .damaged),
        ] as [([UInt8], Picture.Refusal)])
    func hostileGIFAndWebP(bytes: [UInt8], refusal: Picture.Refusal) {
        #expect(throws: refusal) { try Picture.decode(bytes, cell: .usual, columns: 80) }
    }

    @Test("every prefix of each GIF and WebP file decodes or is refused, never a crash", .enabled(if: Picture.kinds.contains("GIF")))
    func prefixes() {
        for file in [Self.gif, Self.interlacedGIF, Self.animatedGIF, Self.webp, Self.animatedWebP] {
            let refused = (0..<file.count).filter { count in (try? Picture.decode(Array(file.prefix(count)), cell: .usual, columns: 80)) == nil }
            #expect(refused.count > file.count / 2, "most prefixes are cut short: \(refused.count) of \(file.count) refused")
        }
    }

    @Test("sixel: a 216-colour palette of the colours used, each colour's pixels a pass of a band, runs counted")
    func sixel() {
        let source: [UInt8] = Array((0..<6).flatMap { _ in [UInt8(255), 0, 0, 0, 0, 255] })
        let picture = source.withUnsafeBufferPointer {
            Picture(columns: 1, rows: 1, cell: CellSize(width: 2, height: 6), scaling: $0, width: 2, height: 6)
        }
        #expect(SixelEncoder.encode(picture, rows: 0..<1) == "\u{1B}P0;1q\"1;1;2;6#5;2;0;0;100#180;2;100;0;0#5?~$#180~?-\u{1B}\\")
        let flat = [UInt8](repeating: 255, count: 10 * 6 * 3).withUnsafeBufferPointer {
            Picture(columns: 1, rows: 1, cell: CellSize(width: 10, height: 6), scaling: $0, width: 10, height: 6)
        }
        #expect(SixelEncoder.encode(flat, rows: 0..<1).hasSuffix("#215!10~-\u{1B}\\"))
    }

    @Test("kitty: the pixels sent once in chunks under an id, placed cut to the rows shown, removed by id; no answers asked for")
    func kitty() throws {
        let picture = [UInt8](repeating: 7, count: 40 * 40 * 3).withUnsafeBufferPointer {
            Picture(columns: 4, rows: 2, cell: CellSize(width: 10, height: 20), scaling: $0, width: 40, height: 40)
        }
        let sent = KittyGraphics.transmit(picture, id: 101)
        let chunks = sent.split(separator: "\u{1B}\\").map { String($0.dropFirst(3)) }
        #expect(chunks.count == 2)
        #expect(chunks.first?.hasPrefix("a=t,f=24,s=40,v=40,i=101,q=2,m=1;") == true)
        #expect(chunks.last?.hasPrefix("m=0,q=2;") == true)
        let base64 = chunks.compactMap { $0.split(separator: ";", maxSplits: 1).last }.joined()
        #expect(Data(base64Encoded: base64).map(Array.init) == picture.rgb)
        #expect(KittyGraphics.place(picture, id: 101, rows: 1..<2) == "\u{1B}_Ga=p,i=101,p=1,x=0,y=20,w=40,h=20,C=1,q=2\u{1B}\\")
        #expect(KittyGraphics.remove(id: 101, forget: true) == "\u{1B}_Ga=d,d=I,i=101,q=2\u{1B}\\")
    }

    @Test("the UI asks the terminal, takes its answer from the keys (nothing typed), then draws, moves and lets go of a picture")
    func drawing() async throws {
        let terminal = FullScreenUITests.Terminal(rows: 10, columns: 59)
        #expect(!terminal.ui.drawsPictures)
        terminal.ui.askForGraphics(cell: CellSize(width: 2, height: 4))
        #expect(terminal.sent.hasSuffix(TerminalGraphics.query))
        #expect(await terminal.line(after: "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;4cx\r") == "x")
        #expect(terminal.ui.drawsPictures)
        terminal.ui.printAbove("[10:00] Grace: the moth")
        let picture = Self.png(width: 8, height: 8) { _, _ in (255, 255, 255) }
        terminal.ui.printPicture { picture }
        let drawn = await terminal.sent(until: "a=p,i=100")
        // Four cells of 2 × 4 pixels by two: rows 6 and 7 of the pane, below the line.
        #expect(drawn.contains("\u{1B}[7;1H\u{1B}_Ga=t,f=24,s=8,v=8,i=100"), "\(drawn.debugDescription)")
        #expect(drawn.contains("\u{1B}\\\u{1B}_Ga=p,i=100,p=1,x=0,y=0,w=8,h=8,C=1,q=2\u{1B}\\"), "placed after it is sent")
        terminal.ui.printAbove("a line after")
        let moved = await terminal.sent(until: "a=p,i=100")
        #expect(!moved.contains("a=t,"), "moved by id, not sent again")
        for line in 1...6 { terminal.ui.printAbove("line \(line)") }
        let cut = await terminal.sent(until: "y=4,w=8,h=4")
        #expect(cut.contains("\u{1B}[1;1H\u{1B}_Ga=p,i=100,p=1,x=0,y=4,w=8,h=4"), "its top row out of view, the rest is drawn")
        terminal.ui.printPicture { Array("not a picture".utf8) }
        #expect(await terminal.sent(until: "JPEG").contains("\u{1B}_Ga=d,d=i,i=100,q=2"), "out of view: taken off")
        #expect(terminal.ui.frame.text.contains("(picture not shown: \(Picture.Refusal.notAPicture.words))"))
        terminal.ui.showing(.conversations)
        #expect(terminal.sent.hasSuffix(KittyGraphics.remove(id: 100, forget: true)), "another screen: the terminal lets go of it")
    }

    @Test("a page of older lines brings its pictures: each drawn under the line before it, above what was there")
    func olderPage() async throws {
        let terminal = FullScreenUITests.Terminal(rows: 12, columns: 40)
        terminal.ui.drawPictures(with: .kitty, cell: CellSize(width: 2, height: 4))
        terminal.ui.printAbove("the newest line")
        let picture = Self.png(width: 8, height: 8) { _, _ in (255, 255, 255) }
        terminal.ui.printOlder([.line("an older line"), .picture { picture }, .line("the next older line")])
        let drawn = await terminal.sent(until: "a=p,i=100")
        let rows = terminal.ui.frame.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let line = try #require(rows.firstIndex { $0.hasPrefix("an older line") })
        #expect(rows[line + 3].hasPrefix("the next older line") && rows[line + 4].hasPrefix("the newest line"), "\(rows)")
        #expect(drawn.contains("\u{1B}[\(line + 2);1H\u{1B}_Ga=t,f=24,s=8,v=8,i=100"), "its two rows under its line: \(drawn.debugDescription)")

        let plain = FullScreenUITests.Terminal(rows: 12, columns: 40)
        plain.ui.drawPictures(with: nil, cell: nil)
        plain.ui.printOlder([
            .line("an older line"),
            .picture {
                Issue.record("a terminal without graphics loads no picture of an older page")
                return []
            },
        ])
        #expect(await plain.sent(until: "an older line").contains("an older line"))
    }

    @Test("sixel is drawn again wherever the picture moves, over cells painted again; without graphics nothing is loaded")
    func sixelDrawing() async throws {
        let terminal = FullScreenUITests.Terminal(rows: 10, columns: 40)
        terminal.ui.drawPictures(with: .sixel, cell: CellSize(width: 2, height: 4))
        terminal.ui.printPicture { Self.halves }
        let drawn = await terminal.sent(until: "\u{1B}\\")
        #expect(drawn.contains("\u{1B}[8;1H\u{1B}P0;1q\"1;1;4;4"), "\(drawn.debugDescription)")
        terminal.ui.printAbove("a line after")
        let moved = await terminal.sent(until: "\u{1B}\\")
        #expect(moved.contains("a line after") && moved.contains("\u{1B}[7;1H\u{1B}P0;1q"), "its old row painted over, the picture a row up")

        let plain = FullScreenUITests.Terminal(rows: 10, columns: 40)
        plain.ui.drawPictures(with: nil, cell: nil)
        plain.ui.printPicture {
            Issue.record("a terminal without graphics loads no picture")
            return []
        }
        #expect(!plain.ui.drawsPictures)
    }
}

/// The pictures of a real `messageai tui` process on a pseudo-terminal that answers as kitty,
/// as a sixel terminal, or as one that draws none: the mock moth (256 × 192 pixels, in cells of
/// 10 × 20) drawn as 26 × 10 cells, or not at all.
@Suite("Pictures on a terminal", .serialized, .timeLimit(.minutes(1)))
struct TUIPictureProcessTests {
    /// Opens Grace's conversation in a UI whose terminal answers the question with `answer`;
    /// what the terminal got after the conversation opened, up to the UI's end.
    func conversation(answering answer: String, until text: String) async throws -> String {
        let terminal = try TerminalRestoreTests.PseudoTerminal()
        defer { terminal.close() }
        terminal.setSize(rows: 40, columns: 120)
        let process = try TerminalRestoreTests().start(
            ["tui", "--backend", "memory", "--features", "profile,conversationlist,chat"], on: terminal)
        let asked = await terminal.waitFor(TerminalGraphics.query)
        #expect(asked.contains(TerminalGraphics.query), "the question is put once the screen is taken")
        terminal.type(answer)
        _ = await terminal.waitFor("chats>")
        terminal.type("/chat Grace\r")
        let shown = await terminal.waitFor(text)
        terminal.type("\u{03}")
        let rest = await terminal.waitFor(TerminalRestoreTests.screenBack)
        await process.ended()
        #expect(process.terminationStatus == 0)
        return shown + rest
    }

    @Test("kitty: the moth sent once as 260 × 200 pixels and placed under its message")
    func kitty() async throws {
        let shown = try await conversation(answering: "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;22c", until: "a=p,i=100")
        #expect(shown.contains("moth.png"))
        #expect(shown.contains("\u{1B}_Ga=t,f=24,s=260,v=200,i=100,q=2,m=1;"), "\(shown.suffix(400).debugDescription)")
        #expect(shown.contains("\u{1B}_Ga=p,i=100,p=1,x=0,y=0,w=260,h=200,C=1,q=2\u{1B}\\"))
        #expect(shown.contains("\u{1B}_Ga=d,d=I,i=100,q=2\u{1B}\\"), "let go of when the UI ends")
    }

    @Test("sixel: the moth drawn as sixel where the device attributes have 4")
    func sixel() async throws {
        let shown = try await conversation(answering: "\u{1B}_Gi=31;ENOTSUPPORTED\u{1B}\\\u{1B}[?62;4;22c", until: "\u{1B}P0;1q")
        let sixel = try #require(shown.range(of: "\u{1B}P0;1q"))
        #expect(shown[sixel.upperBound...].hasPrefix("\"1;1;260;200#"), "\(shown[sixel.upperBound...].prefix(80).debugDescription)")
        #expect(!shown.contains("\u{1B}_Ga="))
    }

    @Test("a page of older messages (/more) draws its pictures: the moth, paged back to past 50 newer messages")
    func olderPage() async throws {
        let terminal = try TerminalRestoreTests.PseudoTerminal()
        defer { terminal.close() }
        terminal.setSize(rows: 40, columns: 120)
        let process = try TerminalRestoreTests().start(
            ["tui", "--backend", "memory", "--features", "profile,conversationlist,chat"], on: terminal)
        _ = await terminal.waitFor(TerminalGraphics.query)
        terminal.type("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;22c")
        _ = await terminal.waitFor("chats>")
        terminal.type("/chat Grace\r")
        _ = await terminal.waitFor("a=p,i=100")
        // Fifty newer messages, so that the moth is no longer on the first page of 50.
        for number in 1...49 { terminal.type("newer \(number)\r") }
        terminal.type("the-fiftieth\r")
        _ = await terminal.waitFor("the-fiftieth")
        // Ctrl-L after each: the whole screen painted again, so that a prompt is sent whole
        // (the painter sends only the cells that changed).
        terminal.type("/back\r\u{0C}")
        _ = await terminal.waitFor("chats>")
        terminal.type("/chat Grace\r\u{0C}")
        let reopened = await terminal.waitFor("Hopper>")
        #expect(!reopened.contains("a=t,"), "the moth is not on the first page")
        // PgUp, as a reader would: past the oldest line it pages in older messages, then
        // scrolls up through them, each key a repaint, until the moth comes into view.
        let moth = "\u{1B}_Ga=t,f=24,s=260,v=200,i="
        var paged = ""
        for _ in 0..<20 where !paged.contains(moth) {
            terminal.type("\u{1B}[5~")
            paged += await terminal.waitFor("\u{1B}[?25h")
        }
        #expect(paged.contains(moth), "the moth of the older page is sent: \(paged.suffix(300).debugDescription)")
        terminal.type("\u{03}")
        _ = await terminal.waitFor(TerminalRestoreTests.screenBack)
        await process.ended()
        #expect(process.terminationStatus == 0)
    }

    @Test("a terminal that draws none: the moth is its line only, and nothing is sent for it")
    func none() async throws {
        let shown = try await conversation(answering: "\u{1B}[?62;22c", until: "moth.png")
        #expect(!shown.contains("\u{1B}_Ga=") && !shown.contains("\u{1B}P") && !shown.contains("(picture"))
    }
}
