import Foundation

/// Formatting shared by the text views of every feature.
public enum TextFormat {
    /// A short local time: `14:05` today, `Mar 3 14:05` otherwise.
    public static func time(_ date: Date, now: Date = .now) -> String {
        let calendar = Calendar.current
        let clock = date.formatted(.dateTime.hour(.twoDigits(amPM: .omitted)).minute(.twoDigits))
        if calendar.isDate(date, inSameDayAs: now) { return clock }
        return date.formatted(.dateTime.month(.abbreviated).day()) + " " + clock
    }

    /// `text` in lines of at most `width` characters, broken at spaces (a word longer than the
    /// width gets a line of its own).
    public static func wrap(_ text: String, width: Int) -> [String] {
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

    /// The first line of `text`, cut to `limit` characters with an ellipsis.
    public static func preview(_ text: String, limit: Int = 40) -> String {
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let cut = line.count > limit ? String(line.prefix(limit - 1)) + "…" : line
        return cut + (line.count < text.count && line.count <= limit ? " …" : "")
    }
}
