/// One broken rule at one place, reported as `path:line: rule-id: message`.
public struct Violation: Comparable, CustomStringConvertible, Sendable {
    /// The file, relative to the package root.
    public let path: String
    /// The 1-based line.
    public let line: Int
    /// The rule broken.
    public let rule: RuleID
    /// What is wrong, and what to do instead.
    public let message: String

    /// Creates a report line.
    public init(path: String, line: Int, rule: RuleID, message: String) {
        self.path = path
        self.line = line
        self.rule = rule
        self.message = message
    }

    public var description: String { "\(path):\(line): \(rule.rawValue): \(message)" }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.path, lhs.line, lhs.rule.rawValue, lhs.message) < (rhs.path, rhs.line, rhs.rule.rawValue, rhs.message)
    }
}
