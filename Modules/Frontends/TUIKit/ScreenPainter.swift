/// Turns frames into what the terminal is sent: the first frame whole, then only the cells that
/// changed, each run of them after one cursor move, with a style code only where the style
/// changes. Without colour (`NO_COLOR`, or a terminal that has none) colours are left out, and
/// bold, dim and reverse video still mark what they mark.
public struct ScreenPainter: Sendable {
    /// Whether colours are written.
    public let usesColor: Bool
    private var shown: CellBuffer?

    /// A painter of a screen showing nothing yet.
    public init(usesColor: Bool) { self.usesColor = usesColor }

    /// What to send so that the terminal shows `frame`, then `overlay` (the pictures, drawn over
    /// the cells), with the cursor at `cursor` (row and column, from 0) and visible, or hidden
    /// when `nil`. After a change of size, the whole frame.
    public mutating func paint(_ frame: CellBuffer, overlay: String = "", cursor: (row: Int, column: Int)?) -> String {
        var out = "\u{1B}[?25l"
        let previous = shown.flatMap { $0.rows == frame.rows && $0.columns == frame.columns ? $0 : nil }
        if previous == nil { out += "\u{1B}[0m\u{1B}[2J" }
        var style: CellStyle?
        for row in 0..<frame.rows {
            var column = 0
            var cursorAt: Int?
            while column < frame.columns {
                let cell = frame[row, column]
                guard let character = cell.character, previous.map({ $0[row, column] != cell }) ?? true else {
                    column += 1
                    continue
                }
                if cursorAt != column { out += "\u{1B}[\(row + 1);\(column + 1)H" }
                if style != cell.style {
                    out += code(of: cell.style)
                    style = cell.style
                }
                out.append(character)
                column += CellWidth.of(character) == 2 ? 2 : 1
                cursorAt = column
            }
        }
        out += "\u{1B}[0m" + overlay
        if let cursor { out += "\u{1B}[\(cursor.row + 1);\(cursor.column + 1)H\u{1B}[?25h" }
        shown = frame
        return out
    }

    /// The next frame is painted whole (the terminal was cleared or resized).
    public mutating func forget() { shown = nil }

    /// The SGR sequence that sets exactly `style`.
    private func code(of style: CellStyle) -> String {
        var codes = ["0"]
        if style.bold { codes.append("1") }
        if style.dim { codes.append("2") }
        if style.reverse { codes.append("7") }
        if usesColor, let color = style.color {
            let code =
                switch color {
                case .red: "31"
                case .green: "32"
                case .yellow: "33"
                case .cyan: "36"
                }
            codes.append(code)
        }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}
