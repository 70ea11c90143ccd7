/// A picture in the main pane, below the line of the message that carries it: loading (a line
/// saying so), drawn (as many rows as it has cell rows), or refused (a line saying why).
@MainActor
final class PictureBlock {
    /// How it stands.
    enum State: Equatable {
        case loading
        case shown(Picture)
        case refused(String)
    }

    /// Its id with the terminal (kitty's image id; a part of its cells' marks).
    let id: Int
    var state = State.loading

    init(id: Int) { self.id = id }

    /// The rows it takes in the pane: each a row of the picture, or the one line of words.
    var rows: [PaneRow] {
        switch state {
        case .loading: [.text(StyledText("    (picture loading…)", .dimmed))]
        case .shown(let picture): (0..<picture.rows).map { .picture(self, row: $0) }
        case .refused(let reason): [.text(StyledText("    (picture not shown: \(reason))", .dimmed))]
        }
    }

    /// The mark of the cells under its cell row `row`: a cell that changes mark is painted again.
    func mark(row: Int) -> Int { id * (Picture.maxRows + 1) + row + 1 }
}

/// A row of the main pane: text, or a row of a picture.
@MainActor
enum PaneRow {
    case text(StyledText)
    case picture(PictureBlock, row: Int)
}
