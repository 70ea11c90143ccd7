/// What the screen shows, cell by cell: a character and its style in each of `rows` ×
/// `columns` cells. Views write into it; `ScreenPainter` writes to the terminal only the cells
/// that changed since the last frame. A wide character takes its cell and the next, which holds
/// `nil`; text never runs past the area it is written into.
public struct CellBuffer: Equatable, Sendable {
    /// One cell.
    public struct Cell: Equatable, Sendable {
        /// The character drawn; `nil` in the right half of a wide one.
        public var character: Character?
        public var style: CellStyle
        /// What is drawn over the cell besides its character: a row of a picture (0 for none).
        /// A cell whose mark changes is painted again, which clears what a picture left there.
        public var mark = 0

        /// A blank cell.
        public static let blank = Cell(character: " ", style: .plain)
    }

    public let rows: Int
    public let columns: Int
    private var cells: [Cell]

    /// A blank screen of `rows` × `columns`.
    public init(rows: Int, columns: Int) {
        self.rows = max(0, rows)
        self.columns = max(0, columns)
        cells = Array(repeating: .blank, count: self.rows * self.columns)
    }

    /// The cell at `row`, `column` (from 0).
    public subscript(row: Int, column: Int) -> Cell { cells[row * columns + column] }

    /// Writes `text` on `row` from `column`, at most `width` columns, the rest of them blank in
    /// `fill`'s style; what does not fit is cut (a wide character that would straddle the edge
    /// becomes a blank). Returns the columns the text took.
    @discardableResult
    public mutating func write(_ text: StyledText, row: Int, column: Int, width: Int, fill: CellStyle = .plain) -> Int {
        guard (0..<rows).contains(row), column >= 0 else { return 0 }
        let end = min(columns, column + max(0, width))
        var at = column
        runs: for run in text.runs {
            for character in run.text {
                let wide = CellWidth.of(character)
                guard wide > 0 else { continue }
                guard at + wide <= end else { break runs }
                set(row, at, Cell(character: character, style: run.style))
                if wide == 2 { set(row, at + 1, Cell(character: nil, style: run.style)) }
                at += wide
            }
        }
        let used = at - column
        while at < end {
            set(row, at, Cell(character: " ", style: fill))
            at += 1
        }
        repair(row: row)
        return used
    }

    /// Fills the rectangle with `character` in `style`.
    public mutating func fill(rows range: Range<Int>, columns columnRange: Range<Int>, with character: Character = " ", style: CellStyle = .plain) {
        for row in range.clamped(to: 0..<rows) {
            for column in columnRange.clamped(to: 0..<columns) { set(row, column, Cell(character: character, style: style)) }
            repair(row: row)
        }
    }

    /// Marks the cells of `columns` on `row` as under the picture row `mark`, blank beneath it.
    public mutating func mark(row: Int, columns columnRange: Range<Int>, with mark: Int) {
        guard (0..<rows).contains(row) else { return }
        for column in columnRange.clamped(to: 0..<columns) { set(row, column, Cell(character: " ", style: .plain, mark: mark)) }
    }

    /// The screen as text, a line a row with trailing blanks cut: what a reviewer reads in a test.
    public var text: String {
        (0..<rows).map { row in
            var line = ""
            for column in 0..<columns { if let character = self[row, column].character { line.append(character) } }
            return String(line.reversed().drop { $0 == " " }.reversed())
        }.joined(separator: "\n")
    }

    private mutating func set(_ row: Int, _ column: Int, _ cell: Cell) { cells[row * columns + column] = cell }

    /// Blanks the halves of wide characters that lost their other half to a later write.
    private mutating func repair(row: Int) {
        for column in 0..<columns {
            let index = row * columns + column
            if let character = cells[index].character {
                if CellWidth.of(character) == 2, column + 1 >= columns || cells[index + 1].character != nil { cells[index] = .blank }
            } else if column == 0 || cells[index - 1].character.map(CellWidth.of) != 2 {
                cells[index] = .blank
            }
        }
    }
}
