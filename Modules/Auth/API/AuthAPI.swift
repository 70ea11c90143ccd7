import Auth
import Kernel

/// Auth's wire contract: sign-up and sign-in hand out a session token; every other call of the
/// API carries it as `Authorization: Bearer <token>`.
/// The bodies its endpoints carry, and the wire schemas of its models, follow it in this file.
public enum AuthAPI {
    /// Creates an account and its profile, and signs it in.
    public static let signUp = Endpoint<SignUpRequest, SessionReply, PathParameters.None>(
        .post, "/v1/auth/signup", "Create an account and its profile; returns a session token", needsSession: false, successStatus: 201)
    /// Signs in with email and password.
    public static let signIn = Endpoint<SignInRequest, SessionReply, PathParameters.None>(
        .post, "/v1/auth/signin", "Sign in with email and password; returns a session token (rate-limited)", needsSession: false)
    /// The account of the token; using it restarts the session's idle time.
    public static let session = Endpoint<NoContent, Account, PathParameters.None>(
        .get, "/v1/auth/session", "The account the session token belongs to")
    /// Ends the session of the token (401 when it has already ended).
    public static let signOut = Endpoint<NoContent, NoContent, PathParameters.None>(
        .delete, "/v1/auth/session", "End this session", successStatus: 204)
    /// Changes the password; every other session of the user ends.
    public static let changePassword = Endpoint<PasswordChange, NoContent, PathParameters.None>(
        .post, "/v1/auth/password", "Change the password; ends every other session of the user", successStatus: 204)
    /// Redeems a password reset code; every session of the account ends and a new one is issued.
    public static let resetPassword = Endpoint<PasswordReset, SessionReply, PathParameters.None>(
        .post, "/v1/auth/password/reset",
        "Set a new password with a reset code an operator issued; ends every session of the account and returns a new one (rate-limited)",
        needsSession: false)

    /// Deletes the token's account after checking its password.
    public static let deleteAccount = Endpoint<AccountDeletionRequest, NoContent, PathParameters.None>(
        .post, "/v1/auth/account/delete",
        "Delete this account: its messages are deleted for everyone, its profile becomes \"Deleted user\", every session ends, its email is free (rate-limited as sign-in)",
        successStatus: 204)

    /// Every Auth endpoint.
    public static let endpoints = [
        signUp.spec, signIn.spec, session.spec, signOut.spec,
        changePassword.spec, resetPassword.spec, deleteAccount.spec,
    ]
}

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

    public static let schema = WireSchema.object(
        [("account", Account.schema), ("token", .string(minLength: 64, maxLength: 64))],
        required: ["account", "token"])
}

/// The body of a sign-up.
public struct SignUpRequest: WireType, Equatable {
    /// The new account's email.
    public let email: String
    /// The name others see.
    public let displayName: String
    /// The password (8 characters to 72 bytes).
    public let password: String
    /// The invitation code a server that admits by invitation asks for; left out elsewhere.
    public let invite: String?

    /// Creates the body.
    public init(email: String, displayName: String, password: String, invite: String? = nil) {
        self.email = email
        self.displayName = displayName
        self.password = password
        self.invite = invite
    }

    public static let schema = WireSchema.object(
        [
            ("email", .string(minLength: 3, maxLength: Validation.maxEmailBytes, format: "email")),
            ("displayName", .string(minLength: 1, maxLength: Validation.maxDisplayNameLength)),
            ("password", .string(minLength: Validation.minPasswordLength, maxLength: Validation.maxPasswordBytes)),
            ("invite", .string(minLength: 1, maxLength: 64)),
        ], required: ["email", "displayName", "password"])
}

/// The body of a sign-in.
public struct SignInRequest: WireType, Equatable {
    /// The account's email.
    public let email: String
    /// Its password.
    public let password: String

    /// Creates the body.
    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }

    public static let schema = WireSchema.object(
        [
            ("email", .string(maxLength: Validation.maxEmailBytes)), ("password", .string(maxLength: 1_024)),
        ], required: ["email", "password"])
}

/// The body of a password change.
public struct PasswordChange: WireType, Equatable {
    /// The password now in use.
    public let current: String
    /// The password to use from now on.
    public let new: String

    /// Creates the body.
    public init(current: String, new: String) {
        self.current = current
        self.new = new
    }

    public static let schema = WireSchema.object(
        [
            ("current", .string(maxLength: 1_024)), ("new", .string(minLength: Validation.minPasswordLength, maxLength: Validation.maxPasswordBytes)),
        ], required: ["current", "new"])
}

/// The body of an account's deletion: its password, checked again.
public struct AccountDeletionRequest: WireType, Equatable {
    /// The account's password.
    public let password: String

    /// Creates the body.
    public init(password: String) { self.password = password }

    public static let schema = WireSchema.object([("password", .string(maxLength: 1_024))], required: ["password"])
}

/// The body of a password reset.
public struct PasswordReset: WireType, Equatable {
    /// The code the operator gave.
    public let code: String
    /// The password to use from now on.
    public let new: String

    /// Creates the body.
    public init(code: String, new: String) {
        self.code = code
        self.new = new
    }

    public static let schema = WireSchema.object(
        [
            ("code", .string(minLength: 1, maxLength: 64)),
            ("new", .string(minLength: Validation.minPasswordLength, maxLength: Validation.maxPasswordBytes)),
        ],
        required: ["code", "new"])
}

extension Account: WireType {
    public static let schema = WireSchema.object(
        [("id", .identifier), ("email", .string(maxLength: Validation.maxEmailBytes))],
        required: ["id", "email"])
}
