import CLIKit
import Foundation
import Kernel

/// Lines entered before, newest last, browsed with up/down and kept in a file across runs.
@MainActor
final class History {
    private var entries: [String]
    private var cursor: Int
    private var draft = ""
    private let file: URL?
    private static let limit = 1_000

    /// Largest history file read; a larger one, or something else than a regular file at the
    /// path, leaves the session without history, and the file as it is.
    static let maxBytes = 4 * 1_024 * 1_024

    init(file: URL?) {
        var usable = file
        var saved: [String] = []
        if let file {
            do {
                let bytes = try RegularFile.read(file.path, what: "history", maxBytes: Self.maxBytes, kind: .unavailable)
                saved = bytes.map { String(decoding: $0, as: UTF8.self).split(separator: "\n").suffix(Self.limit).map(String.init) } ?? []
            } catch {
                usable = nil
            }
        }
        self.file = usable
        entries = saved
        cursor = saved.count
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

    /// Longest line kept, in bytes: with at most `limit` entries the file stays well under
    /// `maxBytes`, so it can always be read back.
    static let maxEntryBytes = 2_048

    /// The newest entry before `index` (all entries when `nil`) that contains `query`, ignoring
    /// case, and where it is: what Ctrl-R finds.
    func search(_ query: String, before index: Int? = nil) -> (index: Int, entry: String)? {
        let end = min(index ?? entries.count, entries.count)
        guard !query.isEmpty, end > 0 else { return nil }
        let found = entries[..<end].lastIndex { $0.range(of: query, options: .caseInsensitive) != nil }
        return found.map { ($0, entries[$0]) }
    }

    func add(_ line: String) {
        guard line.utf8.count <= Self.maxEntryBytes else { return }
        if entries.last != line { entries.append(line) }
        entries = Array(entries.suffix(Self.limit))
        cursor = entries.count
        save()
    }

    private func save() {
        guard let file else { return }
        try? FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        try? (entries.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    }
}
