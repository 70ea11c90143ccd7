import Kernel

/// Who is signed in on this device: the user and the token the backend issued.
public struct Session: Codable, Equatable, Sendable {
    /// The signed-in user.
    public let userID: UserID
    /// The user's email, shown by `whoami`.
    public let email: String
    /// The opaque token the account service issued; only its digest is stored there.
    public let token: String

    /// Creates a session.
    public init(userID: UserID, email: String, token: String) {
        self.userID = userID
        self.email = email
        self.token = token
    }

    /// The session a sign-in or sign-up issued.
    public init(_ issued: IssuedSession) {
        self.init(userID: issued.account.id, email: issued.account.email, token: issued.token)
    }
}

/// New session tokens: 256 bits from the system's cryptographically secure generator
/// (`getrandom` on Linux), as 64 hexadecimal characters.
public enum SessionToken {
    /// A new random token.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}

/// What a sign-up or sign-in hands back: the account and a new session token for it.
public struct IssuedSession: Equatable, Sendable {
    /// The signed-in account.
    public let account: Account
    /// The session's bearer token. The account service keeps only its digest.
    public let token: String

    /// Creates the value.
    public init(account: Account, token: String) {
        self.account = account
        self.token = token
    }
}
