/// Makes ConversationList's view models; the container conforms, views ask for it.
@MainActor
public protocol ConversationListFactory {
    /// The conversation list screen.
    func makeConversationListViewModel() -> ConversationListViewModel
}
