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

    /// How a user reference (a user id or an email) is looked up: trimmed, and the email as
    /// emails are stored (`Validation.emailKey`).
    public static func lookupKeys(_ idOrEmail: String) -> (id: UserID, email: String) {
        (UserID(idOrEmail.trimmingCharacters(in: .whitespaces)), Validation.emailKey(idOrEmail))
    }

    /// Most results one people search returns.
    public static let maxSearchResults = 50

    /// Checks how many results a search asks for.
    /// - Throws: `.invalidInput` outside 1–50.
    public static func checkSearchLimit(_ limit: Int) throws {
        guard (1...maxSearchResults).contains(limit) else {
            throw AppError(.invalidInput, "a search returns 1 to \(maxSearchResults) results, not \(limit)")
        }
    }

    /// True when a stored profile matches a search: its display name starts with `prefix`, or
    /// its email is exactly `prefix` (emails are never matched by their start, so that they
    /// cannot be guessed a letter at a time).
    public static func matches(_ profile: Profile, search prefix: String) -> Bool {
        profile.displayName.lowercased().hasPrefix(prefix) || profile.email == prefix
    }

    /// What `viewer` sees of `profile`: all of it when it is theirs, else the email only when
    /// `query` (a look-up or search) is exactly that email.
    public static func seen(_ profile: Profile, by viewer: UserID, asking query: String?) -> Profile {
        guard profile.id != viewer, profile.email != query.map(Validation.emailKey) else { return profile }
        var shown = profile
        shown.email = nil
        return shown
    }

    /// No user matches a reference.
    /// A display name as others see it: marked while its account is suspended, so that nobody
    /// takes a suspended person's silence for anything else. Stores keep the name as chosen.
    /// A bot's name is marked too, whoever reads it: nobody takes a program for a person. `email`
    /// is the profile's stored key, which says whether it is a bot's (`botKey`).
    public static func shownName(_ name: String, suspended: Bool, email: String?) -> String {
        name + NameMark.suffix([isBotKey(email) ? .bot : nil, suspended ? .suspended : nil].compactMap { $0 })
    }

    /// A stored profile as others see it: its name marked (`shownName`), and its kind.
    public static func shown(_ profile: Profile, suspended: Bool) -> Profile {
        var shown = profile
        shown.displayName = shownName(profile.displayName, suspended: suspended, email: profile.email)
        if isBotKey(profile.email) { shown.kind = .bot }
        return shown
    }

    /// The profile of a new bot: its name, and a key no email can be, which marks it a bot.
    public static func bot(_ id: UserID, named name: String) -> Profile { Profile(id: id, email: botKeyPrefix + id.rawValue, displayName: name) }

    private static let botKeyPrefix = "bot:"

    /// Whether `email` is a bot's key: the prefix and no `@`, which every email has (a person
    /// signed up as `bot:x@example.com` is no bot).
    private static func isBotKey(_ email: String?) -> Bool { email.map { $0.hasPrefix(botKeyPrefix) && !$0.contains("@") } ?? false }

    /// The profile of a deleted account: what others see where its name stood. Its email is
    /// freed (the store's email is unique): a key no email can be, so no look-up finds it.
    public static func erased(_ id: UserID) -> Profile { Profile(id: id, email: "deleted:\(id)", displayName: "Deleted user") }

    public static func noUser(_ reference: String) -> AppError { AppError(.notFound, "no user \(AppError.quoting(reference))") }
    /// The user already has a profile.
    public static func profileExists(_ profile: Profile) -> AppError {
        AppError(.conflict, "a profile for \(profile.email ?? profile.id.rawValue) already exists")
    }
    /// The caller's account has no profile (it was deleted): the session is of no use.
    public static let noOwnProfile = AppError.notSignedIn
}
