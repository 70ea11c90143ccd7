import Kernel

/// Profile's rules and errors, written once for every implementation.
public enum ProfileRules {
    /// A profile with `changes` applied: each field that is not `nil` checked and replaced.
    public static func edited(_ profile: Profile, displayName: String?, status: String?) throws -> Profile {
        var profile = profile
        if let displayName { profile.displayName = try Validation.displayName(displayName) }
        if let status { profile.status = try Validation.status(status) }
        return profile
    }

    /// How a user reference (a user id or an email) is looked up: trimmed, and the email lower-cased.
    public static func lookupKeys(_ idOrEmail: String) -> (id: UserID, email: String) {
        let key = idOrEmail.trimmingCharacters(in: .whitespaces)
        return (UserID(key), key.lowercased())
    }

    /// No user matches a reference.
    public static func noUser(_ reference: String) -> AppError { AppError(.notFound, "no user '\(reference)'") }
    /// The user already has a profile.
    public static func profileExists(_ profile: Profile) -> AppError {
        AppError(.conflict, "a profile for \(profile.email) already exists")
    }
    /// The caller's account has no profile (it was deleted): the session is of no use.
    public static let noOwnProfile = AppError.notSignedIn
}
