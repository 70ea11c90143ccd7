import Foundation

/// Exemptions written beside the code: `// arch-check: allow <rule-id>: <reason>` on the reported
/// line or in the comment and attribute lines just above it. An exemption without a reason is
/// itself reported.
struct Exemptions {
    static let marker = "arch-check: allow "

    /// `violations` without the exempted ones, plus a report for each exemption missing its reason.
    static func apply(to violations: [Violation], files: [SourceFile]) -> [Violation] {
        let byPath = Dictionary(files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let kept = violations.filter { violation in
            guard let file = byPath[violation.path] else { return true }
            return !allowed(violation.rule, at: violation.line, in: file)
        }
        return kept + files.flatMap(missingReasons)
    }

    private static func allowed(_ rule: RuleID, at line: Int, in file: SourceFile) -> Bool {
        var index = line - 1
        while index >= 0, index < file.lines.count {
            if let (exempted, reason) = exemption(file.lines[index]), exempted == rule.rawValue, !reason.isEmpty { return true }
            let above = index - 1
            guard above >= 0 else { return false }
            let text = file.lines[above].trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("//") || text.hasPrefix("@") else { return false }
            index = above
        }
        return false
    }

    private static func missingReasons(_ file: SourceFile) -> [Violation] {
        file.lines.enumerated().compactMap { index, line in
            guard let (rule, reason) = exemption(line), reason.isEmpty else { return nil }
            return Violation(
                path: file.path, line: index + 1, rule: .exemptionReason,
                message: "the exemption from \(rule) gives no reason; write why after a colon")
        }
    }

    /// The rule and reason of an exemption comment on `line`.
    private static func exemption(_ line: Substring) -> (rule: String, reason: String)? {
        guard let range = line.range(of: marker) else { return nil }
        let rest = line[range.upperBound...]
        let rule = rest.prefix { !$0.isWhitespace && $0 != ":" }
        let reason = rest.dropFirst(rule.count).drop { $0 == ":" || $0 == "—" || $0 == "-" || $0.isWhitespace }
        return (String(rule), String(reason))
    }
}
