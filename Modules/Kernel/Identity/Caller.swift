/// The user a set of services acts for.
///
/// Services never look a session up themselves: the service graph (on a client) or the server's
/// edge builds them for a caller, and `id()` answers who that is. A caller made from a session
/// token re-checks the token when its short cache runs out, so a session revoked elsewhere stops
/// working within seconds; a caller made from an already verified id answers at once.
public struct Caller: Sendable {
    private let resolve: nonisolated(nonsending) @Sendable () async throws -> (UserID, Grant)
    /// The session token the caller was made from, if any: what a remote service forwards to the
    /// server, which verifies it itself.
    public let token: String?

    /// A person whose identity `resolve` establishes (and may refuse with `.notSignedIn`).
    public init(token: String? = nil, resolve: nonisolated(nonsending) @escaping @Sendable () async throws -> UserID) {
        self.token = token
        self.resolve = { (try await resolve(), .person) }
    }

    private init(token: String?, resolving resolve: nonisolated(nonsending) @escaping @Sendable () async throws -> (UserID, Grant)) {
        self.token = token
        self.resolve = resolve
    }

    /// A caller whose identity and grant `resolve` establishes: a person's session or a bot's token.
    public static func granted(token: String?, _ resolve: nonisolated(nonsending) @escaping @Sendable () async throws -> (UserID, Grant)) -> Caller {
        Caller(token: token, resolving: resolve)
    }

    /// A caller whose id was verified where the request entered.
    public static func verified(_ id: UserID) -> Caller { Caller { id } }

    /// Nobody is signed in: every call is refused with `.notSignedIn`.
    public static let signedOut = Caller { throw AppError.notSignedIn }

    /// The caller's user id. Runs on the caller's executor (`nonisolated(nonsending)`, as the
    /// rest of a send's path): an answer from the cache costs no hop between threads.
    /// Only a person's session has one: a bot's token may do only what it was granted, asked
    /// for with `id(to:in:)`.
    /// - Throws: `.notSignedIn` when the session behind the caller is missing, revoked or expired;
    ///   `.forbidden` for a bot's token.
    public nonisolated(nonsending) func id() async throws -> UserID {
        let (id, grant) = try await resolve()
        guard case .person = grant else { throw Self.notForBots }
        return id
    }

    /// The caller's user id, for `ability` in `conversationID`, and the person the caller acts
    /// for when it is a bot (who must be a member there too).
    /// - Throws: `.notSignedIn` as `id()` does; `.forbidden` when the caller's token does not
    ///   allow `ability` there.
    public nonisolated(nonsending) func id(to ability: BotScope.Ability, in conversationID: ConversationID) async throws -> (
        id: UserID, owner: UserID?
    ) {
        let (id, grant) = try await resolve()
        guard grant.allows(ability, in: conversationID) else {
            throw AppError(.forbidden, "this token may not \(ability.rawValue) in conversation \(conversationID)")
        }
        return (id, grant.owner)
    }

    /// Who the caller is and what it may do, unchecked: for what every caller may ask (whether its
    /// session still stands, the names of people) and for lists a bot's scope narrows.
    /// - Throws: `.notSignedIn` as `id()` does.
    public nonisolated(nonsending) func principal() async throws -> (id: UserID, grant: Grant) { try await resolve() }

    /// What a bot's token is refused where only a person may act.
    public static let notForBots = AppError(.forbidden, "a bot's token only reads and sends in its conversations; a person does this")
}
