import Foundation
import Kernel

#if canImport(Glibc)
    import Glibc
#endif

/// Short-lived signals shared by the processes that open one SQLite file, kept out of the
/// database: a raised signal is an empty file in a folder of the machine's shared memory
/// (`/dev/shm`, else the temporary folder), private to the user and named after the database
/// file's device and inode, so that every process opening the file finds the same folder,
/// whatever path it gave. Raising a signal again touches its file; lowering removes it; a
/// watcher hears both within milliseconds (inotify), or at its look once a second. Nothing
/// outlives a reboot, and a file left by a process that died is removed by the next watcher
/// that finds it older than `staleAfter`.
public final class SignalFolder: Sendable {
    /// A signal raised (or raised again) or lowered.
    public struct Signal: Sendable, Equatable {
        /// The signal's name: a file name, without `/`.
        public let name: String
        /// Whether it was raised (or raised again), or lowered.
        public let raised: Bool
    }

    /// How old a signal's file may get before a watcher removes it as left behind.
    public static let staleAfter: Duration = .seconds(60)
    /// Most files a watcher looks at: a folder that holds more is someone's mischief.
    static let maxFiles = 4_096

    /// The folder.
    public let path: String

    /// The folder of the database at `databasePath`, made if missing.
    /// - Throws: `.unavailable` when the database cannot be looked at, or the folder cannot be
    ///   made or is not this user's own.
    public init(forDatabaseAt databasePath: String) throws {
        var database = stat()
        guard stat(databasePath, &database) == 0 else {
            throw AppError(.unavailable, "cannot look at the database \(databasePath): \(String(cString: strerror(errno)))")
        }
        var shared = stat()
        let root = stat("/dev/shm", &shared) == 0 && shared.st_mode & S_IFMT == S_IFDIR ? "/dev/shm" : NSTemporaryDirectory()
        path = URL(fileURLWithPath: root).appendingPathComponent("messageai-\(getuid())-\(database.st_dev)-\(database.st_ino)").path
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw AppError(.unavailable, "cannot make the folder \(path): \(String(cString: strerror(errno)))")
        }
        var folder = stat()
        guard lstat(path, &folder) == 0, folder.st_mode & S_IFMT == S_IFDIR, folder.st_uid == getuid(), folder.st_mode & 0o077 == 0 else {
            throw AppError(.unavailable, "\(path) is not a folder of this user's own that only they can read")
        }
    }

    /// Raises the signal `name`, or raises it again.
    /// - Throws: `.unavailable` when its file cannot be written.
    public func raise(_ name: String) throws {
        let descriptor = open(file(name), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard descriptor >= 0 else { throw AppError(.unavailable, "cannot raise \(name) in \(path): \(String(cString: strerror(errno)))") }
        // A touch and a close: the time is what a watcher compares, the close what it hears.
        _ = futimens(descriptor, nil)
        close(descriptor)
    }

    /// Lowers the signal `name` (nothing when it is not raised).
    public func lower(_ name: String) { unlink(file(name)) }

    /// The signals raised and lowered by any process from now on (from the moment it returns),
    /// each change once; a raise of one raised already comes again when its file was touched since.
    public func signals() -> AsyncStream<Signal> {
        let source = WakeSource(folder: path, names: nil, .fileEvents)
        let path = path
        // Read before it returns: a signal raised after that is news.
        let start = Self.scan(path)
        return AsyncStream { continuation in
            let watcher = Task {
                var known = start
                for await _ in source.wakes {
                    let now = Self.scan(path)
                    for (name, time) in now where known[name] != time { continuation.yield(Signal(name: name, raised: true)) }
                    for name in known.keys where now[name] == nil { continuation.yield(Signal(name: name, raised: false)) }
                    known = now
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in
                watcher.cancel()
                source.stop()
            }
        }
    }

    private func file(_ name: String) -> String { path + "/" + name }

    /// The folder's signals with their files' times, at most `maxFiles`; files older than
    /// `staleAfter` are removed, and so lowered.
    private static func scan(_ path: String) -> [String: Int64] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return [:] }
        let stale = Int64(Date().timeIntervalSince1970 * 1e9) - staleAfter.components.seconds * 1_000_000_000
        var signals: [String: Int64] = [:]
        for name in names.prefix(maxFiles) {
            var info = stat()
            guard lstat(path + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            let time = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            if time < stale {
                unlink(path + "/" + name)
            } else {
                signals[name] = time
            }
        }
        return signals
    }
}
