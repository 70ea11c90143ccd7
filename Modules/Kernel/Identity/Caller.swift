/// The user a set of services acts for.
///
/// Services never look a session up themselves: the service graph (on a client) or the server's
/// edge builds them for a caller, and `id()` answers who that is. A caller made from a session
/// token re-checks the token when its short cache runs out, so a session revoked elsewhere stops
/// working within seconds; a caller made from an already verified id answers at once.
public struct Caller: Sendable {
    private let resolve: nonisolated(nonsending) @Sendable () async throws -> UserID
    /// The session token the caller was made from, if any: what a remote service forwards to the
    /// server, which verifies it itself.
    public let token: String?

    /// A caller whose identity `resolve` establishes (and may refuse with `.notSignedIn`).
    public init(token: String? = nil, resolve: nonisolated(nonsending) @escaping @Sendable () async throws -> UserID) {
        self.token = token
        self.resolve = resolve
    }

    /// A caller whose id was verified where the request entered.
    public static func verified(_ id: UserID) -> Caller { Caller { id } }

    /// Nobody is signed in: every call is refused with `.notSignedIn`.
    public static let signedOut = Caller { throw AppError.notSignedIn }

    /// The caller's user id. Runs on the caller's executor (`nonisolated(nonsending)`, as the
    /// rest of a send's path): an answer from the cache costs no hop between threads.
    /// - Throws: `.notSignedIn` when the session behind the caller is missing, revoked or expired.
    public nonisolated(nonsending) func id() async throws -> UserID { try await resolve() }
}
