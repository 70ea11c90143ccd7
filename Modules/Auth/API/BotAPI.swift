import Auth
import Foundation
import Kernel

/// The bots API: a person's bots, their API tokens and incoming webhooks (`BotService`), and the
/// hooks' own endpoint, which tools such as Alertmanager and Grafana post to in the Slack
/// incoming-webhook format. Served by `BotRoutes`, called by `RemoteBotService`.
public enum BotAPI {
    /// The caller's bots.
    public static let bots = Endpoint<NoContent, BotList, PathParameters.None>(.get, "/v1/bots", "Your bots, by name")
    /// Makes a bot.
    public static let createBot = Endpoint<BotName, Bot, PathParameters.None>(
        .post, "/v1/bots", "Make a bot you keep: it posts through tokens and webhooks, and shows as a bot", successStatus: 201)
    /// Deletes a bot.
    public static let deleteBot = Endpoint<BotReference, NoContent, PathParameters.None>(
        .post, "/v1/bots/delete", "Delete a bot of yours with its tokens and hooks; what it posted stays", successStatus: 204)
    /// Brings a bot into a group.
    public static let addBot = Endpoint<BotPlacement, NoContent, PathParameters.None>(
        .post, "/v1/bots/add", "Bring a bot of yours into a group you are in", successStatus: 204)
    /// The caller's bots' tokens.
    public static let tokens = Endpoint<NoContent, TokenList, PathParameters.None>(
        .get, "/v1/bots/tokens", "Your bots' API tokens: id, bot, scope, expiry, never the tokens")
    /// Makes a token.
    public static let createToken = Endpoint<TokenRequest, IssuedTokenReply, PathParameters.None>(
        .post, "/v1/bots/tokens", "Make an API token for a bot of yours, shown once", successStatus: 201)
    /// The caller's bots' hooks.
    public static let hooks = Endpoint<NoContent, HookList, PathParameters.None>(
        .get, "/v1/bots/hooks", "Your bots' incoming webhooks: id, conversation, bot, never the secrets")
    /// Makes a hook.
    public static let createHook = Endpoint<BotPlacement, IssuedHookReply, PathParameters.None>(
        .post, "/v1/bots/hooks", "Make an incoming webhook posting into a group as a bot of yours; its URL is shown once", successStatus: 201)
    /// Revokes a token or deletes a hook.
    public static let revoke = Endpoint<CredentialID, NoContent, PathParameters.None>(
        .post, "/v1/bots/revoke", "Revoke a token or delete a hook of your bots, at once", successStatus: 204)
    /// A tool's post to a hook.
    public static let post = Endpoint<SlackMessage, NoContent, PathParameters.Hook>(
        .post, "/v1/hooks/{hook}/{secret}",
        "Post into the hook's conversation as its bot, in the Slack incoming-webhook format (text, username, attachments); no session",
        needsSession: false, successStatus: 204)

    /// Every bots endpoint.
    public static let endpoints = [
        bots.spec, createBot.spec, deleteBot.spec, addBot.spec, tokens.spec, createToken.spec, hooks.spec, createHook.spec, revoke.spec, post.spec,
    ]
}

extension PathParameters {
    /// `…/{hook}/{secret}`: a webhook's URL.
    public struct Hook: Kind {
        public static let names = ["hook", "secret"]
        /// The hook's id.
        public let hook: String
        /// Its secret.
        public let secret: String
        public var values: [String] { [hook, secret] }
        /// The path of `hook` with `secret`.
        public init(hook: String, secret: String) {
            self.hook = hook
            self.secret = secret
        }
        /// Read as they come: a malformed hook or secret is refused as a wrong one is (`BotCredentials.poster`).
        public init(reading value: (String) throws -> String) throws {
            hook = try value("hook")
            secret = try value("secret")
        }
    }
}

/// A new bot's name.
public struct BotName: WireType, Equatable {
    public let name: String

    public init(_ name: String) { self.name = name }

    public static let schema = WireSchema.object([("name", .string(minLength: 1, maxLength: Validation.maxDisplayNameBytes))], required: ["name"])
}

/// A bot of the caller's, by name or id.
public struct BotReference: WireType, Equatable {
    public let bot: String

    public init(_ bot: String) { self.bot = bot }

    public static let schema = WireSchema.object([("bot", .string(minLength: 1, maxLength: Validation.maxDisplayNameBytes))], required: ["bot"])
}

/// A bot of the caller's and a conversation.
public struct BotPlacement: WireType, Equatable {
    public let bot: String
    public let conversation: ConversationID

    public init(bot: String, conversation: ConversationID) {
        self.bot = bot
        self.conversation = conversation
    }

    public static let schema = WireSchema.object(
        [("bot", .string(minLength: 1, maxLength: Validation.maxDisplayNameBytes)), ("conversation", .identifier)], required: ["bot", "conversation"])
}

