import Chat
import Kernel
import Synchronization

/// Remembers the members of conversations already looked up, so that a burst of sends and the
/// live fan-out do not ask the list for each message, and people's blocks for a moment. A conversation whose members change is
/// forgotten (`forget`): by the service that changed them, and by the process's event feed
/// when it reads the change, made here or by another process. Unknown conversations are not
/// kept. One per process, shared by every caller's services.
public final class MembershipCache: ConversationMembership {
    private let membership: any ConversationMembership
    /// Members by conversation, and how many times any was forgotten: members read before a
    /// change was forgotten must not be kept after it.
    private let known = Mutex<(members: [ConversationID: [UserID]], forgotten: Int)>(([:], 0))

    private let blocks: RecentLookups<UserID, (blocked: Set<UserID>, blockers: Set<UserID>)>

    /// How long blocks are kept: how late a block or unblock made by another process may be seen here.
    public static let blocksKeptFor: Duration = .seconds(1)

    /// Creates a cache in front of `membership`; `now` tells the time blocks are kept by.
    public init(_ membership: any ConversationMembership, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.membership = membership
        blocks = RecentLookups(keptFor: Self.blocksKeptFor, now: now)
    }

    public nonisolated(nonsending) func members(of conversationID: ConversationID) async throws -> [UserID]? {
        let (cached, forgotten) = known.withLock { ($0.members[conversationID], $0.forgotten) }
        if let cached { return cached }
        guard let members = try await membership.members(of: conversationID) else { return nil }
        known.withLock { known in if known.forgotten == forgotten { known.members[conversationID] = members } }
        return members
    }

    /// Kept `blocksKeptFor` after each look-up, for the sends that mention someone: each asks
    /// whom its sender is apart from. A block or unblock of this process is forgotten at once
    /// (`forgetBlocks`); one of another process is seen within `blocksKeptFor`.
    public nonisolated(nonsending) func blocks(involving user: UserID) async throws -> (blocked: Set<UserID>, blockers: Set<UserID>) {
        let generation = blocks.generation
        if let cached = blocks.value(for: user) { return cached }
        let found = try await membership.blocks(involving: user)
        blocks.keep([user: found], lookedUpAt: generation)
        return found
    }

    /// Forgets the blocks involving `people`: one of them blocked or unblocked another.
    public func forgetBlocks(of people: [UserID]) { blocks.forget(people) }

    /// Forgets the members of `conversationID`: they changed.
    public func forget(_ conversationID: ConversationID) {
        known.withLock { known in
            known.members[conversationID] = nil
            known.forgotten += 1
        }
    }
}
