import Foundation

/// Lines entered before, newest last, browsed with up/down and kept in a file across runs.
@MainActor
final class History {
    private var entries: [String]
    private var cursor: Int
    private var draft = ""
    private let file: URL?
    private let limit = 1_000

    init(file: URL?) {
        self.file = file
        let saved = file.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
        entries = saved.split(separator: "\n").map(String.init)
        cursor = entries.count
    }

    func resetCursor() { cursor = entries.count }

    func previous(current: String) -> String? {
        guard cursor > 0 else { return nil }
        if cursor == entries.count { draft = current }
        cursor -= 1
        return entries[cursor]
    }

    func next() -> String? {
        guard cursor < entries.count else { return nil }
        cursor += 1
        return cursor == entries.count ? draft : entries[cursor]
    }

    func add(_ line: String) {
        if entries.last != line { entries.append(line) }
        entries = Array(entries.suffix(limit))
        cursor = entries.count
        save()
    }

    private func save() {
        guard let file else { return }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        try? (entries.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    }
}
