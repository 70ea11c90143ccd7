import Chat
import Crypto
import Files
import Kernel

// Where Files meets Chat: Chat asks which files a send carries and hands over a deleted
// message's; Files asks who is in a conversation and what its messages carry now.

/// What a backend keeps files with: its store, their clean-up, and the links both ways.
struct FileLinks: Sendable {
    let store: any FilesStore
    let shared: SharedMessagesAdapter
    let cleanup: FileCleanup
    let attachments: AttachmentSourceAdapter
    let limits: FileLimits
    /// Whether each upload is followed by a clean-up pass: in a person's own process, where no
    /// server runs one on a timer.
    let passAfterUpload: Bool

    init(
        store: any FilesStore, limits: FileLimits, membership: any ConversationMembership, clock: any WallClock, passAfterUpload: Bool,
        message: @escaping @Sendable (MessageID, ConversationID) async throws -> Message?
    ) {
        self.store = store
        self.limits = limits
        self.passAfterUpload = passAfterUpload
        shared = SharedMessagesAdapter(membership: membership, message: message)
        cleanup = FileCleanup(store: store, shared: shared, clock: clock)
        attachments = AttachmentSourceAdapter(store: store, cleanup: cleanup)
    }

    /// `caller`'s files service, spending from `budget`.
    func service(for caller: Caller, clock: any WallClock, budget: UsageBudget = .unlimited) -> any FilesService {
        let cleanup = passAfterUpload ? cleanup : nil
        return StoredFilesService(
            store: store, shared: shared, caller: caller, limits: limits, digest: { SHA256FileDigest() }, clock: clock, budget: budget,
            afterUpload: { try? await cleanup?.passIfDue() })
    }
}

/// Chat's attachments come from Files' store: the uploads of a message's sender for it, removed
/// with the message.
struct AttachmentSourceAdapter: AttachmentSource {
    let store: any FilesStore
    let cleanup: FileCleanup

    func uploads(for messageID: MessageID, in conversationID: ConversationID, by sender: UserID) async throws -> [Attachment] {
        try await store.files(of: messageID, in: conversationID).filter { $0.ownerID == sender }.map { file in
            Attachment(id: file.id, name: file.name, mediaType: file.mediaType, size: file.size, sha256: file.sha256)
        }
    }

    func discard(_ attachments: [Attachment]) async throws { try await cleanup.discard(attachments.map(\.id)) }
}

/// Files asks Chat's membership (the list's, cached) who is in a conversation, and Chat's store
/// what a message carries now: `message` reads one by its key.
struct SharedMessagesAdapter: SharedMessages {
    let membership: any ConversationMembership
    let message: @Sendable (MessageID, ConversationID) async throws -> Message?

    func members(of conversationID: ConversationID) async throws -> [UserID]? { try await membership.members(of: conversationID) }

    func carried(_ files: [SharedFile]) async throws -> Set<FileID> {
        var carried = Set<FileID>()
        for (key, shared) in Dictionary(grouping: files, by: { [$0.conversationID.rawValue, $0.messageID.rawValue] }) {
            guard let message = try await message(MessageID(key[1]), ConversationID(key[0])), !message.deleted,
                let sender = shared.first?.ownerID, message.senderID == sender
            else { continue }
            carried.formUnion(shared.map(\.id).filter { id in message.attachments.contains { $0.id == id } })
        }
        return carried
    }
}

/// Files' digest, SHA-256 (swift-crypto's), run over a file's bytes as they pass: what every
/// backend's files service and the mock data digest with.
public struct SHA256FileDigest: FileDigest {
    private var hash = SHA256()

    /// A digest of nothing yet.
    public init() {}

    public mutating func update(_ bytes: [UInt8]) { hash.update(data: bytes) }

    public func hex() -> String { Hex.string(Array(hash.finalize())) }
}
