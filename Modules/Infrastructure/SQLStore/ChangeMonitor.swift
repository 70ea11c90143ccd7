import Foundation
import GRDB
import Kernel
import Synchronization

/// Tells subscribers that the database changed, whichever process committed.
///
/// While anyone subscribes, it looks every `interval` at the WAL file's inode, size and
/// modification time (one `stat` call); only when they moved does it read `PRAGMA data_version` on a
/// connection of its own, which changes when another connection commits. No table is re-read;
/// subscribers then read only rows past their own cursor. Commits made through this process's
/// `SQLDatabase.write` tick at once.
public final class ChangeMonitor: Sendable {
    /// How often another process's commits are looked for.
    public static let interval = Duration.milliseconds(40)

    private let connection: DatabaseQueue
    private let walPath: String
    private let ticks = Broadcaster<Void>(bufferSize: 1)
    private let poller = Mutex<Task<Void, Never>?>(nil)

    init(path: String) throws {
        var configuration = GRDB.Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(1)
        connection = try DatabaseQueue(path: path, configuration: configuration)
        walPath = path + "-wal"
    }

    deinit { poller.withLock { $0?.cancel() } }

    /// Ticks after each change; the stream coalesces ticks a slow reader has not taken yet.
    public func subscribe() -> AsyncStream<Void> {
        poller.withLock { task in
            let stream = ticks.subscribe()
            if task == nil {
                // The baseline is read before returning, so a commit right after `subscribe()` ticks.
                let baseline = try? connection.read(Self.dataVersion)
                task = Task { [weak self] in await self?.poll(from: baseline) }
            }
            return stream
        }
    }

    func notifyLocalChange() { ticks.send(()) }

    private func poll(from baseline: Int?) async {
        var last = baseline
        // No WAL baseline yet: the first look always asks SQLite, so a commit made between
        // `subscribe()` and this task's start is not missed.
        var walState: [Int]? = [-1]
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.interval)
            let stopped = poller.withLock { task in
                guard ticks.subscriberCount == 0 else { return false }
                task = nil
                return true
            }
            if stopped { return }
            let state = Self.fileState(walPath)
            guard state != walState else { continue }
            walState = state
            guard let version = try? await connection.read(Self.dataVersion) else { continue }
            if version != last {
                last = version
                ticks.send(())
            }
        }
    }

    /// Inode, size and modification time of a file, or `nil` when it does not exist.
    private static func fileState(_ path: String) -> [Int]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [Int(info.st_size), info.st_mtim.tv_sec, info.st_mtim.tv_nsec, Int(info.st_ino)]
    }

    private static func dataVersion(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
    }
}
