import Chat
import Kernel
import Synchronization

/// Remembers the members of conversations already looked up, so that a burst of sends and the
/// live fan-out do not ask the list for each message. Members never change after a
/// conversation is created, so entries never go stale; unknown conversations are not kept.
/// One per process, shared by every caller's services.
public final class MembershipCache: ConversationMembership {
    private let membership: any ConversationMembership
    private let known = Mutex<[ConversationID: [UserID]]>([:])

    /// Creates a cache in front of `membership`.
    public init(_ membership: any ConversationMembership) { self.membership = membership }

    public nonisolated(nonsending) func members(of conversationID: ConversationID) async throws -> [UserID]? {
        if let members = known.withLock({ $0[conversationID] }) { return members }
        guard let members = try await membership.members(of: conversationID) else { return nil }
        known.withLock { $0[conversationID] = members }
        return members
    }

    /// Not cached: contacts grow with every new conversation.
    public func contacts(of user: UserID) async throws -> [UserID] { try await membership.contacts(of: user) }
}
