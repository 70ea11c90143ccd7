/// Looks at a YAML config file's text before it is parsed, refusing what could make parsing
/// exhaust the stack or memory: lists or maps nested more than 32 deep (in brackets, or as
/// `- ` items on one line), indentation past 64 columns, and anchors or aliases (`&a`, `*a`),
/// which can multiply a small file into an enormous tree ("billion laughs"). A config file
/// needs none of them. Quotes are not interpreted: a `[`, `&` or `*` inside a quoted value
/// counts too, so nothing can hide behind a quote; only `#` comments outside brackets are skipped.
enum ConfigFileGuard {
    static let maxDepth = 32
    static let maxIndent = 64

    /// Why `text` is refused, or `nil` when it may be parsed.
    static func problem(inYAML text: String) -> String? {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let indent = line.prefix { $0 == " " || $0 == "-" || $0 == "?" || $0 == "\t" }.count
            if indent > maxIndent { return "is nested more than \(maxIndent) columns deep" }
        }
        var depth = 0
        var inComment = false
        var previous: Character = "\n"
        for character in text {
            defer { previous = character }
            if character == "\n" { inComment = false }
            if inComment { continue }
            switch character {
            case "#" where depth == 0 && (previous == " " || previous == "\t" || previous == "\n"): inComment = true
            case "[", "{":
                depth += 1
                if depth > maxDepth { return "nests lists or maps more than \(maxDepth) deep" }
            case "]", "}": depth = max(0, depth - 1)
            case "&", "*": return "uses YAML anchors or aliases (& and *), which config files do not accept (not even inside quotes)"
            default: break
            }
        }
        return nil
    }
}
