import Foundation
import Kernel

/// An exclusive `flock` on a lock file beside a file that several processes change, held while
/// one of them reads, changes and writes it back.
enum FileLock {
    /// Runs `body` holding the lock of `file` (`.<name>.lock` in its folder, made owner-only).
    /// - Throws: `AppError(.unavailable)` naming `what` when the lock cannot be taken; `body`'s errors.
    static func holding<T>(_ file: URL, what: String, _ body: () throws -> T) throws -> T {
        let folder = file.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = folder.appendingPathComponent(".\(file.lastPathComponent).lock").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw AppError(.unavailable, "cannot lock \(what) (\(path)): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw AppError(.unavailable, "cannot lock \(what) (\(path)): \(String(cString: strerror(errno)))") }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
