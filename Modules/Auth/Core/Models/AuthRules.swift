import Foundation
import Kernel

/// Auth's rules and errors, written once for every implementation of `AccountService`.
public enum AuthRules {
    /// How long a session may go unused before it ends, unless configured otherwise.
    public static let defaultIdleLimit: TimeInterval = 30 * 86_400

    /// A sign-up's input, checked and normalised.
    public static func signUp(email: String, displayName: String, password: String) throws -> (email: String, displayName: String) {
        let email = try Validation.email(email)
        let name = try Validation.displayName(displayName)
        try Validation.password(password)
        return (email, name)
    }

    /// The email as accounts are keyed, or the raw text when it is not an email (then no account
    /// matches and the sign-in fails like a wrong password).
    public static func signInKey(_ email: String) -> String { (try? Validation.email(email)) ?? email }

    /// The stored hash a sign-in checks `password` against: none (a check that only spends the
    /// time) when the password holds a NUL, where bcrypt would stop reading. A password longer
    /// than 72 bytes is still checked (as bcrypt does, on its first 72 bytes): new passwords
    /// cannot be that long, but accounts made before the rule may have one.
    public static func hashToCheck(_ password: String, stored: String?) -> String? {
        password.utf8.contains(0) ? nil : stored
    }

    /// True when a session last used at `lastUsed` has been idle for longer than `limit` at `now`.
    public static func hasExpired(lastUsed: Date, now: Date, limit: TimeInterval) -> Bool {
        now.timeIntervalSince(lastUsed) > limit
    }

    /// A session's last use is written at most this often, so that resolving a token is a read.
    public static let lastUseGranularity: TimeInterval = 60

    /// A sign-in to a suspended account, after its password was right: said plainly, as only its
    /// owner can get this far.
    public static let suspended = AppError(.forbidden, "this account is suspended; ask the server's operator")

    /// The email is taken.
    public static func emailTaken(_ email: String) -> AppError { AppError(.conflict, "an account with email \(email) already exists") }
    /// Sign-in failed; which of the two was wrong is not told.
    public static let wrongCredentials = AppError(.invalidCredentials, "wrong email or password")
    /// The password given to delete an account is wrong.
    public static let wrongPassword = AppError(.invalidCredentials, "the password is wrong")
    /// The current password given to a password change is wrong.
    public static let wrongCurrentPassword = AppError(.invalidCredentials, "the current password is wrong")
}
