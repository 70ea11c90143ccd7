/// Hashes and checks passwords. The live implementation is bcrypt (`BcryptPasswordHasher` in
/// `AuthLive`); unit tests use a cheap stand-in.
public protocol PasswordHasher: Sendable {
    /// A salted hash of `password`, safe to store.
    /// - Throws: `AppError(.unavailable)` when too many checks are already waiting.
    func hash(_ password: String) async throws -> String
    /// True when `password` matches `hash`. With no hash (no such account) it takes as long as
    /// a real check and answers false, so that a sign-in does not tell which emails exist.
    /// - Throws: `AppError(.unavailable)` when too many checks are already waiting.
    func verify(_ password: String, against hash: String?) async throws -> Bool
}
