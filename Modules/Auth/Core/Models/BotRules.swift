import Foundation
import Kernel

/// Bots, their API tokens and their webhooks: the limits and checks written once for every store
/// and the server.
public enum BotRules {
    /// The start of every API token: tells it from a session token, and lets secret scanners find
    /// one pasted where it should not be.
    public static let tokenPrefix = "mai_"
    /// Bots one person keeps at most.
    public static let maxBotsPerOwner = 10
    /// Tokens and hooks one person keeps at most, over all their bots.
    public static let maxCredentialsPerOwner = 50
    /// How long a token lasts unless asked otherwise, and at most.
    public static let defaultLifetime: TimeInterval = 90 * 86_400, maxLifetime: TimeInterval = 365 * 86_400

    /// The bot a hook posts as when none is named, made for its owner the first time.
    public static let hookBot = "Webhooks"

    /// A new API token: the prefix and 256 random bits.
    public static func newToken() -> String { tokenPrefix + SessionToken.generate() }

    /// Whether `token` is an API token rather than a person's session token.
    public static func isAPIToken(_ token: String) -> Bool { token.hasPrefix(tokenPrefix) }

    /// A bot's name, checked as a display name is.
    /// - Throws: `.invalidInput` as `Validation.displayName` does.
    public static func name(_ raw: String) throws -> String { try Validation.displayName(raw) }

    /// A token's lifetime in days, checked: 1 to 365.
    /// - Throws: `.invalidInput` outside it.
    public static func lifetime(days: Int?) throws -> TimeInterval {
        guard let days else { return defaultLifetime }
        guard (1...Int(maxLifetime / 86_400)).contains(days) else { throw AppError(.invalidInput, "a token lasts 1 to 365 days") }
        return TimeInterval(days) * 86_400
    }

    /// The scope `words` say: `account` (alone), or `read:CONVERSATION` and `send:CONVERSATION`
    /// (several to a word, split at commas), each conversation by its id. Every ability named
    /// must be named for the same conversations.
    /// - Throws: `.invalidInput` for anything else.
    public static func scope(_ words: [String]) throws -> BotScope {
        guard let named = try named(words) else { return .account }
        return try scope(granting: named.map { ($0.ability, ConversationID($0.chat)) })
    }

    /// The scope `words` say, as `scope(_:)` reads them, each conversation named as a person
    /// names it (`conversation` finds it: a title, a person's name, an id).
    /// - Throws: `.invalidInput` as `scope(_:)` does; what `conversation` throws.
    public nonisolated(nonsending) static func scope(
        _ words: [String], naming conversation: (String) async throws -> ConversationID
    ) async throws -> BotScope {
        guard let named = try named(words) else { return .account }
        var granted: [(BotScope.Ability, ConversationID)] = []
        for (ability, chat) in named { granted.append((ability, try await conversation(chat))) }
        return try scope(granting: granted)
    }

    /// Each ability `words` name with the conversation it names (as written); `nil` for the
    /// whole account.
    private static func named(_ words: [String]) throws -> [(ability: BotScope.Ability, chat: String)]? {
        let words = words.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
        if words == ["account"] { return nil }
        guard !words.isEmpty else { throw noScope }
        return try words.map { word in
            let parts = word.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let ability = BotScope.Ability(rawValue: parts[0]), !parts[1].isEmpty, parts[1].count <= 64 else {
                throw AppError(.invalidInput, "a scope is account, or read:CHAT and send:CHAT (\(AppError.quoting(word)) is neither)")
            }
            return (ability, parts[1])
        }
    }

    /// The scope that grants each ability in its conversations, checked.
    private static func scope(granting granted: [(BotScope.Ability, ConversationID)]) throws -> BotScope {
        let byAbility = Dictionary(grouping: granted, by: \.0).mapValues { Set($0.map(\.1)) }
        guard let conversations = byAbility.values.first, byAbility.values.allSatisfy({ $0 == conversations }) else { throw noScope }
        return try checked(BotScope(abilities: Set(byAbility.keys), conversations: conversations))
    }

    /// `scope`, checked: it allows something, somewhere, in at most `maxScopeConversations`.
    /// - Throws: `.invalidInput` otherwise.
    public static func checked(_ scope: BotScope) throws -> BotScope {
        guard !scope.abilities.isEmpty, scope.conversations.map({ !$0.isEmpty }) ?? true else { throw noScope }
        guard (scope.conversations?.count ?? 0) <= maxScopeConversations else {
            throw AppError(.invalidInput, "a token names at most \(maxScopeConversations) conversations; give it the whole account instead")
        }
        return scope
    }

    /// Most conversations one token names.
    public static let maxScopeConversations = 100

    /// A scope that allows nothing.
    static let noScope = AppError(.invalidInput, "name a scope: --scope account, or --scope read:CHAT --scope send:CHAT (the same chats for each)")

    /// A bot of that name is kept by its owner already.
    public static func nameTaken(_ name: String) -> AppError { AppError(.conflict, "you have a bot named \(AppError.quoting(name)) already") }
    /// The caller keeps no such bot.
    public static func noBot(_ reference: String) -> AppError { AppError(.notFound, "you have no bot \(AppError.quoting(reference))") }
    /// The caller keeps no such token or hook.
    public static func noCredential(_ id: String) -> AppError { AppError(.notFound, "you have no token or hook \(AppError.quoting(id))") }
    /// Past `maxBotsPerOwner`.
    public static let tooManyBots = AppError(.conflict, "you keep \(maxBotsPerOwner) bots already: delete one first")
    /// Past `maxCredentialsPerOwner`.
    public static let tooManyCredentials = AppError(
        .conflict, "you keep \(maxCredentialsPerOwner) tokens and hooks already: revoke one first")
}

extension BotRules {
    /// Whether `id` and `secret` have the shape of a hook's (`h` and 15 characters of an
    /// identifier; 64 hexadecimal digits): anything else is refused before the store is asked.
    public static func mayBeHook(id: String, secret: String) -> Bool {
        id.utf8.count == 16 && id.hasPrefix("h") && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }
            && secret.utf8.count == 64 && secret.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Posts to unknown hooks (or with wrong secrets) one address may make at once, then one a
    /// second: what guessing a hook's URL costs.
    public static let hookGuessesAtOnce = 30

    /// An unknown hook, or a wrong secret: the same answer.
    public static let noHook = AppError(.notFound, "no such hook")
}
