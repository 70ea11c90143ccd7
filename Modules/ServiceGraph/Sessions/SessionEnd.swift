import AuthLive
import Kernel

/// Sessions just ended, through this process or (on a shared PostgreSQL database) any other, so
/// that what holds them open (a server's events sockets) can let go at once instead of finding
/// out on its next check.
public enum SessionEnd: Sendable, Equatable {
    /// The session of this token was revoked (signed out).
    case token(String)
    /// Every session of the user but the one of `kept` (a password change).
    case othersOf(UserID, kept: String)
    /// The session whose token has this digest ended in the shared store.
    case digest(String)
    /// A bot's token or hook was revoked, or a bot's owner lost their standing: every bot's
    /// socket checks its token again (which one it was, the cache does not know).
    case botTokens

    /// Whether a session of `user` with `token` is among those ended.
    public func ends(token: String?, of user: UserID) -> Bool {
        switch self {
        case .token(let ended): token == ended
        case .othersOf(let owner, let kept): user == owner && token != kept
        case .digest(let digest): token.map { SHA256TokenDigest().digest($0) } == digest
        case .botTokens: false
        }
    }
}
