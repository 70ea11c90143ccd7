import Kernel

/// What others see of a user.
public struct Profile: Codable, Equatable, Sendable {
    /// The user.
    public let id: UserID
    /// The user's email (lower case). Others see it only when they looked the user up by
    /// exactly this email (`ProfileRules.seen`), so the directory cannot be harvested.
    public var email: String?
    /// The name shown in conversations, 1–64 characters.
    public var displayName: String
    /// A short status line, at most 140 characters; empty when unset.
    public var status: String
    /// `bot` for a bot's profile (`ProfileRules.botKey`); `nil` for a person's.
    public var kind: Kind?

    /// What a profile belongs to, beside a person.
    public enum Kind: String, Codable, Sendable {
        /// A bot a person keeps for a program (Auth's `Bot`).
        case bot
    }

    /// Creates a profile value.
    public init(id: UserID, email: String?, displayName: String, status: String = "") {
        self.id = id
        self.email = email
        self.displayName = displayName
        self.status = status
    }
}
