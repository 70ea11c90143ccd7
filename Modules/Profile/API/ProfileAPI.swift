import Kernel
import Profile

/// Profile's wire contract.
/// The bodies its endpoints carry, and the wire schemas of its models, follow it in this file.
public enum ProfileAPI {
    /// The caller's profile.
    public static let mine = Endpoint<NoContent, Profile, PathParameters.None>(.get, "/v1/profiles/me", "The signed-in user's profile")
    /// Edits the caller's display name and/or status.
    public static let edit = Endpoint<ProfileEdit, Profile, PathParameters.None>(
        .patch, "/v1/profiles/me", "Change the signed-in user's display name and/or status")
    /// Looks a user up by id or whole email.
    public static let lookup = Endpoint<NoContent, Profile, PathParameters.None>(
        .get, "/v1/profiles/lookup", "Look a user up by user id or whole email",
        query: [Query.idOrEmail])
    /// Users whose name or email starts with a prefix.
    public static let search = Endpoint<NoContent, ProfileList, PathParameters.None>(
        .get, "/v1/profiles/search", "Users whose display name or email starts with q, by name",
        query: [Query.prefix, Query.searchLimit])
    /// Display names of users.
    public static let names = Endpoint<NameQuery, DisplayNames, PathParameters.None>(.post, "/v1/profiles/names", "Display names of the given users")

    /// The query parameters Profile's endpoints read.
    public enum Query {
        /// A user id or a whole email, to look up.
        public static let idOrEmail = QueryParameter(
            "q", .string(minLength: 1, maxLength: Validation.maxEmailBytes), required: true,
            "a user id or an email")
        /// The start of the names or emails searched for.
        public static let prefix = QueryParameter("q", .string(minLength: 1, maxLength: Validation.maxSearchLength), required: true, "the prefix")
        /// Most results of a search.
        public static let searchLimit = QueryParameter("limit", .integer(1...ProfileRules.maxSearchResults), "most results (default 20)")
    }

    /// Results of a search when no limit is given.
    public static let defaultSearchLimit = 20

    /// Every Profile endpoint.
    public static let endpoints = [mine.spec, edit.spec, lookup.spec, search.spec, names.spec]
}

/// The body of a profile edit; a missing field is left as it is.
public struct ProfileEdit: WireType, Equatable {
    /// The new display name, or `nil` to keep it.
    public let displayName: String?
    /// The new status, or `nil` to keep it.
    public let status: String?

    /// Creates the body.
    public init(displayName: String?, status: String?) {
        self.displayName = displayName
        self.status = status
    }

    public static let schema = WireSchema.object(
        [
            ("displayName", .nullable(.string(minLength: 1, maxLength: Validation.maxDisplayNameLength))),
            ("status", .nullable(.string(maxLength: Validation.maxStatusLength))),
        ], required: [])
}

/// A list of profiles: search results.
public struct ProfileList: WireType, Equatable {
    /// The profiles found, by name.
    public let profiles: [Profile]

    /// Creates the list.
    public init(_ profiles: [Profile]) { self.profiles = profiles }

    public static let schema = WireSchema.object(
        [("profiles", .array(Profile.schema, maxItems: ProfileRules.maxSearchResults))],
        required: ["profiles"])
}

/// The users whose display names are asked for.
public struct NameQuery: WireType, Equatable {
    /// Most ids one request may ask for; the client splits longer lists.
    public static let maxIDs = 1_000

    /// The users asked about.
    public let ids: [UserID]

    /// Creates the body.
    public init(_ ids: [UserID]) { self.ids = ids }

    public static let schema = WireSchema.object([("ids", .array(.identifier, maxItems: maxIDs))], required: ["ids"])
}

/// Display names by user id; unknown ids are left out.
public struct DisplayNames: WireType, Equatable {
    /// Display names by user id.
    public let names: [String: String]

    /// Creates the reply.
    public init(_ names: [UserID: String]) {
        self.names = Dictionary(uniqueKeysWithValues: names.map { ($0.key.rawValue, $0.value) })
    }

    /// The names by typed id.
    public var byUser: [UserID: String] { Dictionary(uniqueKeysWithValues: names.map { (UserID($0.key), $0.value) }) }

    public static let schema = WireSchema.object([("names", .map(.string(maxLength: Validation.maxDisplayNameLength)))], required: ["names"])
}

extension Profile: WireType {
    public static let schema = WireSchema.object(
        [
            ("id", .identifier), ("email", .nullable(.string(maxLength: Validation.maxEmailBytes))),
            ("displayName", .string(maxLength: Validation.maxDisplayNameLength)), ("status", .string(maxLength: Validation.maxStatusLength)),
            ("kind", .enumeration([Profile.Kind.bot.rawValue])),
        ], required: ["id", "displayName", "status"])
}
