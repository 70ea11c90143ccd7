import Auth
import CLIKit
import Foundation
import Kernel
import Synchronization

/// Keeps one profile's session in a JSON file that only its owner can read (mode 0600, in a
/// 0700 folder), so that separate CLI runs share the sign-in. The file is read once: a REPL
/// keeps the session it started with even when another terminal signs in on the same profile.
/// A damaged file, or something else than a regular file at its path, is "not signed in" with
/// the reason and the way out.
public final class FileSessionStore: SessionStore {
    /// The session file.
    public let file: URL
    /// `nil` until first read; then the session, or `.some(nil)` for none.
    private let cached = Mutex<Session??>(nil)

    /// Creates a store over `file`.
    public init(file: URL) { self.file = file }

    /// Largest session file read.
    static let maxBytes = 16_384

    public func load() throws -> Session? {
        if let session = cached.withLock({ $0 }) { return session }
        let bytes = try RegularFile.read(file.path, what: "the session file", maxBytes: Self.maxBytes, kind: .notSignedIn)
        let session = try bytes.map { bytes in
            do {
                return try JSONDecoder().decode(Session.self, from: Data(bytes))
            } catch {
                throw AppError(.notSignedIn, "the session file \(file.path) is damaged; sign in again (`messageai login`) to replace it")
            }
        }
        cached.withLock { $0 = .some(session) }
        return session
    }

    public func save(_ session: Session?) throws {
        try write(session)
        cached.withLock { $0 = .some(session) }
    }

    private func write(_ session: Session?) throws {
        guard let session else { return try PrivateFile.remove(file) }
        try PrivateFile.write(try JSONEncoder().encode(session), to: file, what: "the session")
    }
}
