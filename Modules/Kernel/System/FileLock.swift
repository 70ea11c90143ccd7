import Foundation

/// An exclusive `flock` on a file, for work that processes must do one at a time: opening a
/// database, changing a file that several processes share. Lock a file of its own, never a
/// database file: `flock` locks are separate from the `fcntl` locks SQLite uses, but closing any
/// descriptor of a file drops every `fcntl` lock the process holds on it, SQLite's included.
public struct FileLock {
    private let descriptor: Int32

    /// Why a lock could not be taken.
    public struct Failure: Error {
        /// Whether the file could not be opened (rather than locked).
        public let opening: Bool
        /// The system's reason.
        public let reason: String
    }

    /// Waits for, then takes, the lock on `path`; with `creating`, the file is made (owner-only)
    /// when missing.
    /// - Throws: `Failure` when the file cannot be opened or locked.
    public init(path: String, creating: Bool = false) throws(Failure) {
        descriptor = creating ? open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(opening: true, reason: String(cString: strerror(errno))) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw Failure(opening: false, reason: reason)
            }
        }
    }

    /// Lets the next process take it.
    public func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
