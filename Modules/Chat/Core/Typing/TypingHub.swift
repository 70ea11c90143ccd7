import Kernel
import Synchronization

/// The process's one hub of typing notices, over its store's `TypingChannel`. Going out, it lets
/// through at most one `typing` notice of a person in a conversation every `ChatRules.typingGap`
/// (and a stop only after one), whatever a client sends. Coming in from any process, it keeps
/// who is typing where, and hands its readers only the changes: someone started (sent to the
/// conversation's other members, but not to anyone apart from the typist, `ChatRules.apart`)
/// and someone stopped, by a stop notice or because no fresh notice came within `expiry`, as
/// when the typist's process died. A refresh of someone already typing goes to no one.
public final class TypingHub: Sendable {
    /// Takes one notice, on the hub's task; `false` when it can take no more, which ends its subscription.
    public typealias Reader = @Sendable (TypingNotice) -> Bool

    /// Someone typing now: until when without a fresh notice, and who was told.
    private struct Typist {
        var deadline: ContinuousClock.Instant
        let audience: [UserID]
    }

    private struct State {
        var throttle = TypingNotice.Throttle<TypingNotice.Key>(minimumGap: ChatRules.typingGap)
        var typists: [TypingNotice.Key: Typist] = [:]
        var readers: [UserID: [Int: Reader]] = [:]
        var nextID = 0
        /// Starts listening to the channel, once; done when it listens.
        var listening: Task<Void, Never>?
        var reader: Task<Void, Never>?
    }

    private let channel: any TypingChannel
    private let membership: any ConversationMembership
    private let expiry: Duration
    private let state = Mutex(State())

    /// A hub over `channel`, whose audiences come from `membership`; a typist shows as stopped
    /// `expiry` after their last notice.
    public init(channel: any TypingChannel, membership: any ConversationMembership, expiry: Duration = ChatRules.typingExpiry) {
        self.channel = channel
        self.membership = membership
        self.expiry = expiry
    }

    deinit {
        state.withLock { state in
            state.listening?.cancel()
            state.reader?.cancel()
        }
    }

    /// Sends `notice` unless the throttle holds it back; the caller has checked that its typist
    /// is a member of its conversation.
    public func publish(_ notice: TypingNotice) async throws {
        guard state.withLock({ $0.throttle.admit(typing: notice.typing, for: notice.key) }) else { return }
        try await channel.send(notice)
    }

    /// Hands `reader` the typing changes `member` may see from the moment it returns, starting
    /// with who is typing already, until the subscription is cancelled or the reader refuses one.
    public func subscribe(member: UserID, reader: @escaping Reader) async -> EventSubscription {
        await listen()
        let (id, typingNow) = state.withLock { state in
            defer { state.nextID += 1 }
            state.readers[member, default: [:]][state.nextID] = reader
            let typingNow = state.typists.filter { $0.value.audience.contains(member) }.keys
                .map { TypingNotice(conversationID: $0.conversationID, userID: $0.userID, typing: true) }
            return (state.nextID, typingNow)
        }
        for notice in typingNow { _ = reader(notice) }
        return EventSubscription { [weak self] in
            self?.state.withLock { state in
                state.readers[member]?[id] = nil
                if state.readers[member]?.isEmpty == true { state.readers[member] = nil }
            }
        }
    }

    /// The same changes as a stream, which keeps at most the 64 newest a slow reader has not taken.
    public func subscribe(member: UserID) async -> AsyncStream<TypingNotice> {
        let (stream, continuation) = AsyncStream<TypingNotice>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let subscription = await subscribe(member: member) { notice in
            if case .terminated = continuation.yield(notice) { return false }
            return true
        }
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
    }

    /// Starts reading the channel unless it is read already (one notice after another, with a
    /// sweep that stops typists who went quiet), and returns once it listens.
    private func listen() async {
        let listening = state.withLock { state in
            if let listening = state.listening { return listening }
            let listening = Task { [weak self] in
                guard let notices = await self?.channel.notices() else { return }
                // Weakly: a hub no one holds goes, and its deinit ends the reading.
                let reader = Task { [weak self] in
                    let sweeper = Task { [weak self] in
                        while !Task.isCancelled, let wait = self?.expireNow() { try? await Task.sleep(for: wait) }
                    }
                    defer { sweeper.cancel() }
                    for await notice in notices { await self?.received(notice) }
                }
                self?.state.withLock { $0.reader = reader }
            }
            state.listening = listening
            return listening
        }
        await listening.value
    }

    private func received(_ notice: TypingNotice) async {
        let deadline = ContinuousClock.now + expiry
        guard notice.typing else {
            if let stopped = state.withLock({ $0.typists.removeValue(forKey: notice.key) }) { deliver(notice, to: stopped.audience) }
            return
        }
        if refresh(notice.key, until: deadline) { return }
        guard let audience = try? await audience(of: notice) else { return }
        let started = state.withLock { state in
            guard state.typists[notice.key] == nil else { return false }
            state.typists[notice.key] = Typist(deadline: deadline, audience: audience)
            return true
        }
        if started {
            deliver(notice, to: audience)
        } else {
            _ = refresh(notice.key, until: deadline)
        }
    }

    /// Moves the deadline of someone typing already; false when they are not.
    private func refresh(_ key: TypingNotice.Key, until deadline: ContinuousClock.Instant) -> Bool {
        state.withLock { state in
            guard state.typists[key] != nil else { return false }
            state.typists[key]?.deadline = deadline
            return true
        }
    }

    /// Stops the typists whose deadline has passed; how long until the next one's (at most a second).
    private func expireNow() -> Duration {
        let now = ContinuousClock.now
        let expired = state.withLock { state in
            let expired = state.typists.filter { $0.value.deadline <= now }
            for key in expired.keys { state.typists[key] = nil }
            return expired
        }
        for (key, typist) in expired {
            deliver(TypingNotice(conversationID: key.conversationID, userID: key.userID, typing: false), to: typist.audience)
        }
        let next = state.withLock { $0.typists.values.map(\.deadline).min() }
        return min(next.map { $0 - now } ?? .seconds(1), .seconds(1))
    }

    /// The conversation's other members who may see its typist: none apart from them.
    private func audience(of notice: TypingNotice) async throws -> [UserID] {
        let members = try await membership.members(of: notice.conversationID) ?? []
        guard members.contains(notice.userID) else { return [] }
        let apart = try await membership.people(apartFrom: notice.userID)
        return members.filter { $0 != notice.userID && !apart.contains($0) }
    }

    private func deliver(_ notice: TypingNotice, to audience: [UserID]) {
        let readers = state.withLock { state in
            audience.flatMap { member in (state.readers[member] ?? [:]).map { (member: member, id: $0.key, take: $0.value) } }
        }
        let refused = readers.filter { !$0.take(notice) }
        guard !refused.isEmpty else { return }
        state.withLock { state in
            for reader in refused { state.readers[reader.member]?[reader.id] = nil }
        }
    }
}
