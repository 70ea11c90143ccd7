import Chat
import Kernel
import Synchronization

/// Remembers confirmed memberships, so that a burst of sends does not ask the list for each one.
/// Only positive answers are kept: members are never removed from a conversation.
final class MembershipCache: Sendable {
    private let membership: any ConversationMembership
    private let confirmed = Mutex<Set<String>>([])

    init(_ membership: any ConversationMembership) { self.membership = membership }

    func requireMember(_ user: UserID, of conversationID: ConversationID) async throws {
        let key = "\(user.rawValue)|\(conversationID.rawValue)"
        if confirmed.withLock({ $0.contains(key) }) { return }
        try await membership.requireMember(user, of: conversationID)
        confirmed.withLock { _ = $0.insert(key) }
    }

    func isMember(_ user: UserID, of conversationID: ConversationID) async -> Bool {
        (try? await requireMember(user, of: conversationID)) != nil
    }
}