/// What a new token is for.
public struct TokenRequest: WireType, Equatable {
    public let bot: String
    public let scope: BotScope
    public let days: Int?

    public init(bot: String, scope: BotScope, days: Int?) {
        self.bot = bot
        self.scope = scope
        self.days = days
    }

    public static let schema = WireSchema.object(
        [
            ("bot", .string(minLength: 1, maxLength: Validation.maxDisplayNameBytes)), ("scope", BotScope.schema),
            ("days", .nullable(.integer(1...365))),
        ],
        required: ["bot", "scope"])
}

/// A token's or hook's id.
public struct CredentialID: WireType, Equatable {
    public let id: String

    public init(_ id: String) { self.id = id }

    public static let schema = WireSchema.object([("id", .identifier)], required: ["id"])
}

/// The caller's bots.
public struct BotList: WireType, Equatable {
    public let bots: [Bot]

    public init(_ bots: [Bot]) { self.bots = bots }

    public static let schema = WireSchema.object([("bots", .array(Bot.schema, maxItems: BotRules.maxBotsPerOwner))], required: ["bots"])
}

/// The caller's bots' tokens.
public struct TokenList: WireType, Equatable {
    public let tokens: [BotToken]

    public init(_ tokens: [BotToken]) { self.tokens = tokens }

    public static let schema = WireSchema.object(
        [("tokens", .array(BotToken.schema, maxItems: BotRules.maxCredentialsPerOwner))], required: ["tokens"])
}

/// The caller's bots' hooks.
public struct HookList: WireType, Equatable {
    public let hooks: [Hook]

    public init(_ hooks: [Hook]) { self.hooks = hooks }

    public static let schema = WireSchema.object([("hooks", .array(Hook.schema, maxItems: BotRules.maxCredentialsPerOwner))], required: ["hooks"])
}

/// A token just made: the token, shown this once, and how it is listed.
public struct IssuedTokenReply: WireType, Equatable {
    public let token: String
    public let info: BotToken

    public init(_ issued: Issued<BotToken>) {
        token = issued.secret
        info = issued.credential
    }

    /// The token as the service answers it.
    public var issued: Issued<BotToken> { Issued(info, secret: token) }

    public static let schema = WireSchema.object(
        [("token", .string(minLength: 1, maxLength: 128)), ("info", BotToken.schema)], required: ["token", "info"])
}

/// A hook just made: its secret, shown this once, and how it is listed.
public struct IssuedHookReply: WireType, Equatable {
    public let secret: String
    public let hook: Hook

    public init(_ issued: Issued<Hook>) {
        secret = issued.secret
        hook = issued.credential
    }

    /// The hook as the service answers it.
    public var issued: Issued<Hook> { Issued(hook, secret: secret) }

    public static let schema = WireSchema.object(
        [("secret", .string(minLength: 1, maxLength: 128)), ("hook", Hook.schema)], required: ["secret", "hook"])
}

extension BotScope: WireType {
    public static let schema = WireSchema.object(
        [
            ("abilities", .array(.enumeration(Ability.allCases.map(\.rawValue)), maxItems: Ability.allCases.count)),
            ("conversations", .nullable(.array(.identifier, maxItems: BotRules.maxScopeConversations))),
        ], required: ["abilities"])
}

extension Bot: WireType {
    public static let schema = WireSchema.object(
        [("id", .identifier), ("name", .string(maxLength: Validation.maxDisplayNameBytes)), ("owner", .identifier), ("createdAt", .timestamp)],
        required: ["id", "name", "owner", "createdAt"])
}

extension BotToken: WireType {
    public static let schema = WireSchema.object(
        [("id", .identifier), ("bot", .identifier), ("scope", BotScope.schema), ("createdAt", .timestamp), ("expiresAt", .timestamp)],
        required: ["id", "bot", "scope", "createdAt", "expiresAt"])
}

extension Hook: WireType {
    public static let schema = WireSchema.object(
        [("id", .identifier), ("conversationID", .identifier), ("bot", .identifier), ("createdAt", .timestamp)],
        required: ["id", "conversationID", "bot", "createdAt"])
}

extension SlackMessage: WireType {
    private static let line = WireSchema.string(maxLength: SlackMessage.maxFieldBytes)

    public static let schema = WireSchema.object(
        [
            ("text", line), ("username", line),
            (
                "attachments",
                .array(
                    .object(
                        [
                            ("pretext", line), ("title", line), ("title_link", line), ("text", line), ("fallback", line), ("footer", line),
                            ("fields", .array(.object([("title", line), ("value", line)], required: []), maxItems: SlackMessage.maxFields)),
                        ], required: []), maxItems: SlackMessage.maxAttachments)
            ),
        ], required: [])
}
