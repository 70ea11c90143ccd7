import Foundation
import GRDB
import Kernel
import Synchronization

/// Tells subscribers that the database changed, whichever process committed.
///
/// While anyone subscribes, it sleeps until the file's folder reports a write to the database
/// or its WAL (`Watch.fileEvents`: inotify on Linux, with a settle and an idle wake) or until
/// its next look (`Watch.lookInterval`: polling, or where the file cannot be watched), then reads `PRAGMA data_version` on a connection of its own, which changes when
/// another connection commits. No table is re-read; subscribers then read only rows past their
/// own cursor. Commits made through this process's `SQLDatabase.write` tick at once.
public final class ChangeMonitor: Sendable {
    /// How another process's commits are noticed.
    public enum Watch: Sendable {
        /// Within milliseconds, by the kernel's report of each write to the file (a look every
        /// `lookInterval` where it has none): for processes that share a file and show each
        /// other's changes (the CLI and REPL).
        case fileEvents
        /// Within `lookInterval`, by looking: for a process that makes nearly every commit itself
        /// (the server), which this spares the kernel's work of reporting each of its own writes.
        case polling

        /// How often another process's commits are looked for without file events: once a
        /// second when polling, so that an idle server seldom wakes; every 40 ms where the file
        /// was to be watched and cannot be, as others' changes must show soon.
        public var lookInterval: Duration {
            switch self {
            case .fileEvents: .milliseconds(40)
            case .polling: .seconds(1)
            }
        }
    }

    /// Where it can be watched: a write is seen a moment before its commit is visible, so it
    /// looks once more this long after the last write of a burst.
    public static let settleWake = Duration.milliseconds(2)
    /// Where it can be watched, the longest a missed wake-up could delay a tick.
    public static let idleWake = Duration.seconds(1)

    private let connection: DatabaseQueue
    private let path: String
    private let noticing: Watch
    private let ticks = Broadcaster<Void>(bufferSize: 1)
    private let watcher = Mutex<Task<Void, Never>?>(nil)

    init(path: String, watch: Watch) throws {
        var configuration = GRDB.Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(1)
        connection = try DatabaseQueue(path: path, configuration: configuration)
        self.path = path
        noticing = watch
    }

    deinit { watcher.withLock { $0?.cancel() } }

    /// Ticks after each change; the stream coalesces ticks a slow reader has not taken yet.
    public func subscribe() -> AsyncStream<Void> {
        watcher.withLock { task in
            let stream = ticks.subscribe()
            if task == nil {
                // The baseline is read before returning, so a commit right after `subscribe()` ticks.
                let baseline = try? connection.read(Self.dataVersion)
                let source = WakeSource(watching: path, noticing)
                task = Task { [weak self] in await self?.watch(source, from: baseline) }
            }
            return stream
        }
    }

    /// Ticks at once, for a commit of this process's: `SQLDatabase.write` does after each one
    /// unless told not to, and a writer that told it not to calls this itself when it is ready.
    public func notifyLocalChange() { ticks.send(()) }

    private func watch(_ source: WakeSource, from baseline: Int?) async {
        defer { source.stop() }
        var last = baseline
        // The first look is at once: a commit made between `subscribe()` and the start of the
        // watch raised no event.
        var wakes = source.wakes.makeAsyncIterator()
        var woken = true
        while woken, !Task.isCancelled {
            let stopped = watcher.withLock { task in
                guard ticks.subscriberCount == 0 else { return false }
                task = nil
                return true
            }
            if stopped { return }
            if let version = try? await connection.read(Self.dataVersion), version != last {
                last = version
                ticks.send(())
            }
            woken = await wakes.next() != nil
        }
    }

    private static func dataVersion(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
    }
}

/// What wakes a watcher of files: writes in a folder (`fileEvents`, where inotify exists), else
/// a timer every `lookInterval`. The change monitor's, for the database and its WAL, and a
/// `SignalFolder`'s, for every file of its folder.
struct WakeSource: Sendable {
    let wakes: AsyncStream<Void>
    let stop: @Sendable () -> Void

    /// Wakes on writes to `names` in `folder` (every file of it when `nil`).
    init(folder: String, names: Set<String>?, _ watch: ChangeMonitor.Watch) {
        #if canImport(Glibc)
            if watch == .fileEvents,
                let watcher = FileChangeWatcher(
                    folder: folder, names: names, settle: ChangeMonitor.settleWake,
                    idleWake: ChangeMonitor.idleWake)
            {
                wakes = watcher.wakes
                stop = { watcher.stopNow() }
                return
            }
        #endif
        let (wakes, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let timer = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: watch.lookInterval)
                continuation.yield()
            }
            continuation.finish()
        }
        self.wakes = wakes
        stop = { timer.cancel() }
    }

    /// Wakes on writes to the database at `path` or its WAL.
    init(watching path: String, _ watch: ChangeMonitor.Watch) {
        let file = URL(fileURLWithPath: path)
        self.init(folder: file.deletingLastPathComponent().path, names: [file.lastPathComponent, file.lastPathComponent + "-wal"], watch)
    }
}
