import Chat
import Kernel
import Synchronization

/// Remembers the members of conversations already looked up, so that a burst of sends and the
/// live fan-out do not ask the list for each message. A conversation whose members change is
/// forgotten (`forget`): by the service that changed them, and by the process's event feed
/// when it reads the change, made here or by another process. Unknown conversations are not
/// kept. One per process, shared by every caller's services.
public final class MembershipCache: ConversationMembership {
    private let membership: any ConversationMembership
    /// Members by conversation, and how many times any was forgotten: members read before a
    /// change was forgotten must not be kept after it.
    private let known = Mutex<(members: [ConversationID: [UserID]], forgotten: Int)>(([:], 0))

    /// Creates a cache in front of `membership`.
    public init(_ membership: any ConversationMembership) { self.membership = membership }

    public nonisolated(nonsending) func members(of conversationID: ConversationID) async throws -> [UserID]? {
        let (cached, forgotten) = known.withLock { ($0.members[conversationID], $0.forgotten) }
        if let cached { return cached }
        guard let members = try await membership.members(of: conversationID) else { return nil }
        known.withLock { known in if known.forgotten == forgotten { known.members[conversationID] = members } }
        return members
    }

    /// Asked of the list each time: blocks change rarely and are asked for rarely (a read marker that moves).
    public func blocks(involving user: UserID) async throws -> (blocked: Set<UserID>, blockers: Set<UserID>) {
        try await membership.blocks(involving: user)
    }

    /// Forgets the members of `conversationID`: they changed.
    public func forget(_ conversationID: ConversationID) {
        known.withLock { known in
            known.members[conversationID] = nil
            known.forgotten += 1
        }
    }
}
