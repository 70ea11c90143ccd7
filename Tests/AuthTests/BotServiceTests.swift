import Auth
import Foundation
import Kernel
import Synchronization
import TestSupport
import Testing

/// Bots over memory's stores, and the rules written once for every store: scopes, limits, what a
/// credential stands for, and what a tool's post becomes.
@Suite("Bots, tokens and hooks", .timeLimit(.minutes(1)))
struct BotServiceTests {
    let clock = TestClock()
    let accounts = InMemoryAccountStore(profiles: RecordingProvisioning())
    let store = InMemoryBotStore(profiles: RecordingProvisioning())
    let admitted = Admissions()
    let ada = UserID("ada")

    func service(for caller: Caller) -> StoredBotService {
        StoredBotService(store: store, membership: admitted, digest: MarkedDigest(), clock: clock, caller: caller)
    }

    var credentials: BotCredentials { BotCredentials(store: store, accounts: accounts, digest: MarkedDigest(), clock: clock) }

    /// Ada's account, made in the account store so that her standing can be read.
    func signUpAda() async throws {
        _ = try await accounts.create(
            Account(id: ada, email: "ada@example.com"), displayName: "Ada", passwordHash: "h", session: "s", at: clock.now())
    }

    @Test("scope words: account alone, or the same conversations for each ability; nothing else")
    func scopes() throws {
        #expect(try BotRules.scope(["account"]) == .account)
        #expect(try BotRules.scope(["read:c1,send:c1"]) == BotScope(abilities: [.read, .send], conversations: [ConversationID("c1")]))
        #expect(try BotRules.scope(["send:c1", "send:c2"]).description == "send:c1,send:c2")
        for bad in [[], ["write:c1"], ["read:"], ["read:c1", "send:c2"], ["account", "read:c1"], ["read"]] {
            #expect(throws: AppError.self, "\(bad)") { try BotRules.scope(bad) }
        }
        #expect(throws: AppError.self) { try BotRules.checked(BotScope(abilities: [], conversations: nil)) }
        #expect(throws: AppError.self) { try BotRules.lifetime(days: 366) }
        #expect(try BotRules.lifetime(days: nil) == 90 * 86_400)
    }

