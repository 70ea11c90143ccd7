import Chat
import Foundation
import Kernel

/// This device's unsent messages for one profile and server, in a JSON file only its owner can
/// read (`state.dir/outbox/<profile>-remote-<host>_<port>.json`), changed under a `FileLock` on
/// `.<name>.lock` beside it, so that two REPLs of the profile never write over each other's messages.
public struct FileOutboxStore: OutboxStore {
    /// The outbox file.
    public let file: URL

    /// Creates a store over `file`.
    public init(file: URL) { self.file = file }

    /// Largest outbox file read: 1,000 messages of the largest size.
    static let maxBytes = 40 * 1_024 * 1_024

    public func load() throws -> [Outbox.Entry] {
        guard let bytes = try RegularFile.read(file.path, what: "the outbox", maxBytes: Self.maxBytes, kind: .unavailable) else { return [] }
        do {
            return try JSONDecoder().decode([Outbox.Entry].self, from: Data(bytes))
        } catch {
            throw AppError(.unavailable, "the outbox \(file.path) is damaged; move it away to start a new one")
        }
    }

    public func update(_ change: ([Outbox.Entry]) throws -> [Outbox.Entry]) throws {
        let folder = file.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let lockPath = folder.appendingPathComponent(".\(file.lastPathComponent).lock").path
        let lock: FileLock
        do {
            lock = try FileLock(path: lockPath, creating: true)
        } catch {
            throw AppError(.unavailable, "cannot lock the outbox (\(lockPath)): \(error.reason)")
        }
        defer { lock.release() }
        let messages = try change(try load())
        guard !messages.isEmpty else { return try PrivateFile.remove(file) }
        try PrivateFile.write(try JSONEncoder().encode(messages), to: file, what: "the outbox")
    }
}
