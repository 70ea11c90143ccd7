import Foundation
import Kernel

/// Files' service for one caller, written once for every store (`FilesStore`): who may upload and
/// read (`FilesRules`), what is checked as the bytes pass (`UploadMeter`), what is spent from the
/// caller's budget, and that a refused or broken upload leaves nothing behind.
public struct StoredFilesService: FilesService {
    private let store: any FilesStore
    private let shared: any SharedMessages
    private let caller: Caller
    private let limits: FileLimits
    private let digest: @Sendable () -> any FileDigest
    private let clock: any WallClock
    private let budget: UsageBudget
    private let afterUpload: @Sendable () async -> Void

    /// Creates the service for `caller` over `store`, asking `shared` who is in a conversation
    /// and what its messages carry; uploads are held to `limits`, digested with `digest`'s and
    /// paid for from `budget` (their bytes), reads from its look-ups. `afterUpload` runs after
    /// each upload stored (a local process's clean-up pass).
    public init(
        store: any FilesStore, shared: any SharedMessages, caller: Caller, limits: FileLimits, digest: @escaping @Sendable () -> any FileDigest,
        clock: any WallClock = SystemWallClock(), budget: UsageBudget = .unlimited, afterUpload: @escaping @Sendable () async -> Void = {}
    ) {
        self.afterUpload = afterUpload
        self.store = store
        self.shared = shared
        self.caller = caller
        self.limits = limits
        self.digest = digest
        self.clock = clock
        self.budget = budget
    }

    public func upload(_ upload: FileUpload, bytes: FileBytes) async throws -> SharedFile {
        let me = try await caller.id()
        guard try await shared.members(of: upload.conversationID)?.contains(me) == true else {
            throw AppError(.forbidden, "not a member of conversation \(AppError.quoting(upload.conversationID.rawValue))")
        }
        guard (0..<Validation.maxFilesPerMessage).contains(upload.position) else {
            throw AppError(.invalidInput, "a message carries at most \(Validation.maxFilesPerMessage) files")
        }
        if let stored = try await uploaded(upload, by: me) {
            return try Self.retried(stored, declared: upload.declaredSize)
        }
        let kept = try await store.storedBytes(of: me)
        try FilesRules.allow(upload.declaredSize ?? 0, stored: kept, limits: limits)
        let meter = UploadMeter(digest: digest()) { [limits, budget] size, chunk in
            if let declared = upload.declaredSize, size > declared { throw Self.notAsDeclared(declared) }
            try FilesRules.allow(size, stored: kept, limits: limits)
            try budget.spend(.uploadBytes, by: me, cost: chunk)
        }
        let id = FileID.random()
        do {
            try await store.write(id, bytes: meter.bytes(bytes))
            let (size, sha256) = await meter.result()
            if let declared = upload.declaredSize, size != declared { throw Self.notAsDeclared(declared) }
            let file = SharedFile(
                id: id, conversationID: upload.conversationID, messageID: upload.messageID, position: upload.position, ownerID: me,
                name: FilesRules.name(upload.name), mediaType: FilesRules.mediaType(upload.mediaType, name: FilesRules.name(upload.name)),
                size: size, sha256: sha256,
                createdAt: WireFormat.date(milliseconds: WireFormat.milliseconds(clock.now())))
            try await store.insert(file)
            await afterUpload()
            return file
        } catch {
            try? await store.delete([id])
            // Two tries of one upload at once: the one stored first is the file.
            if let stored = try? await uploaded(upload, by: me) {
                return try Self.retried(stored, declared: upload.declaredSize)
            }
            throw error
        }
    }

    public func file(_ id: FileID) async throws -> SharedFile {
        let me = try await caller.id()
        try budget.spend(.lookup, by: me)
        guard let file = try await store.file(id) else { throw FilesRules.noFile(id) }
        let members = try await shared.members(of: file.conversationID)
        let carried = file.ownerID == me ? false : try await shared.carried([file]).contains(id)
        guard FilesRules.readable(file, by: me, members: members, carried: carried) else { throw FilesRules.noFile(id) }
        return file
    }

    public func download(_ id: FileID, range: ByteRange?) async throws -> FileDownload {
        let file = try await file(id)
        let range = try FilesRules.range(range, of: file.size)
        return FileDownload(file: file, range: range, bytes: store.bytes(of: id, in: range))
    }

    public func files(of messageID: MessageID, in conversationID: ConversationID) async throws -> [SharedFile] {
        let me = try await caller.id()
        try budget.spend(.lookup, by: me)
        guard try await shared.members(of: conversationID)?.contains(me) == true else { throw AppError.noConversation(conversationID) }
        let files = try await store.files(of: messageID, in: conversationID)
        let carried = try await shared.carried(files)
        return files.filter { carried.contains($0.id) }
    }

    public func files(in conversationID: ConversationID, before: FileID?, limit: Int) async throws -> [SharedFile] {
        let me = try await caller.id()
        try budget.spend(.lookup, by: me)
        guard try await shared.members(of: conversationID)?.contains(me) == true else { throw AppError.noConversation(conversationID) }
        var after: SharedFile?
        if let before {
            guard let file = try await store.file(before), file.conversationID == conversationID else { throw FilesRules.noFile(before) }
            after = file
        }
        var page: [SharedFile] = []
        // Uploads whose message is not sent (or is deleted) are skipped: a few pages at most.
        while page.count < limit {
            let candidates = try await store.files(in: conversationID, before: after, limit: limit)
            let carried = try await shared.carried(candidates)
            page += candidates.filter { carried.contains($0.id) }.prefix(limit - page.count)
            guard candidates.count == limit, let last = candidates.last else { break }
            after = last
        }
        return page
    }

    /// The file `me` uploaded for the place `upload` names, if they did: what a retry gets.
    private func uploaded(_ upload: FileUpload, by me: UserID) async throws -> SharedFile? {
        try await store.files(of: upload.messageID, in: upload.conversationID).first { $0.ownerID == me && $0.position == upload.position }
    }

    /// The file stored the first time, for a retry that declares `declared` bytes.
    /// - Throws: `.conflict` when the retry declares another size: another file for the same place.
    private static func retried(_ stored: SharedFile, declared: Int64?) throws -> SharedFile {
        guard declared == nil || declared == stored.size else {
            throw AppError(.conflict, "this message already has another file at that place (\(stored.name))")
        }
        return stored
    }

    private static func notAsDeclared(_ declared: Int64) -> AppError {
        AppError(.invalidInput, "the file's bytes do not match its declared size of \(declared) bytes")
    }
}
