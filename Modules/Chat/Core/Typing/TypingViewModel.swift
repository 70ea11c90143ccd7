import Kernel
import Observation

/// Who else is typing in one conversation, and telling them when the user is: from the line
/// being edited (throttled), or said outright by a script.
@MainActor
@Observable
public final class TypingViewModel {
    /// The other members typing now, in the order they started.
    public private(set) var typists: [UserID] = []

    /// The conversation followed.
    public let conversationID: ConversationID
    private let service: any TypingService
    @ObservationIgnored private var notices: AsyncStream<TypingNotice>?
    /// Which of the user's own notices go out: one every `ChatRules.typingRefresh` at most.
    @ObservationIgnored private var sent = TypingNotice.Throttle<ConversationID>(minimumGap: ChatRules.typingRefresh)
    /// The last notice being sent.
    @ObservationIgnored private var sending: Task<Void, Never>?

    /// Creates the view model for one conversation.
    public init(service: any TypingService, conversationID: ConversationID) {
        self.service = service
        self.conversationID = conversationID
    }

    /// Subscribes to who types. Typing is a nicety: a backend that cannot carry it leaves the
    /// screen without it. Call `listen()` next.
    public func start() async {
        notices = try? await service.typingNotices()
    }

    /// Follows who types until the calling task is cancelled or the notices end (the screen left,
    /// the connection went); then nobody shows as typing. Does nothing before `start()`.
    public func listen() async {
        guard let notices else { return }
        self.notices = nil
        for await notice in notices { follow(notice) }
        follow(nil)
    }

    /// Tells the other members whether the user is typing, from the line being edited: while
    /// it holds text that is not a command they see it (refreshed every `ChatRules.typingRefresh`
    /// as keys come), and once it is empty (as when it was sent) they see it stop.
    public func lineChanged(_ line: String) {
        set(!line.isEmpty && !line.hasPrefix("/"))
    }

    /// Says whether the user is typing and waits until it has gone: for a script
    /// (`messageai typing`), which calls it every `ChatRules.typingRefresh` while it types.
    /// - Throws: the service's refusal (`.forbidden` for a non-member).
    public func sayTyping(_ typing: Bool) async throws {
        try await service.setTyping(typing, in: conversationID)
    }

    private func set(_ typing: Bool) {
        guard sent.admit(typing: typing, for: conversationID) else { return }
        // One after another, so that a stop never overtakes its start. A notice lost is
        // replaced by the next, or lapses: nothing to report.
        let previous = sending
        sending = Task { [service, conversationID] in
            await previous?.value
            try? await service.setTyping(typing, in: conversationID)
        }
    }

    private func follow(_ notice: TypingNotice?) {
        typists = TypingNotice.typists(typists, after: notice, in: conversationID)
    }
}
