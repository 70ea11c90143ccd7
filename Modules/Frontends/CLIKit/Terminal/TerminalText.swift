import Kernel

/// How text that came from someone else (message text, names, status lines, titles, and error
/// messages that quote input) is written to a terminal: it can never start a line that looks
/// like ours, move the cursor or send an escape sequence, and two names that differ only by
/// invisible characters look different.
///
/// Control characters are shown as the Control Pictures (ESC as ␛, CR as ␍, DEL as ␡), C1
/// controls, bidirectional overrides and — in names — invisible characters as `<U+XXXX>`.
public enum TerminalText {
    /// One line of text: a name, a title, a status, a preview, an error message. Line breaks
    /// are shown as ␊ rather than broken.
    public static func line(_ text: String) -> String {
        render(text) { $0.isControl || $0.isDirectionalOverride || $0.isInvisibleOrDirectional || $0.isLineSeparator }
    }

    /// A message body: each line break starts an indented continuation line, a tab reads as
    /// four spaces; other controls and bidirectional overrides are shown as codes. Invisible
    /// joiners stay (emoji sequences need them).
    public static func message(_ text: String, indent: String = "    ") -> String {
        render(text, lineBreak: "\n" + indent) { $0.isControl || $0.isDirectionalOverride || $0.isLineSeparator }
    }

    private static func render(_ text: String, lineBreak: String? = nil, shown: (Unicode.Scalar) -> Bool) -> String {
        guard text.unicodeScalars.contains(where: shown) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let lineBreak, scalar == "\n" {
                result.append(contentsOf: lineBreak.unicodeScalars)
            } else if lineBreak != nil, scalar == "\t" {
                result.append(contentsOf: "    ".unicodeScalars)
            } else if shown(scalar) {
                result.append(contentsOf: code(for: scalar).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// The visible stand-in of a character that is not written raw.
    private static func code(for scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x00...0x1F: String(Unicode.Scalar(0x2400 + scalar.value).map(Character.init) ?? "?")
        case 0x7F: "␡"
        default: "<U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4) + ">"
        }
    }
}

extension Unicode.Scalar {
    /// U+2028 and U+2029, which some terminals break lines at.
    fileprivate var isLineSeparator: Bool { value == 0x2028 || value == 0x2029 }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
