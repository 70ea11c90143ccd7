import Auth
import Foundation
import Kernel
import Synchronization

/// Keeps one profile's session in a JSON file that only its owner can read (mode 0600, in a
/// 0700 folder), so that separate CLI runs share the sign-in. The file is read once: a REPL
/// keeps the session it started with even when another terminal signs in on the same profile.
public final class FileSessionStore: SessionStore {
    /// The session file.
    public let file: URL
    /// `nil` until first read; then the session, or `.some(nil)` for none.
    private let cached = Mutex<Session??>(nil)

    /// Creates a store over `file`.
    public init(file: URL) { self.file = file }

    public func load() throws -> Session? {
        if let session = cached.withLock({ $0 }) { return session }
        let session = FileManager.default.contents(atPath: file.path).flatMap { try? JSONDecoder().decode(Session.self, from: $0) }
        cached.withLock { $0 = .some(session) }
        return session
    }

    public func save(_ session: Session?) throws {
        try write(session)
        cached.withLock { $0 = .some(session) }
    }

    private func write(_ session: Session?) throws {
        do {
            guard let session else {
                if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
                return
            }
            let folder = file.deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let temporary = folder.appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw AppError(.unavailable, "cannot write the session file in \(folder.path)")
            }
            let handle = try FileHandle(forWritingTo: temporary)
            try handle.write(contentsOf: try JSONEncoder().encode(session))
            try handle.close()
            guard rename(temporary.path, file.path) == 0 else {
                throw AppError(.unavailable, "cannot save the session in \(file.path): \(String(cString: strerror(errno)))")
            }
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError(.unavailable, "cannot save the session in \(file.path): \(error.localizedDescription)")
        }
    }
}
