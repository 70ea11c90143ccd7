/// A failure of one of the project's tools, told in one line.
public struct ToolError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public let description: String

    /// Creates an error with its message.
    public init(_ description: String) { self.description = description }
}
