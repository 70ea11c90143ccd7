/// Who is signed in on this device: the user and the token the backend issued.
public struct Session: Codable, Equatable, Sendable {
    /// The signed-in user.
    public let userID: UserID
    /// The user's email, shown by `whoami`.
    public let email: String
    /// An opaque token the backend checks on each call.
    public let token: String

    /// Creates a session.
    public init(userID: UserID, email: String, token: String) {
        self.userID = userID
        self.email = email
        self.token = token
    }
}
