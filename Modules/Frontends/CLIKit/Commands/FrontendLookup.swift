import Kernel

/// References that cross features, answered by the front end's composition (never by a feature
/// importing another): a conversation by id, title or person's name; a user by id or email; names.
@MainActor
public protocol FrontendLookup {
    /// The signed-in user, or `nil`.
    func currentUserID() async throws -> UserID?
    /// The conversation a person means: an id, a title or a person's name matching exactly one.
    /// - Throws: `.notFound`, or `.conflict` listing the candidates.
    func conversationID(for reference: String) async throws -> ConversationID
    /// The signed-in user's most recently active conversation, or `nil` when they have none.
    func mostRecentConversation() async throws -> ConversationID?
    /// The signed-in user's conversations, in list order (newest activity first).
    func listedConversations() async throws -> [ListedConversation]
    /// Ticks whenever the signed-in user's list may have changed (a message, a read marker, a
    /// new conversation).
    func listChanges() async throws -> AsyncStream<Void>
    /// How many invitations wait for the signed-in user's answer (`listChanges` ticks when that changes).
    func invitationCount() async throws -> Int
    /// The signed-in user's conversations where someone else is typing, each time that changes;
    /// ends when the typing notices do.
    func typingConversations() async throws -> AsyncStream<Set<ConversationID>>
    /// How many of the signed-in user's messages wait in this device's outbox for the server to
    /// be back (0 where there is no outbox).
    func queuedSends() async -> Int
    /// Why live updates fail now, each time that changes: a reason while they keep failing, then
    /// `nil` once they come again (a backend without a connection never fails).
    func liveTrouble() async throws -> AsyncStream<String?>
    /// A conversation's title as the signed-in user sees it, or `nil` when it is not theirs.
    func conversationTitle(_ id: ConversationID) async throws -> String?
    /// A conversation's members, or none when it is not the signed-in user's.
    func conversationMembers(_ id: ConversationID) async throws -> [UserID]
    /// The user a person means: a user id or an email address.
    func userID(for reference: String) async throws -> UserID
    /// Display names of users; unknown ids are left out.
    func displayNames(of ids: [UserID]) async throws -> [UserID: String]
    /// The messages that tell the signed-in user they arrived, live (Chat's `NotificationRules`),
    /// while `open` names the conversation they look at; ends when the live stream does.
    func notices(open: @escaping @MainActor () -> ConversationID?) async throws -> AsyncStream<Notice>
    /// Uploads the file at `path` (Files) as file `position` of message `messageID` of
    /// `conversationID`, streaming it, and returns its id for the send that carries it; a retry
    /// with the same message and position stores it once.
    /// - Throws: `.notFound` or `.invalidInput` for a path that is no readable regular file; the
    ///   upload's refusals (`.tooLarge`, `.forbidden`, `.rateLimited`).
    func shareFile(at path: String, for messageID: MessageID, position: Int, in conversationID: ConversationID) async throws -> FileID
    /// Saves the files message `messageID` of `conversationID` carries to `destination` (a folder,
    /// a path for one file, or the current folder without; Files' `FileSaver`) and returns each
    /// one's name and where it went.
    /// - Throws: `.notFound` for a message without files; `.conflict` for a file there without `force`.
    func saveFiles(of messageID: MessageID, in conversationID: ConversationID, to destination: String?, force: Bool) async throws -> [SavedFile]
    /// Saves the files of message `messageID` in this user's cache (`DesktopOpener.folder`) and
    /// hands each to the desktop's opener; returns them, and whether they were opened (false
    /// where there is no desktop).
    func openFiles(of messageID: MessageID, in conversationID: ConversationID) async throws -> (files: [SavedFile], opened: Bool)
    /// What loads the bytes of file `id` into memory, for a front end that draws it as a picture.
    /// - Throws: (the loader) `.notFound` for a file that is not the user's to read; `.tooLarge`
    ///   past `limit` bytes, before more is read.
    func fileBytes(_ id: FileID, atMost limit: Int) -> @Sendable () async throws -> [UInt8]
}

/// A file saved from a message: its name (the sender's, made safe) and where it is now.
public struct SavedFile: Equatable, Sendable {
    /// Its name.
    public let name: String
    /// Its path.
    public let path: String

    /// Creates the value.
    public init(name: String, path: String) {
        self.name = name
        self.path = path
    }

    /// "Saved NAME to PATH.", both filtered for the terminal (the name is the sender's).
    public var savedLine: String { "Saved \(TerminalText.line(name)) to \(TerminalText.line(path))." }

    /// What `open` and `/open` say of it: opened, or saved where no program opens files.
    public func openedLine(_ opened: Bool) -> String {
        (opened ? "Opened" : "No program to open files here (no desktop); saved") + " \(TerminalText.line(name)) at \(TerminalText.line(path))."
    }
}

extension FrontendLookup {
    /// The signed-in user's conversations with unread messages that are not quiet, or with an
    /// unread mention, in list order: the hotlist and `/next`.
    public func unreadConversations() async throws -> [ListedConversation] {
        try await listedConversations().filter(\.isHot)
    }

    /// The users several references mean, in order.
    public func userIDs(for references: [String]) async throws -> [UserID] {
        var ids: [UserID] = []
        for reference in references { ids.append(try await userID(for: reference)) }
        return ids
    }
}
