import Foundation
import Kernel

/// Makes opening the database one process (and one thread) at a time: an exclusive `flock` on
/// the database file, held while it is checked, created and migrated. Without it, processes
/// starting together on a new file race to migrate it, and a read-only probe can see a
/// half-created file. `flock` locks are separate from the `fcntl` locks SQLite uses, and taking
/// one writes nothing to the file.
struct OpenLock {
    private let descriptor: Int32

    /// Waits for, then takes, the lock on `path` (which must exist).
    init(path: String) throws {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw AppError(.unavailable, "database \(path) cannot be opened: \(String(cString: strerror(errno)))")
        }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                close(descriptor)
                throw AppError(.unavailable, "database \(path) cannot be locked for opening: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Lets the next process open the file.
    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
