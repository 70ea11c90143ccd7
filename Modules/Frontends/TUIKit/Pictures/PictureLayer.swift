import Foundation
import REPLKit

/// The pictures of the full-screen UI: whether the terminal draws them (asked at the start,
/// `TerminalGraphics.Detection`), each one loaded and decoded off the main actor, and what to
/// send after a frame's cells so that the terminal shows those in view where their rows are,
/// cut to the rows in view: kitty's pictures sent once and moved by id, sixel drawn again
/// wherever one moved (its old cells are painted again by their marks, which clears it).
@MainActor
final class PictureLayer {
    /// Where a picture is in view: its top left cell on the screen and its cell rows shown.
    struct Placement: Equatable {
        let row: Int, column: Int
        let rows: Range<Int>
    }

    private(set) var detection = TerminalGraphics.Detection()
    /// Ids start above the one the query uses (31).
    private var nextID = 100
    private var placed: [Int: Placement] = [:]
    private var sent: Set<Int> = []
    /// The last sixel sequence made for each picture, with the rows it has: a picture that moves
    /// whole is not encoded again.
    private var sixels: [Int: (rows: Range<Int>, sequence: String)] = [:]

    /// The terminal is being asked; its cells are `cell` pixels where it said so.
    func ask(cell: CellSize?) { detection = TerminalGraphics.Detection(cell: cell) }

    /// The pictures are drawn with `graphics`, or not at all, without asking, in cells of `cell` pixels.
    func fix(_ graphics: TerminalGraphics?, cell: CellSize?) { detection = TerminalGraphics.Detection(fixed: graphics, cell: cell) }

    /// Takes a reply to the query; whether the way of drawing was just decided.
    func take(_ reply: TerminalReply) -> Bool {
        let before = detection.isDone
        detection.take(reply)
        return detection.isDone && !before
    }

    /// A new picture block, loading `bytes` and decoding them to fit `columns` columns; `changed`
    /// is told when it is drawn or refused.
    func block(loading bytes: @escaping @Sendable () async throws -> [UInt8], columns: Int, changed: @escaping @MainActor () -> Void) -> PictureBlock
    {
        let block = PictureBlock(id: nextID)
        nextID += 1
        let cell = detection.cell
        Task {
            do {
                let bytes = try await bytes()
                block.state = .shown(try await Self.decode(bytes, cell: cell, columns: columns))
            } catch let refusal as Picture.Refusal {
                block.state = .refused(refusal.words)
            } catch {
                block.state = .refused("could not be loaded")
            }
            changed()
        }
        return block
    }

    /// Decoded away from the main actor: a photo takes a while.
    @concurrent
    private static func decode(_ bytes: [UInt8], cell: CellSize, columns: Int) async throws(Picture.Refusal) -> Picture {
        try Picture.decode(bytes, cell: cell, columns: columns)
    }

    /// What to send after a frame's cells so that `wanted` (the pictures in view) show.
    func draw(_ wanted: [(block: PictureBlock, at: Placement)]) -> String {
        guard let graphics = detection.graphics else { return "" }
        var out = ""
        let inView = Set(wanted.map(\.block.id))
        if graphics == .kitty {
            for id in placed.keys where !inView.contains(id) { out += KittyGraphics.remove(id: id, forget: false) }
        }
        placed = placed.filter { inView.contains($0.key) }
        for (block, placement) in wanted where placed[block.id] != placement {
            guard case .shown(let picture) = block.state else { continue }
            out += "\u{1B}[\(placement.row + 1);\(placement.column + 1)H"
            switch graphics {
            case .kitty:
                if sent.insert(block.id).inserted { out += KittyGraphics.transmit(picture, id: block.id) }
                out += KittyGraphics.place(picture, id: block.id, rows: placement.rows)
            case .sixel:
                if sixels[block.id]?.rows != placement.rows {
                    sixels[block.id] = (placement.rows, SixelEncoder.encode(picture, rows: placement.rows))
                }
                out += sixels[block.id]?.sequence ?? ""
            }
            placed[block.id] = placement
        }
        return out
    }

    /// The screen was painted whole: every picture in view is drawn again.
    func forget() { placed = [:] }

    /// Another screen starts: what to send so that the terminal lets go of every picture.
    func clear() -> String {
        let out = detection.graphics == .kitty ? sent.sorted().map { KittyGraphics.remove(id: $0, forget: true) }.joined() : ""
        placed = [:]
        sent = []
        sixels = [:]
        return out
    }
}
