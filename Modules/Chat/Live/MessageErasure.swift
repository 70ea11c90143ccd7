import Chat
import Foundation
import Kernel

/// A message an erasure deletes: its place in the store's order, its conversation and its id.
public struct ErasedMessage: Sendable, Equatable {
    /// Its place in the store's order (where the next page starts).
    public let place: Int64
    /// Its conversation.
    public let conversationID: ConversationID
    /// Its id.
    public let id: MessageID

    /// Creates the value.
    public init(place: Int64, conversationID: ConversationID, id: MessageID) {
        self.place = place
        self.conversationID = conversationID
        self.id = id
    }
}

/// Deletes messages for everyone without a caller, on SQLite and PostgreSQL: a deleted
/// account's, or those a server keeps no longer (`ErasedMessages`). Each is deleted as its
/// author's deletion is (`ChatRules.erase`): a tombstone stays, its text and files leave the
/// store and the search index, and its conversation's members hear of it. Each deletion takes
/// its turn behind sends (ADR 29); in the background (a retention pass), each also waits for a
/// quiet moment of the writer and is followed by a pause four times as long as it took, so that
/// a pass over a million old messages holds the writer a fifth of the time at most and sends
/// are seldom behind one (docs/performance.md, "Retention").
public struct MessageErasure: Sendable {
    /// Messages read a page at a time.
    public static let pageSize = 200

    private let store: any ChatHistoryStore
    private let writer: MessageWriter
    private let attachments: AttachedFiles
    private let clock: any WallClock

    /// Erases through the process's `writer` what `store` holds, removing the files
    /// `attachments` keeps; tombstones dated by `clock`.
    public init(store: any ChatHistoryStore, writer: MessageWriter, attachments: any AttachmentSource, clock: any WallClock) {
        self.store = store
        self.writer = writer
        self.attachments = AttachedFiles(attachments)
        self.clock = clock
    }

    /// Deletes every message `which` names for everyone; how many it deleted. A message gone
    /// meanwhile (its conversation deleted) is passed over. Cancelled (a server shutting down),
    /// it stops between two deletions with how many it made; the next pass goes on from there.
    /// `inBackground`, each deletion waits for sends first (`MessageWriter.afterSends`).
    public func erase(_ which: ErasedMessages, inBackground: Bool = false) async throws -> Int {
        var (place, erased) = (Int64(0), 0)
        while true {
            let page = try await store.undeleted(which, after: place, limit: Self.pageSize)
            guard let last = page.last else { return erased }
            for message in page {
                if inBackground { await writer.afterSends() }
                if Task.isCancelled { return erased }
                let started = ContinuousClock.now
                do {
                    try await erase(message.id, in: message.conversationID)
                    erased += 1
                } catch let error as AppError where error.kind == .notFound {
                    continue
                }
                if inBackground { try? await Task.sleep(for: max((ContinuousClock.now - started) * 4, .milliseconds(1))) }
            }
            place = last.place
        }
    }

    /// Deletes message `id` of `conversationID` for everyone, whoever sent it (an admin's
    /// decision on a report); nothing when it is deleted already.
    /// - Throws: `.notFound` when there is no such message.
    public func erase(_ id: MessageID, in conversationID: ConversationID) async throws {
        let now = MessageRows.date(milliseconds: MessageRows.milliseconds(clock.now()))
        _ = try await attachments.discarding { carried in
            try await writer.change(id, in: conversationID, as: .deleted) { try carried(ChatRules.erase($0, at: now), $0) }
        }
    }
}
