/// Text layout for the REPL's own lines: words wrapped to a width.
enum HelpLayout {
    /// `text` in lines of at most `width` characters, broken at spaces (a word longer than the
    /// width gets a line of its own).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + (line.isEmpty ? [] : [line])
    }
}
