/// The lines of the full-screen UI's main pane, oldest first and at most `limit`: where a
/// screen's lines go (a page of older ones in front), which line starts what is unread, and the
/// rows they make at a width, counted back from the newest. A picture is a line of its own. A new line pushes out the oldest; a
/// page of older lines pushes out the newest, so that what is being read stays.
@MainActor
struct Scrollback {
    /// A line: text, or a picture (`PictureBlock`).
    @MainActor
    enum Line {
        case text(StyledText)
        case picture(PictureBlock)

        /// The lines of `text`, split at its newlines.
        static func lines(of text: String) -> [Line] {
            text.split(separator: "\n", omittingEmptySubsequences: false).map { .text(StyledText(parsing: String($0))) }
        }

        /// Its rows at `width`.
        func rows(width: Int) -> [PaneRow] {
            switch self {
            case .text(let text): text.wrapped(width: width).map(PaneRow.text)
            case .picture(let block): block.rows
            }
        }
    }

    let limit: Int
    private var lines: [Line] = []
    /// The line unread lines start at, while it is kept.
    private var unreadStart: Int?
    /// Rows scrolled back from the newest: 0 shows the newest at the bottom.
    private(set) var scrolledBack = 0

    init(limit: Int) { self.limit = limit }

    /// Adds `text`'s lines after the others.
    mutating func append(_ text: String) {
        lines += Line.lines(of: text)
        trim()
    }

    /// Adds a picture after the other lines.
    mutating func append(_ picture: PictureBlock) {
        lines.append(.picture(picture))
        trim()
    }

    /// Lets go of the oldest lines past `limit`.
    private mutating func trim() {
        let excess = lines.count - limit
        guard excess > 0 else { return }
        lines.removeFirst(excess)
        unreadStart = unreadStart.flatMap { $0 >= excess ? $0 - excess : nil }
    }

    /// Adds `older` (text and pictures) before the others; the rows shown at `width` stay where
    /// they are (the newest lines pushed out no longer count in how far back they are).
    mutating func prepend(_ older: [Line], width: Int) {
        lines.insert(contentsOf: older.suffix(limit), at: 0)
        unreadStart = unreadStart.map { $0 + min(older.count, limit) }
        if lines.count > limit {
            let pushedOut = lines.suffix(lines.count - limit).reduce(0) { $0 + $1.rows(width: width).count }
            lines.removeLast(lines.count - limit)
            scrolledBack = max(0, scrolledBack - pushedOut)
        }
        if let start = unreadStart, start >= lines.count { unreadStart = nil }
    }

    /// The next line added starts what is unread.
    mutating func markUnreadStart() { unreadStart = lines.count }

    /// Scrolls `rows` further back (negative: forward), no further than the oldest line at
    /// `width` allows in a pane of `height` rows. Whether it moved.
    @discardableResult
    mutating func scroll(by rows: Int, width: Int, height: Int) -> Bool {
        let before = scrolledBack
        scrolledBack = max(0, scrolledBack + rows)
        scrolledBack = min(scrolledBack, max(0, rowCount(width: width, upTo: height + scrolledBack) - height))
        return scrolledBack != before
    }

    /// Scrolls so that the unread lines start at the top of a pane of `height` rows (or are all
    /// shown). Whether there is such a line.
    mutating func scrollToUnread(width: Int, height: Int) -> Bool {
        guard let unreadStart else { return false }
        let rows = lines[unreadStart...].reduce(0) { $0 + $1.rows(width: width).count }
        scrolledBack = max(0, rows - height)
        return true
    }

    /// The rows a pane of `height` rows and `width` columns shows, top first (fewer when the
    /// lines make fewer).
    func rows(width: Int, height: Int) -> ArraySlice<PaneRow> {
        // Newest first, reversed once at the end: inserting each line at the front would cost the
        // square of the rows scrolled back.
        var rows: [PaneRow] = []
        for line in lines.reversed() {
            rows.append(contentsOf: line.rows(width: width).reversed())
            if rows.count >= height + scrolledBack { break }
        }
        return Array(rows.reversed()).dropLast(min(scrolledBack, rows.count)).suffix(height)
    }

    /// How many rows the newest lines make at `width`, counting no further than `limit` rows.
    private func rowCount(width: Int, upTo limit: Int) -> Int {
        var count = 0
        for line in lines.reversed() where count < limit { count += line.rows(width: width).count }
        return count
    }
}
