/// Turns a session token into what the account store keeps of it, so that a copy of the store
/// holds no usable token. The live implementation is SHA-256 (`SHA256TokenDigest` in `AuthLive`).
public protocol TokenDigest: Sendable {
    /// A one-way digest of `token`, as text.
    func digest(_ token: String) -> String
}
