import Foundation
import Kernel

/// Checks made before SQLite touches a path, so that a wrong path is reported clearly and
/// nothing is written to a file that is not ours. They never open an existing file: closing a
/// descriptor of it would drop the locks SQLite holds on it in this process (the header is
/// checked by `SQLDatabase`'s read-only probe, through SQLite).
enum FileChecks {
    /// Refuses a path that is a folder, a special file, unreadable or in a read-only folder;
    /// creates a missing file (owner-only) and its folder.
    static func prepare(_ path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw failure(path, "is a directory, not a database file") }
            var info = stat()
            // A FIFO or a device would make the read below wait or never end.
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw failure(path, "is not a regular file") }
            guard FileManager.default.isReadableFile(atPath: path) else { throw failure(path, "cannot be read (permission denied)") }
            try requireWritableFolder(folder, for: path)
        } else {
            do {
                try FileManager.default.createDirectory(
                    atPath: folder.isEmpty ? "." : folder, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            } catch {
                throw failure(path, "cannot be created: the folder \(folder) cannot be made")
            }
            try requireWritableFolder(folder, for: path)
            // Messages are private: the file (and the -wal and -shm files SQLite derives from it) is
            // the owner's only. O_EXCL: another process creating it at the same moment wins, and its
            // file is never replaced. Closing this descriptor drops no lock: the file is new.
            let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
            if descriptor >= 0 {
                close(descriptor)
            } else if errno != EEXIST {
                throw failure(path, "cannot be created: \(String(cString: strerror(errno)))")
            }
        }
    }

    private static func requireWritableFolder(_ folder: String, for path: String) throws {
        guard FileManager.default.isWritableFile(atPath: folder.isEmpty ? "." : folder) else {
            throw failure(path, "sits in a read-only folder (SQLite needs to write its -wal and -shm files beside it)")
        }
    }

    static func failure(_ path: String, _ reason: String) -> AppError {
        AppError(.unavailable, "database \(path) \(reason)")
    }
}
