/// Looks at a YAML config file's text before it is parsed, refusing what could make parsing
/// exhaust the stack or memory: flow collections nested more than 32 deep, block nesting deeper
/// than 64 columns, and anchors or aliases (`&a`, `*a`), which can multiply a small file into
/// an enormous tree ("billion laughs"). A config file needs none of them.
enum ConfigFileGuard {
    static let maxFlowDepth = 32
    static let maxIndent = 64

    /// Why `text` is refused, or `nil` when it may be parsed.
    static func problem(inYAML text: String) -> String? {
        var flowDepth = 0
        var quote: Character?
        var inComment = false
        var atLineStart = true
        var indent = 0
        var previous: Character = "\n"
        for character in text {
            defer { previous = character }
            if character == "\n" {
                (inComment, atLineStart, indent) = (false, true, 0)
                if quote == "'" || quote == "\"" { continue }
                continue
            }
            if inComment { continue }
            if atLineStart {
                if character == " " {
                    indent += 1
                    if indent > maxIndent { return "is nested more than \(maxIndent) columns deep" }
                    continue
                }
                atLineStart = false
            }
            if let open = quote {
                if character == open { quote = nil }
                continue
            }
            switch character {
            case "'", "\"": quote = character
            case "#" where previous == " " || previous == "\n": inComment = true
            case "[", "{":
                flowDepth += 1
                if flowDepth > maxFlowDepth { return "nests lists or maps more than \(maxFlowDepth) deep" }
            case "]", "}": flowDepth = max(0, flowDepth - 1)
            case "&", "*" where " \n[{,:-".contains(previous):
                return "uses YAML anchors or aliases (& and *), which config files do not accept"
            default: break
            }
        }
        return nil
    }
}
