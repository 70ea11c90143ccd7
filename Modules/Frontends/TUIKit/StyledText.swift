import CLIKit

/// How a cell is drawn besides its character.
public struct CellStyle: Hashable, Sendable {
    /// One of the front ends' colours (`Style`), or none.
    public enum Color: Hashable, Sendable { case red, green, yellow, cyan }

    public var bold = false
    public var dim = false
    public var reverse = false
    public var color: Color?

    /// The plain style.
    public static let plain = CellStyle()

    /// The plain style.
    public init() {}

    /// `style` added to this one.
    func adding(_ style: Style) -> CellStyle {
        var added = self
        switch style {
        case .bold: added.bold = true
        case .dim: added.dim = true
        case .red: added.color = .red
        case .green: added.color = .green
        case .yellow: added.color = .yellow
        case .cyan: added.color = .cyan
        }
        return added
    }
}

/// A line of text in runs of one style each: what the REPL's screens print, read back from the
/// escape codes of `Style.apply` and only those. Any other control character, an escape
/// sequence among them, is shown as its Control Picture (`TerminalText`): a line can never move
/// the cursor or change the terminal, whoever wrote it.
public struct StyledText: Equatable, Sendable {
    /// Text of one style.
    public struct Run: Equatable, Sendable {
        public var text: String
        public let style: CellStyle
    }

    /// The runs, in order.
    public private(set) var runs: [Run] = []

    /// The text of `line`, its `Style` codes read as styles.
    public init(parsing line: String) {
        var style = CellStyle.plain
        var rest = Substring(line)
        while !rest.isEmpty {
            if rest.hasPrefix("\u{1B}["), let (code, after) = Self.code(in: rest) {
                if code == "0" { style = .plain } else if let known = Self.styles[code] { style = style.adding(known) }
                rest = after
                continue
            }
            let plain = rest.prefix { $0 != "\u{1B}" }
            let text = plain.isEmpty ? String(rest.prefix(1)) : String(plain)
            append(TerminalText.line(text), style)
            rest = rest.dropFirst(text.count)
        }
    }

    /// `text` in `style`.
    public init(_ text: String = "", _ style: CellStyle = .plain) { append(TerminalText.line(text), style) }

    /// `self` followed by `other`.
    public static func + (left: StyledText, right: StyledText) -> StyledText {
        var joined = left
        for run in right.runs { joined.append(run.text, run.style) }
        return joined
    }

    /// The rows `self` takes in a pane `width` columns wide: broken after the last space that
    /// fits, or where the row is full when a word is wider than the pane; wide characters are
    /// never split.
    public func wrapped(width: Int) -> [StyledText] {
        guard width > 0 else { return [] }
        var rows: [StyledText] = []
        var row: [(character: Character, style: CellStyle, width: Int)] = [], used = 0
        func flush(_ cells: ArraySlice<(character: Character, style: CellStyle, width: Int)>) {
            var text = StyledText()
            for cell in cells { text.append(String(cell.character), cell.style) }
            rows.append(text)
        }
        for run in runs {
            for character in run.text {
                let wide = CellWidth.of(character)
                while used + wide > width, !row.isEmpty {
                    let space = row.lastIndex { $0.character == " " }.flatMap { $0 > 0 ? $0 : nil }
                    flush(row[..<(space.map { $0 + 1 } ?? row.count)])
                    row = space.map { Array(row[($0 + 1)...]) } ?? []
                    used = row.reduce(0) { $0 + $1.width }
                }
                row.append((character, run.style, wide))
                used += wide
            }
        }
        flush(row[...])
        return rows
    }

    /// The text without its styles.
    public var plain: String { runs.map(\.text).joined() }

    private mutating func append(_ text: String, _ style: CellStyle) {
        guard !text.isEmpty else { return }
        if let last = runs.last, last.style == style {
            runs[runs.count - 1].text += text
        } else {
            runs.append(Run(text: text, style: style))
        }
    }

    /// The SGR codes `Style.apply` writes, and `0` that ends them.
    private static let styles: [String: Style] = ["1": .bold, "2": .dim, "31": .red, "32": .green, "33": .yellow, "36": .cyan]

    /// The code of an SGR sequence `ESC [ code m` at the start of `text`, and what follows it;
    /// `nil` for any other sequence.
    private static func code(in text: Substring) -> (String, Substring)? {
        let body = text.dropFirst(2)
        let digits = body.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 2, body.dropFirst(digits.count).first == "m",
            digits == "0" || styles[String(digits)] != nil
        else { return nil }
        return (String(digits), body.dropFirst(digits.count + 1))
    }
}

extension CellStyle {
    static let dimmed: CellStyle = {
        var style = CellStyle()
        style.dim = true
        return style
    }()

    static let bolded: CellStyle = {
        var style = CellStyle()
        style.bold = true
        return style
    }()

    func colored(_ color: Color) -> CellStyle {
        var style = self
        style.color = color
        return style
    }
}

extension StyledText {
    /// The same text with `style` added to every run (reverse video for the open conversation).
    func styled(_ style: CellStyle) -> StyledText {
        var result = StyledText()
        for run in runs {
            var merged = run.style
            merged.reverse = merged.reverse || style.reverse
            result = result + StyledText(run.text, merged)
        }
        return result
    }
}
