import Kernel
import Synchronization

/// What Chat needs from outside to send files: the files a sender uploaded for a message, and
/// their removal once it is deleted. Connected to Files by the composition root; a backend
/// without files has none (`NoAttachments`).
public protocol AttachmentSource: Sendable {
    /// The files `sender` uploaded for message `messageID` of `conversationID`, in their order.
    func uploads(for messageID: MessageID, in conversationID: ConversationID, by sender: UserID) async throws -> [Attachment]

    /// Removes the files of `attachments` (their message was deleted for everyone): their bytes
    /// leave the store.
    func discard(_ attachments: [Attachment]) async throws
}

/// No files: a send that names one is refused as naming a file never uploaded.
public struct NoAttachments: AttachmentSource {
    /// Creates the empty source.
    public init() {}

    public func uploads(for messageID: MessageID, in conversationID: ConversationID, by sender: UserID) async throws -> [Attachment] { [] }

    public func discard(_ attachments: [Attachment]) async throws {}
}

/// Chat's use of an `AttachmentSource`, the same in every chat service: which files a send
/// carries, and their removal once their message is deleted.
public struct AttachedFiles: Sendable {
    private let source: any AttachmentSource

    /// Uses `source`.
    public init(_ source: any AttachmentSource) { self.source = source }

    /// The files a send of `requested` carries (`ChatRules.attachments`); with none requested,
    /// none is looked up, on the caller's executor, so that a text's send costs what it did (a
    /// hop to another thread took a third of a local send's speed).
    public nonisolated(nonsending) func uploaded(
        _ requested: [FileID], for messageID: MessageID, in conversationID: ConversationID, by sender: UserID
    ) async throws
        -> [Attachment]
    {
        guard !requested.isEmpty else { return [] }
        return try ChatRules.attachments(requested, uploaded: try await source.uploads(for: messageID, in: conversationID, by: sender))
    }

    /// Runs a deletion, `work`, whose rule hands its outcome (the tombstone, or `nil`) and the
    /// message it had to `carried`; once the deletion is stored, the files the message carried
    /// are removed, so that their bytes leave the store before the deletion is answered.
    public func discarding(_ work: (_ carried: @escaping @Sendable (Message?, Message) -> Message?) async throws -> Message) async throws
        -> Message
    {
        let removed = Mutex<[Attachment]>([])
        let tombstone = try await work { outcome, before in
            if outcome != nil { removed.withLock { $0 = before.attachments } }
            return outcome
        }
        let files = removed.withLock { $0 }
        if !files.isEmpty { try await source.discard(files) }
        return tombstone
    }
}
