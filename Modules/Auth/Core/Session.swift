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
