import Kernel

/// One caller's typing through the process's `TypingHub`: typing is kept in memory on every
/// local backend, and reaches other processes through the hub's channel (a folder of signals
/// beside a SQLite file, PostgreSQL's notifications, or none for the memory backend).
public struct InMemoryTypingService: TypingService {
    private let hub: TypingHub
    private let membership: any ConversationMembership
    private let caller: Caller

    /// Creates the service for `caller` over the process's `hub`; only members of a conversation
    /// (as `membership` says) may say they type in it.
    public init(hub: TypingHub, membership: any ConversationMembership, caller: Caller) {
        self.hub = hub
        self.membership = membership
        self.caller = caller
    }

    public func setTyping(_ typing: Bool, in conversationID: ConversationID) async throws {
        let me = try await caller.id()
        _ = try await membership.requireMember(me, of: conversationID)
        try await hub.publish(TypingNotice(conversationID: conversationID, userID: me, typing: typing))
    }

    public func typingNotices() async throws -> AsyncStream<TypingNotice> {
        caller.guarding(await hub.subscribe(member: try await caller.id()))
    }
}
