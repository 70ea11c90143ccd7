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
/// its turn behind sends (ADR 29), so a pass of a million never stalls them.
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
    /// meanwhile (its conversation deleted) is passed over.
    public func erase(_ which: ErasedMessages) async throws -> Int {
        var (place, erased) = (Int64(0), 0)
        while true {
            let page = try await store.undeleted(which, after: place, limit: Self.pageSize)
            guard let last = page.last else { return erased }
            for message in page {
                let now = MessageRows.date(milliseconds: MessageRows.milliseconds(clock.now()))
                do {
                    _ = try await attachments.discarding { carried in
                        try await writer.change(message.id, in: message.conversationID, as: .deleted) {
                            try carried(ChatRules.erase($0, at: now), $0)
                        }
                    }
                    erased += 1
                } catch let error as AppError where error.kind == .notFound {
                    continue
                }
            }
            place = last.place
        }
    }
}
