import Chat
import Kernel

/// People's display names, each kept `keptFor` after it was looked up: a burst of sends that
/// mention someone reads the members' names once, not once a send. A rename is seen by
/// mentions within `keptFor`, in this process and in others alike.
public struct RecentNames: MemberNames {
    /// How long a name is kept.
    public static let keptFor: Duration = .seconds(1)

    private let names: any MemberNames
    private let kept: RecentLookups<UserID, String>

    /// Keeps the names `names` gives; `now` tells the time they are kept by.
    public init(_ names: any MemberNames, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.names = names
        kept = RecentLookups(keptFor: Self.keptFor, now: now)
    }

    public nonisolated(nonsending) func displayNames(of ids: [UserID]) async throws -> [UserID: String] {
        let generation = kept.generation
        var found: [UserID: String] = [:], missing: [UserID] = []
        for id in ids {
            if let name = kept.value(for: id) { found[id] = name } else { missing.append(id) }
        }
        guard !missing.isEmpty else { return found }
        let looked = try await names.displayNames(of: missing)
        kept.keep(looked, lookedUpAt: generation)
        return found.merging(looked) { $1 }
    }
}
