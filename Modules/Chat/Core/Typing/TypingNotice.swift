import Kernel

/// Someone typing in a conversation, or no longer typing. Never stored: it is not an event of
/// the stream, has no cursor and never appears in `tail` or history; it only travels between
/// the processes that are running (`TypingChannel`) to the screens of the conversation's other
/// members, which show it beside the prompt ("Grace is typing…").
public struct TypingNotice: Sendable, Hashable, Codable {
    /// Where they type.
    public let conversationID: ConversationID
    /// Who types.
    public let userID: UserID
    /// True while they type; false once they sent, cleared the line, or went quiet for
    /// `ChatRules.typingExpiry` (as a typist whose process died does).
    public let typing: Bool

    /// The notice that `userID` is (or, with `typing` false, is no longer) typing in `conversationID`.
    public init(conversationID: ConversationID, userID: UserID, typing: Bool) {
        self.conversationID = conversationID
        self.userID = userID
        self.typing = typing
    }

    /// The notice of ids that came from outside (another process, a file name, a payload):
    /// `nil` unless both are identifiers (`Validation.identifier`).
    public init?(conversation: String, user: String, typing: Bool) {
        guard let conversationID: ConversationID = try? Validation.identifier(conversation, field: "conversation"),
            let userID: UserID = try? Validation.identifier(user, field: "user")
        else { return nil }
        self.init(conversationID: conversationID, userID: userID, typing: typing)
    }

    /// One typist in one conversation.
    public struct Key: Sendable, Hashable {
        public let conversationID: ConversationID
        public let userID: UserID
    }

    /// Where it is about.
    public var key: Key { Key(conversationID: conversationID, userID: userID) }

    /// Who types in `conversationID`, in the order they started, after `notice` (`nil`: the
    /// notices stopped coming, so nobody shows as typing) where `typists` did before.
    public static func typists(_ typists: [UserID], after notice: TypingNotice?, in conversationID: ConversationID) -> [UserID] {
        guard let notice else { return [] }
        guard notice.conversationID == conversationID else { return typists }
        if !notice.typing { return typists.filter { $0 != notice.userID } }
        return typists.contains(notice.userID) ? typists : typists + [notice.userID]
    }

    /// Which notices of one sender, or of everyone's on one process, go out: for each key (a
    /// conversation, or a typist in one), a `typing` at most once per `minimumGap`, and a stop only
    /// after a `typing`. A screen refreshes every `ChatRules.typingRefresh` while keys come; each
    /// process's `TypingHub` lets through at most one every `ChatRules.typingGap`, whatever a client sends.
    public struct Throttle<Key: Hashable & Sendable>: Sendable {
        private let minimumGap: Duration
        /// For each key: whether the last notice let through said typing, and when the last `typing` went.
        private var sent: [Key: (typing: Bool, started: ContinuousClock.Instant)] = [:]

        /// A throttle that lets a `typing` through at most once per `minimumGap` for each key.
        public init(minimumGap: Duration) { self.minimumGap = minimumGap }

        /// Whether a notice that `typing` (or stopped) under `key` goes out at `now`; when it
        /// does, it is remembered as the last.
        public mutating func admit(typing: Bool, for key: Key, at now: ContinuousClock.Instant = .now) -> Bool {
            let last = sent[key]
            if typing {
                if let last, now - last.started < minimumGap { return false }
                sent[key] = (true, now)
            } else {
                guard let last, last.typing else { return false }
                sent[key] = (false, last.started)
            }
            if sent.count > 1_024 { sent = sent.filter { now - $0.value.started < ChatRules.typingExpiry } }
            return true
        }
    }
}
