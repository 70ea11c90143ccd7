import Kernel
import Profile

/// Profile's wire contract.
public enum ProfileAPI {
    /// The caller's profile.
    public static let mine = Endpoint<NoContent, Profile, PathParameters.None>(.get, "/v1/profiles/me", "The signed-in user's profile")
    /// Edits the caller's display name and/or status.
    public static let edit = Endpoint<ProfileEdit, Profile, PathParameters.None>(.patch, "/v1/profiles/me", "Change the signed-in user's display name and/or status")
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
        public static let idOrEmail = QueryParameter("q", .string(minLength: 1, maxLength: Validation.maxEmailBytes), required: true,
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
