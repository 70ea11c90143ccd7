/// Makes ConversationList's view models; the container conforms, views ask for it.
@MainActor
public protocol ConversationListFactory {
    /// The conversation list screen.
    func makeConversationListViewModel(pageSize: Int) -> ConversationListViewModel
    /// The invitations waiting for the user.
    func makeInvitationsViewModel() -> InvitationsViewModel
    /// Whom the user has blocked.
    func makeBlockListViewModel() -> BlockListViewModel
}

extension ConversationListFactory {
    /// The conversation list screen, a page of the usual size at a time.
    public func makeConversationListViewModel() -> ConversationListViewModel {
        makeConversationListViewModel(pageSize: ConversationRules.defaultPage)
    }
}
