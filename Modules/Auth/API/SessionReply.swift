import Auth
import Kernel

/// What sign-up and sign-in answer: the account and its new session token.
public struct SessionReply: WireType, Equatable {
    /// The signed-in account.
    public let account: Account
    /// The new session token (64 hex digits).
    public let token: String

    /// The reply for an issued session.
    public init(_ issued: IssuedSession) {
        account = issued.account
        token = issued.token
    }

    /// The issued session it carries.
    public var issued: IssuedSession { IssuedSession(account: account, token: token) }

    public static let schema = WireSchema.object([("account", Account.schema), ("token", .string(minLength: 64, maxLength: 64))],
                                                 required: ["account", "token"])
}
