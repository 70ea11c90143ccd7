import Kernel

/// Sessions this process has just ended, so that what holds them open (a server's events
/// sockets) can let go at once instead of finding out on its next check.
public enum SessionEnd: Sendable, Equatable {
    /// The session of this token was revoked (signed out).
    case token(String)
    /// Every session of the user but the one of `kept` (a password change).
    case othersOf(UserID, kept: String)

    /// Whether a session of `user` with `token` is among those ended.
    public func ends(token: String?, of user: UserID) -> Bool {
        switch self {
        case .token(let ended): token == ended
        case .othersOf(let owner, let kept): user == owner && token != kept
        }
    }
}
