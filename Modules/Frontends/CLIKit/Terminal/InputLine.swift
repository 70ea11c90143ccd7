import Kernel

/// One line of input as the front ends receive it: its text, or why it was refused without
/// being kept (too long, not UTF-8).
public enum InputLine: Equatable, Sendable {
    /// A line of UTF-8 text, without its line break.
    case text(String)
    /// A line that was refused; the REPL shows the reason and goes on.
    case refused(AppError)

    /// Longest line of input a front end takes, in bytes: a message at its longest and room
    /// for the command around it.
    public static let maxBytes = Validation.maxMessageBytes + 1_024

    /// The text, or the refusal thrown.
    public func get() throws -> String {
        switch self {
        case .text(let text): return text
        case .refused(let error): throw error
        }
    }
}
