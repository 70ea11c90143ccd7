import Foundation
import Kernel

/// An account a person keeps for a program: it posts and reads through API tokens and incoming
/// webhooks, never signs in, and shows as a bot wherever its name appears.
public struct Bot: Codable, Equatable, Sendable {
    /// The bot's user id: what conversations and messages name it by.
    public let id: UserID
    /// Its name, unique among its owner's bots.
    public let name: String
    /// The person who made it and answers for it.
    public let owner: UserID
    /// When it was made.
    public let createdAt: Date

    /// Creates the value.
    public init(id: UserID, name: String, owner: UserID, createdAt: Date) {
        self.id = id
        self.name = name
        self.owner = owner
        self.createdAt = createdAt
    }
}

/// An API token as its owner lists it: never the token, which is shown once and kept as a digest.
public struct BotToken: Codable, Equatable, Sendable {
    /// What names it, to revoke it.
    public let id: String
    /// The bot it acts as.
    public let bot: UserID
    /// What it allows.
    public let scope: BotScope
    /// When it was made.
    public let createdAt: Date
    /// When it stops working.
    public let expiresAt: Date

    /// Creates the value.
    public init(id: String, bot: UserID, scope: BotScope, createdAt: Date, expiresAt: Date) {
        self.id = id
        self.bot = bot
        self.scope = scope
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// An incoming webhook as its owner lists it: where it posts and as whom, never its secret.
public struct Hook: Codable, Equatable, Sendable {
    /// The first part of its URL, and what names it to delete it.
    public let id: String
    /// The conversation it posts into.
    public let conversationID: ConversationID
    /// The bot it posts as.
    public let bot: UserID
    /// When it was made.
    public let createdAt: Date

    /// Creates the value.
    public init(id: String, conversationID: ConversationID, bot: UserID, createdAt: Date) {
        self.id = id
        self.conversationID = conversationID
        self.bot = bot
        self.createdAt = createdAt
    }

    /// The path a tool posts to, with the secret shown once: `/v1/hooks/{id}/{secret}`.
    public func path(secret: String) -> String { "/v1/hooks/\(id)/\(secret)" }
}

/// A credential just made, with its secret: the only time anyone sees it.
public struct Issued<Credential: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
    /// The token or hook as it is listed.
    public let credential: Credential
    /// The token itself, or the hook's secret.
    public let secret: String

    /// Creates the value.
    public init(_ credential: Credential, secret: String) {
        self.credential = credential
        self.secret = secret
    }
}