    @Test("a token stands for its bot within its scope, until it expires or its owner is suspended; its secret is kept as a digest")
    func tokens() async throws {
        try await signUpAda()
        let bots = service(for: .verified(ada))
        let bot = try await bots.createBot(named: " Deploys ")
        #expect(bot.name == "Deploys" && bot.owner == ada)
        let issued = try await bots.createToken(for: "Deploys", scope: BotRules.scope(["send:c1"]), days: 1)
        #expect(issued.secret.hasPrefix(BotRules.tokenPrefix) && issued.secret.count == BotRules.tokenPrefix.count + 64)
        let kept = await store.token(digest: "digest:" + issued.secret), plain = await store.token(digest: issued.secret)
        #expect(kept == issued.credential && plain == nil)
        let (who, grant) = try await credentials.principal(forToken: issued.secret)
        #expect(who == bot.id && grant == .bot(owner: ada, scope: issued.credential.scope))
        #expect(grant.allows(.send, in: ConversationID("c1")) && !grant.allows(.read, in: ConversationID("c1")))
        #expect(!grant.allows(.send, in: ConversationID("c2")))

        clock.advance(by: 86_401)
        await #expect(throws: AppError.notSignedIn, "expired") { try await credentials.principal(forToken: issued.secret) }
        let fresh = try await bots.createToken(for: bot.id.rawValue, scope: .account, days: nil).secret
        _ = try await accounts.setSuspended(ada, at: clock.now())
        await #expect(throws: AppError.notSignedIn, "its owner suspended") { try await credentials.principal(forToken: fresh) }
        await #expect(throws: Caller.notForBots, "a bot keeps no bots") {
            try await service(for: .granted(token: nil) { (bot.id, .bot(owner: ada, scope: .account)) }).bots()
        }
    }

    @Test("limits: names unique per owner, ten bots, fifty credentials; another's bot is nobody's to use")
    func limits() async throws {
        let bots = service(for: .verified(ada))
        for index in 0..<BotRules.maxBotsPerOwner { _ = try await bots.createBot(named: "Bot \(index)") }
        await #expect(throws: BotRules.tooManyBots) { try await bots.createBot(named: "One more") }
        await #expect(throws: BotRules.nameTaken("Bot 0")) {
            try await service(for: .verified(ada)).deleteBot("Bot 9")
            try await bots.createBot(named: "Bot 0")
        }
        for _ in 0..<BotRules.maxCredentialsPerOwner { _ = try await bots.createToken(for: "Bot 0", scope: .account, days: nil) }
        await #expect(throws: BotRules.tooManyCredentials) { try await bots.createHook(in: ConversationID("c1"), as: "Bot 0") }
        let grace = service(for: .verified(UserID("grace")))
        await #expect(throws: BotRules.noBot("Bot 0")) { try await grace.createToken(for: "Bot 0", scope: .account, days: nil) }
        await #expect(throws: BotRules.noCredential(try await bots.tokens()[0].id)) { try await grace.revoke(try await bots.tokens()[0].id) }
        #expect(admitted.count == 0, "no hook was made, so no bot was brought in")
    }

    @Test("a hook posts as its bot into its conversation alone; a wrong secret answers as an unknown hook")
    func hooks() async throws {
        try await signUpAda()
        let bots = service(for: .verified(ada))
        let bot = try await bots.createBot(named: "Alerts")
        let hook = try await bots.createHook(in: ConversationID("ops"), as: "Alerts")
        #expect(admitted.count == 1, "the bot is brought into the conversation")
        let poster = try await credentials.poster(hook: hook.credential.id, secret: hook.secret)
        #expect(poster.user == bot.id && poster.conversationID == ConversationID("ops"))
        #expect(poster.grant.allows(.send, in: ConversationID("ops")) && !poster.grant.allows(.read, in: ConversationID("ops")))
        for (id, secret) in [(hook.credential.id, "wrong"), ("hnone", hook.secret), (hook.credential.id, String(repeating: "x", count: 500))] {
            await #expect(throws: BotRules.noHook) { try await credentials.poster(hook: id, secret: secret) }
        }
        try await bots.revoke(hook.credential.id)
        await #expect(throws: BotRules.noHook) { try await credentials.poster(hook: hook.credential.id, secret: hook.secret) }
    }

    @Test("a tool's post becomes plain lines: links and escapes undone, control characters dropped, long posts cut")
    func slackText() throws {
        let post = SlackMessage(
            text: "Deploy <https://ci.example/1|#1> &amp; <https://x.example> \u{1B}[31mred\u{07}", username: "CI",
            attachments: [
                SlackMessage.Attachment(
                    pretext: "pre", title: "Title", titleLink: "https://t.example", text: "*bold*",
                    fallback: "not shown: the attachment has text", footer: "foot",
                    fields: [SlackMessage.Attachment.Field(title: "Env", value: "prod"), SlackMessage.Attachment.Field(title: nil, value: "bare")]),
                SlackMessage.Attachment(fallback: "only the fallback"),
            ])
        #expect(
            try post.plainText().split(separator: "\n") == [
                "[CI]", "Deploy #1 (https://ci.example/1) & https://x.example [31mred", "pre", "Title (https://t.example)", "*bold*", "Env: prod",
                "bare", "foot", "only the fallback",
            ])
        #expect(throws: AppError.self) { try SlackMessage(text: " \u{1B} ").plainText() }
        let long = try SlackMessage(text: String(repeating: "x", count: 10_000)).plainText()
        #expect(long.count == Validation.maxMessageLength && long.hasSuffix("…"))
    }
}

/// Records the bots brought into conversations.
final class Admissions: BotMembership {
    private let admitted = Mutex<[(UserID, ConversationID)]>([])
    var count: Int { admitted.withLock { $0.count } }

    func admit(_ bot: UserID, to conversationID: ConversationID, by owner: UserID) async throws {
        admitted.withLock { $0.append((bot, conversationID)) }
    }

    func dismiss(_ bot: UserID) async throws { admitted.withLock { $0.removeAll { $0.0 == bot } } }
}
