/// Text styles of the terminal front ends; applied only when the console uses colour.
public enum Style: Sendable {
    case bold, dim, red, green, yellow, cyan

    /// The text wrapped in this style's ANSI escape codes.
    public func apply(to text: String) -> String {
        let code =
            switch self {
            case .bold: "1"
            case .dim: "2"
            case .red: "31"
            case .green: "32"
            case .yellow: "33"
            case .cyan: "36"
            }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
