import AppContainer
import CLIKit
import Chat
import ConversationList
import Files
import Foundation
import Kernel

/// Answers the front ends' references across features from the container's services: the
/// composition is the one place that knows both the list and the profiles.
@MainActor
struct ContainerLookup: FrontendLookup {
    let container: AppContainer

    func shareFile(at path: String, for messageID: MessageID, position: Int, in conversationID: ConversationID) async throws -> FileID {
        let (size, bytes) = try FileStreams.reading(path)
        let upload = FileUpload(
            conversationID: conversationID, messageID: messageID, position: position, name: URL(fileURLWithPath: path).lastPathComponent,
            declaredSize: size)
        return try await container.files.upload(upload, bytes: bytes).id
    }

    func saveFiles(of messageID: MessageID, in conversationID: ConversationID, to destination: String?, force: Bool) async throws -> [SavedFile] {
        try await FileSaver(service: container.files).save(messageID, in: conversationID, to: destination, force: force).map {
            SavedFile(name: $0.file.name, path: $0.path)
        }
    }

    func openFiles(of messageID: MessageID, in conversationID: ConversationID) async throws -> (files: [SavedFile], opened: Bool) {
        let environment = container.settings.loaded.environment
        let cache = container.settings.loaded.xdgDirectory("XDG_CACHE_HOME", fallback: ".cache")
        let saved = try await saveFiles(
            of: messageID, in: conversationID, to: try DesktopOpener.folder(for: messageID, in: conversationID, cache: cache), force: true)
        return (saved, saved.map { DesktopOpener.open($0.path, environment: environment) }.allSatisfy { $0 })
    }

    func fileBytes(_ id: FileID, atMost limit: Int) -> @Sendable () async throws -> [UInt8] {
        let files = container.files
        return {
            let download = try await files.download(id, range: nil)
            let tooLarge = AppError(.tooLarge, "\(TerminalText.line(download.file.name)) is over \(FileStreams.size(Int64(limit)))")
            guard download.file.size <= limit else { throw tooLarge }
            var bytes: [UInt8] = []
            for try await chunk in download.bytes {
                // The store's size is its word; the bytes are counted as well.
                guard bytes.count + chunk.count <= limit else { throw tooLarge }
                bytes += chunk
            }
            return bytes
        }
    }

    func currentUserID() async throws -> UserID? {
        try await container.auth.currentAccount()?.id
    }

    func conversationID(for reference: String) async throws -> ConversationID {
        let list = container.makeConversationListViewModel()
        await list.loadAll()
        if let error = list.list.error { throw error }
        return try list.resolve(reference).id
    }

    func mostRecentConversation() async throws -> ConversationID? {
        try await container.conversations.conversations(limit: 1, after: nil).conversations.first?.id
    }

    /// Among the 500 most recent conversations: new messages bring a conversation to the top,
    /// and the hotlist is looked up at every change, which must stay cheap with any list.
    func listedConversations() async throws -> [ListedConversation] {
        try await container.conversations.conversations(limit: ConversationRules.maxPage, after: nil).conversations.enumerated().map {
            offset, row in
            ListedConversation(
                number: offset + 1, id: row.id, title: row.title, unread: row.unreadCount, mentions: row.unreadMentions, quiet: row.isQuiet)
        }
    }

    func listChanges() async throws -> AsyncStream<Void> {
        try await container.conversations.changes()
    }

    func invitationCount() async throws -> Int {
        try await container.conversations.invitations().count
    }

    func typingConversations() async throws -> AsyncStream<Set<ConversationID>> {
        let notices = try await container.typing.typingNotices()
        let (conversations, continuation) = AsyncStream<Set<ConversationID>>.makeStream()
        let task = Task {
            var typing: Set<TypingNotice.Key> = []
            for await notice in notices {
                if notice.typing { typing.insert(notice.key) } else { typing.remove(notice.key) }
                continuation.yield(Set(typing.map(\.conversationID)))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return conversations
    }

    func queuedSends() async -> Int {
        (try? await container.outbox?.messages().count) ?? 0
    }

    func liveTrouble() async throws -> AsyncStream<String?> {
        try await container.events.liveTrouble()
    }

    func conversationTitle(_ id: ConversationID) async throws -> String? {
        try await conversation(id)?.title
    }

    func conversationMembers(_ id: ConversationID) async throws -> [UserID] {
        try await conversation(id)?.memberIDs ?? []
    }

    /// The row of one of the user's conversations, if it is theirs.
    private func conversation(_ id: ConversationID) async throws -> ConversationSummary? {
        try await container.conversations.conversations().first { $0.id == id }
    }

    func userID(for reference: String) async throws -> UserID {
        let profile = container.makeProfileViewModel(subject: reference)
        await profile.load()
        if let error = profile.profile.error { throw error }
        guard let id = profile.profile.value?.id else { throw AppError(.notFound, "no user \(AppError.quoting(reference))") }
        return id
    }

    func displayNames(of ids: [UserID]) async throws -> [UserID: String] {
        try await container.profiles.displayNames(of: ids)
    }

    func notices(open: @escaping @MainActor () -> ConversationID?) async throws -> AsyncStream<Notice> {
        guard let me = try await currentUserID() else { return AsyncStream { $0.finish() } }
        let messages = try await container.events.liveMessages(in: nil)
        let (notices, continuation) = AsyncStream<Notice>.makeStream()
        let task = Task { @MainActor in
            for await message in messages {
                if let notice = try? await notice(of: message, to: me, open: open()) { continuation.yield(notice) }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return notices
    }

    /// The notice `message` gives `reader`, if it gives one; the conversation and blocks are read
    /// only for a message that is not the reader's own.
    private func notice(of message: Message, to reader: UserID, open: ConversationID?) async throws -> Notice? {
        guard message.senderID != reader, message.conversationID != open, let row = try await conversation(message.conversationID) else {
            return nil
        }
        let apart = Set(try await container.conversations.blockedUsers())
        guard
            let reason = NotificationRules.reason(
                for: message, reader: reader, isDirect: !row.isGroup, level: row.notifications?.level ?? .standard(isDirect: !row.isGroup),
                open: open,
                apart: apart,
                now: Date())
        else { return nil }
        let sender = try await displayNames(of: [message.senderID])[message.senderID] ?? message.senderID.rawValue
        return Notice(
            reason: reason.rawValue, conversationID: message.conversationID, conversation: row.title, messageID: message.id,
            senderID: message.senderID, sender: sender, text: message.text, sentAt: message.sentAt)
    }
}
