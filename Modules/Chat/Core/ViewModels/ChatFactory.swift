import Kernel

/// Makes Chat's view models; the container conforms, views ask for it.
@MainActor
public protocol ChatFactory {
    /// One conversation's screen.
    func makeChatViewModel(conversationID: ConversationID) -> ChatViewModel
    /// Who is typing in one conversation, and telling them when the user is.
    func makeTypingViewModel(conversationID: ConversationID) -> TypingViewModel
    /// A live feed of one conversation's messages, or of all the user's with `nil` (every event
    /// with `changes`); with `after`, starting with those stored after that cursor.
    func makeLiveFeedViewModel(conversationID: ConversationID?, after: EventCursor?, changes: Bool) -> LiveFeedViewModel
    /// The user's read receipt setting.
    func makeReceiptPrivacyViewModel() -> ReceiptPrivacyViewModel
}
