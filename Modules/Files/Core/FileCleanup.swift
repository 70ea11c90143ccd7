import Foundation
import Kernel
import Synchronization

/// Keeps a store free of bytes no message carries: a deleted message's files go at once
/// (`discard`), and a pass (`pass`) removes uploads whose message never came and bytes of
/// uploads that died, once `FilesRules.unsentLifetime` has gone by. One per store; the server
/// runs a pass every `interval`, a local process after an upload of its own once an `interval`
/// (`passIfDue`).
public struct FileCleanup: Sendable {
    /// How often a server runs a pass.
    public static let interval: Duration = .seconds(600)
    /// Most files a pass looks at in one go.
    static let batch = 200

    private let store: any FilesStore
    private let shared: any SharedMessages
    private let clock: any WallClock
    /// When this process last ran a pass through `passIfDue`.
    private let lastPass = LastPass()

    /// The clean-up of `store`, asking `shared` what messages carry.
    public init(store: any FilesStore, shared: any SharedMessages, clock: any WallClock = SystemWallClock()) {
        self.store = store
        self.shared = shared
        self.clock = clock
    }

    /// Runs `pass` unless this process ran one through here within `interval`: a local process
    /// cleans up after its uploads, and a pass lists every file of the store, which each send
    /// with a file need not pay for again.
    public func passIfDue() async throws {
        guard lastPass.claim(at: clock.now(), every: Self.interval) else { return }
        try await pass()
    }

    /// Removes the files `ids`: their message was deleted, for everyone.
    public func discard(_ ids: [FileID]) async throws {
        guard !ids.isEmpty else { return }
        try await store.delete(ids)
    }

    /// Removes what no message carries and is older than `FilesRules.unsentLifetime`: files whose
    /// message was never sent (or was deleted while this process died), and bytes with no row.
    /// Files whose message carries them are noted, and not looked at again. Returns how many
    /// files it removed.
    @discardableResult
    public func pass() async throws -> Int {
        let cutoff = clock.now().addingTimeInterval(-Double(FilesRules.unsentLifetime.components.seconds))
        try await store.sweep(before: cutoff)
        var removed = 0
        while true {
            let candidates = try await store.unconfirmed(before: cutoff, limit: Self.batch)
            guard !candidates.isEmpty else { return removed }
            let carried = try await shared.carried(candidates)
            try await store.confirm(candidates.map(\.id).filter(carried.contains))
            let orphans = candidates.map(\.id).filter { !carried.contains($0) }
            try await store.delete(orphans)
            removed += orphans.count
            guard candidates.count == Self.batch else { return removed }
        }
    }
}

/// The time of a process's last clean-up pass, shared by the copies of its `FileCleanup`.
private final class LastPass: Sendable {
    private let at = Mutex<Date?>(nil)

    /// Whether a pass is due at `now` (none ran yet, or the last `interval` ago or more); if so,
    /// one is taken to run now.
    func claim(at now: Date, every interval: Duration) -> Bool {
        at.withLock { last in
            if let last, now.timeIntervalSince(last) < Double(interval.components.seconds) { return false }
            last = now
            return true
        }
    }
}
