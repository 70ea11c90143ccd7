import Chat
import Kernel
import Synchronization

/// Where a `StoreEventFeed` reads: the store's ticks, its newest position, and every event past
/// a position with the audiences of its changes (SQLite's file, or PostgreSQL's database).
public protocol EventSource: Sendable {
    /// Ticks after each commit, by any process.
    func changes() -> AsyncStream<Void>
    /// The last position handed out: where a live reader starts.
    func newest() async throws -> Int64
    /// Every event after `seq`, whoever may see it, oldest first; who sees each of its
    /// changes, by position; and the position to read after next (past damaged rows too).
    func events(after seq: Int64) async throws -> (events: [UserEvent], audiences: [Int64: [UserID]], last: Int64)
}

/// The process's one reader of new events in the store: on each change tick (a commit
/// by any process) it reads the messages and changes past its position once and fans them out
/// by conversation and audience, so the cost of an event does not grow with the number of live
/// readers. A message goes to its conversation's members (cached: a change of members, in this
/// process or another, is forgotten from the cache as the reader comes to it); a change goes to
/// the audience stored with it, whatever it concerns: the reader's work for an event is never
/// a search of who it concerns. Messages this process has just committed are handed out at once, without the
/// read, when nothing else was committed between (`publishCommitted`); every event goes out
/// once, in the store's order, whichever way it comes.
public final class StoreEventFeed: EventFeed {
    private let source: any EventSource
    private let membership: MembershipCache
    private let fanOut = EventFanOut()
    private let reader = Mutex<Task<Void, Never>?>(nil)
    /// The position of the last event handed out; `nil` until the reader starts.
    private let published = Mutex<Int64?>(nil)

    /// Creates the feed of `source`; its reader starts with the first subscription.
    public init(source: any EventSource, membership: MembershipCache) {
        self.source = source
        self.membership = membership
    }

    deinit { reader.withLock { $0?.cancel() } }

    public func subscribe(conversation conversationID: ConversationID?, member: UserID, reader: @escaping EventFanOut.Reader) async throws
        -> EventSubscription
    {
        try await startReader()
        return fanOut.subscribe(conversation: conversationID, member: member, reader: reader)
    }

    /// How many events the store has that this feed has not handed out yet: 0 while it keeps
    /// up; `nil` before its reader starts (no one listens) or when the store cannot be read.
    public func lag() async -> Int64? {
        guard let handedOut = published.withLock({ $0 }), let newest = try? await source.newest() else { return nil }
        return max(0, newest - handedOut)
    }

    /// Hands out `messages` (with their conversations' members), just committed by this
    /// process in one transaction in this order, if they directly follow the last event handed
    /// out; otherwise leaves them to the reader, which will find them in the file at the next
    /// change tick.
    func publishCommitted(_ messages: [(message: Message, members: [UserID])]) {
        guard let first = messages.first?.message.cursor?.position else { return }
        let positions = messages.compactMap(\.message.cursor?.position)
        guard positions.count == messages.count, zip(positions, positions.dropFirst()).allSatisfy({ $1 == $0 + 1 }) else { return }
        published.withLock { position in
            guard let current = position, first == current + 1 else { return }
            for (message, members) in messages { fanOut.publish(.message(message), to: members) }
            position = positions.last
        }
    }

    /// Starts the reader unless it runs. The change subscription comes before the cursor is
    /// read, and both before the first reader registers, so no commit falls between.
    private func startReader() async throws {
        if reader.withLock({ $0 != nil }) { return }
        let ticks = source.changes()
        let start = try await source.newest()
        reader.withLock { task in
            guard task == nil else { return }
            published.withLock { $0 = start }
            task = Task { [weak self] in await self?.read(ticks) }
        }
    }

    /// On each tick, reads the events past the last one handed out (by this reader, or by
    /// `publishCommitted` at its commit, which is then not read again), leaving out reactions a
    /// later one read with them makes stale (`UserEvent.staleReactions`). A read that fails, or
    /// a message whose members cannot be looked up, ends the round there: what follows is read
    /// again at the next tick (at least once a second), never skipped.
    private func read(_ ticks: AsyncStream<Void>) async {
        for await _ in ticks {
            let after = published.withLock { $0 ?? 0 }
            guard let batch = try? await source.events(after: after) else { continue }
            var audiences: [(UserEvent, [UserID])] = []
            var complete = true
            let stale = UserEvent.staleReactions(in: batch.events)
            events: for (place, event) in batch.events.enumerated() where !stale.contains(place) {
                switch event {
                case .message, .messageChanged, .reacted:
                    guard let conversationID = event.messageConversationID else { continue }
                    let members: [UserID]?
                    do {
                        members = try await membership.members(of: conversationID)
                    } catch {
                        complete = false
                        break events
                    }
                    // A conversation that is no more has no one to hand it to.
                    audiences.append((event, members ?? []))
                case .change(let change, let cursor):
                    if [.conversationAdded, .conversationLeft].contains(change.kind), let conversationID = change.conversationID {
                        membership.forget(conversationID)
                    }
                    audiences.append((event, batch.audiences[cursor.position] ?? []))
                }
            }
            published.withLock { published in
                for (event, audience) in audiences {
                    guard let seq = event.cursor?.position, seq > (published ?? 0) else { continue }
                    fanOut.publish(event, to: audience)
                    published = seq
                }
                // Past damaged rows too, so a later message of this process can take the quick way.
                if complete { published = max(published ?? 0, batch.last) }
            }
        }
    }
}
