import Kernel

/// Where a feature offers to start the REPL, and how strongly: the host starts on the offer of
/// highest rank among the enabled features, so any subset of features starts on a screen.
public struct REPLStart: Sendable {
    /// The screen to show.
    public let route: Route
    /// Higher wins: sign-in (when nobody is signed in) over the list, over a chat, over a profile.
    public let rank: Int

    /// Creates an offer.
    public init(_ route: Route, rank: Int) {
        self.route = route
        self.rank = rank
    }
}
