/// A destination a screen asks the front end to show. Features never open each other's screens
/// directly: they return a route, and the front end maps it to whichever feature serves it.
public enum Route: Hashable, Sendable {
    /// Sign in or sign up.
    case signIn
    /// The signed-in user's conversations.
    case conversations
    /// One conversation.
    case conversation(ConversationID)
    /// A profile: the signed-in user's (`nil`) or someone else's.
    case profile(UserID?)
    /// A screen of a feature, by its name: what `new-feature` gives a feature that the cases
    /// above do not describe. `argument`, in the feature's own words, says what the screen is
    /// asked to show (Search: the words of `/search WORDS`); `nil` for its home screen.
    case feature(String, argument: String? = nil)
}
