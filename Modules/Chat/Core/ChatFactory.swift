import Kernel

/// Makes Chat's view models; the container conforms, views ask for it.
@MainActor
public protocol ChatFactory {
    /// One conversation's screen.
    func makeChatViewModel(conversationID: ConversationID) -> ChatViewModel
    /// A live feed of one conversation, or of all the user's with `nil`; with `after`, starting
    /// with the messages stored after that cursor.
    func makeLiveFeedViewModel(conversationID: ConversationID?, after: EventCursor?) -> LiveFeedViewModel
}
