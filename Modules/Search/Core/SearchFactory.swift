/// Makes Search's view models; the container conforms, views ask for it.
@MainActor
public protocol SearchFactory {
    /// A search of the signed-in user's messages.
    func makeSearchViewModel() -> SearchViewModel
    /// The signed-in user's mentions.
    func makeMentionsViewModel() -> MentionsViewModel
}
