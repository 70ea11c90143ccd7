/// What a caller may do. A person's session may do everything their account may; a bot's API
/// token only reads and sends, in the conversations its scope names (or every one the bot is in),
/// and only where the person who owns the bot is a member too (Chat checks that).
public enum Grant: Sendable, Hashable {
    /// A person's session: everything the account may do.
    case person
    /// A bot's token: what `scope` allows, for the bot `owner` keeps.
    case bot(owner: UserID, scope: BotScope)

    /// Whether the grant allows `ability` in `conversationID`.
    public func allows(_ ability: BotScope.Ability, in conversationID: ConversationID) -> Bool {
        switch self {
        case .person: true
        case .bot(_, let scope): scope.allows(ability, in: conversationID)
        }
    }

    /// The one conversation a bot's grant names, where it names exactly one (a hook's).
    public var soleConversation: ConversationID? {
        guard case .bot(_, let scope) = self, let conversations = scope.conversations, conversations.count == 1 else { return nil }
        return conversations.first
    }

    /// The person a bot acts for; `nil` for a person's own session.
    public var owner: UserID? {
        if case .bot(let owner, _) = self { owner } else { nil }
    }
}

/// What one API token of a bot allows: reading, sending or both, in the conversations it names or
/// (`conversations` nil) in every conversation the bot is a member of: its whole account.
public struct BotScope: Sendable, Hashable, Codable {
    /// Something a token may do in a conversation.
    public enum Ability: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
        /// History, catch-up and live events.
        case read
        /// Sending, and editing, deleting and reacting to its own messages.
        case send

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What the token may do.
    public let abilities: Set<Ability>
    /// Where; `nil`: every conversation of the bot.
    public let conversations: Set<ConversationID>?

    /// A scope of `abilities` in `conversations` (`nil`: all of the bot's).
    public init(abilities: Set<Ability>, conversations: Set<ConversationID>?) {
        self.abilities = abilities
        self.conversations = conversations
    }

    /// The whole account: read and send in every conversation the bot is in.
    public static let account = BotScope(abilities: Set(Ability.allCases), conversations: nil)

    /// Whether the scope allows `ability` in `conversationID`.
    public func allows(_ ability: Ability, in conversationID: ConversationID) -> Bool {
        abilities.contains(ability) && (conversations?.contains(conversationID) ?? true)
    }

    /// The scope as `--scope` words say it: `account`, or `read:ID,send:ID…`.
    public var description: String {
        guard let conversations else {
            return abilities.count == Ability.allCases.count ? "account" : abilities.sorted().map(\.rawValue).joined(separator: ",")
        }
        return abilities.sorted().flatMap { ability in conversations.sorted().map { "\(ability.rawValue):\($0)" } }.joined(separator: ",")
    }
}
