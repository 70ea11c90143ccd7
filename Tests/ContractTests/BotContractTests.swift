import Auth
import Chat
import Foundation
import Kernel
import Profile
import ServiceGraph
import TestSupport
import Testing

/// Bots and their API tokens on every backend: a token acts as its bot within its scope and
/// nowhere else, only where the bot's owner is a member, and stops at once when revoked or when
/// its owner is suspended; it is kept as a digest alone.
@Suite("Bot contract", .serialized, .timeLimit(.minutes(3)))
struct BotContractTests {
    @Test(
        "a token scoped to one conversation reads and sends there alone, as a bot; a person's things stay closed to it",
        arguments: BackendContractTests.backends)
    func scoped(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let ops = try await harness.group("Ops", by: ada, with: [grace]).id, secret = try await harness.group("Secret", by: ada, with: [grace]).id
        _ = try await harness.services(for: grace).chat.send(id: .random(), text: "secret plans", to: secret)
        let bots = harness.graph.bots(for: harness.graph.caller(token: ada.token))
        let bot = try await bots.createBot(named: "Deploys")
        await #expect(throws: BotRules.nameTaken("Deploys")) { try await bots.createBot(named: "Deploys") }
        try await bots.addBot("Deploys", to: ops)
        try await bots.addBot(bot.id.rawValue, to: secret)
        let issued = try await bots.createToken(for: "Deploys", scope: BotRules.scope(["read:\(ops)", "send:\(ops)"]), days: 7)
        #expect(BotRules.isAPIToken(issued.secret) && issued.credential.expiresAt.timeIntervalSince(issued.credential.createdAt) == 7 * 86_400)
        let asBot = harness.graph.services(for: harness.graph.caller(token: issued.secret))

        let sent = try await asBot.chat.send(id: .random(), text: "deploy 42 done", to: ops)
        #expect(sent.senderID == bot.id)
        #expect(try await asBot.chat.latestMessages(in: ops, limit: 5).messages.map(\.text) == ["deploy 42 done"])
        #expect(try await asBot.conversations.conversations().map(\.id) == [ops], "its list holds its scope alone")
        await #expect(throws: AppError.self) { try await asBot.chat.send(id: .random(), text: "leak", to: secret) }
        await #expect(throws: AppError.self) { try await asBot.chat.latestMessages(in: secret, limit: 5) }
        await #expect(throws: Caller.notForBots) { try await asBot.conversations.startDirect(with: grace.id) }
        await #expect(throws: Caller.notForBots) { try await asBot.profiles.search("gra", limit: 5) }
        await #expect(throws: Caller.notForBots) { try await asBot.search.search("plans", in: nil, limit: 5, before: nil) }
        await #expect(throws: Caller.notForBots) { try await harness.graph.bots(for: harness.graph.caller(token: issued.secret)).bots() }

        let asGrace = harness.services(for: grace)
        #expect(try await asGrace.profiles.displayNames(of: [bot.id]) == [bot.id: "Deploys (bot)"], "shown as a bot wherever its name appears")
        #expect(try await asGrace.profiles.profile(matching: bot.id.rawValue).kind == .bot)
        #expect(try await asGrace.profiles.profile(matching: ada.id.rawValue).kind == nil)

        let listed = try await bots.tokens()
        #expect(listed.map(\.id) == [issued.credential.id])
        #expect(!String(decoding: try JSONEncoder().encode(listed), as: UTF8.self).contains(issued.secret), "a listing never holds the token")
        if backend == .sqlite || backend == .remote {
            #expect(try await DeletedTextTests.copies(of: [issued.secret], in: harness) == [0], "the store keeps a digest alone")
        }
        if backend == .postgres || backend == .remoteOnPostgres {
            #expect(!(try await harness.psql("SELECT digest FROM auth_bot_tokens")).contains(issued.secret))
        }

        try await bots.revoke(issued.credential.id)
        await #expect(throws: AppError.notSignedIn) { try await asBot.chat.send(id: .random(), text: "after", to: ops) }
        await #expect(throws: BotRules.noCredential(issued.credential.id)) { try await bots.revoke(issued.credential.id) }
        let others = harness.graph.bots(for: harness.graph.caller(token: grace.token))
        await #expect(throws: BotRules.noBot("Deploys")) { try await others.createToken(for: "Deploys", scope: .account, days: nil) }
    }

    @Test("a bot acts only where its owner is a member, and not once the owner is suspended", arguments: BackendContractTests.backends)
    func owner(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend, verificationCacheTime: .zero)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let ops = try await harness.group("Ops", by: ada, with: [grace]).id, team = try await harness.group("Team", by: ada, with: [grace]).id
        let bots = harness.graph.bots(for: harness.graph.caller(token: ada.token))
        _ = try await bots.createBot(named: "Pager")
        try await bots.addBot("Pager", to: ops)
        try await bots.addBot("Pager", to: team)
        await #expect(throws: AppError.self, "only into a group its owner is in") {
            try await harness.graph.bots(for: harness.graph.caller(token: grace.token)).createBot(named: "Mine")
            try await harness.graph.bots(for: harness.graph.caller(token: grace.token)).addBot("Mine", to: ConversationID("elsewhere"))
        }
        let token = try await bots.createToken(for: "Pager", scope: .account, days: nil).secret
        let asBot = harness.graph.services(for: harness.graph.caller(token: token))
        #expect(Set(try await asBot.conversations.conversations().map(\.id)) == [ops, team], "the whole account: every conversation of the bot's")

        try await harness.services(for: ada).conversations.leave(ops)
        await #expect(throws: AppError.self, "its owner gone, the bot is gone too") {
            try await asBot.chat.send(id: .random(), text: "alone", to: ops)
        }
        #expect(try await asBot.conversations.conversations().map(\.id) == [team], "nor does it read there")
        #expect(try await harness.services(for: grace).conversations.conversations().first { $0.id == ops }?.memberIDs == [grace.id])
        _ = try await asBot.chat.send(id: .random(), text: "still here", to: team)

        // A token that only sends learns nothing of what is said: no preview, no reaction, no quote.
        let said = try await harness.services(for: grace).chat.send(id: .random(), text: "graces secret", to: team)
        let sender = harness.graph.services(
            for: harness.graph.caller(token: try await bots.createToken(for: "Pager", scope: BotRules.scope(["send:\(team)"]), days: nil).secret))
        let row = try #require(try await sender.conversations.conversations().first)
        #expect(row.id == team && row.lastMessage == nil && row.unreadCount == 0)
        await #expect(throws: AppError.self) { try await sender.chat.react(to: said.id, in: team, with: "👍", adding: true) }
        await #expect(throws: AppError.self) { try await sender.chat.send(id: .random(), text: "re", to: team, replyTo: said.id) }

        try await Self.suspend(ada, on: harness, backend)
        let refused = ContinuousClock.now
        while (try? await asBot.chat.send(id: .random(), text: "page", to: team)) != nil, ContinuousClock.now - refused < .seconds(3) {
            await Task.yield()
        }
        #expect(ContinuousClock.now - refused < .seconds(2.5), "refused within the 2 s an instance trusts a checked token")
    }

    @Test("a token revoked through one instance is refused through another within 2 s", arguments: [ContractBackend.sqlite, .postgres])
    func revokedEverywhere(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let other = try await BackendHarness(backend, sharing: harness)
        defer { other.graph.close() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let ops = try await harness.group("Ops", by: ada, with: [grace]).id
        let bots = harness.graph.bots(for: harness.graph.caller(token: ada.token))
        _ = try await bots.createBot(named: "Pager")
        try await bots.addBot("Pager", to: ops)
        let issued = try await bots.createToken(for: "Pager", scope: BotRules.scope(["send:\(ops)"]), days: nil)
        let elsewhere = other.graph.services(for: other.graph.caller(token: issued.secret))
        _ = try await elsewhere.chat.send(id: .random(), text: "checked and trusted", to: ops)
        try await bots.revoke(issued.credential.id)
        let revoked = ContinuousClock.now
        while (try? await elsewhere.chat.send(id: .random(), text: "after", to: ops)) != nil, ContinuousClock.now - revoked < .seconds(3) {
            await Task.yield()
        }
        #expect(ContinuousClock.now - revoked <= .seconds(2.2), "refused within 2 s")
    }

    @Test("deleting the owner disables the bot's tokens; deleting a bot keeps what it posted", arguments: BackendContractTests.backends)
    func deletions(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend, verificationCacheTime: .zero)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let ops = try await harness.group("Ops", by: grace, with: [ada]).id
        let asAda = harness.graph.bots(for: harness.graph.caller(token: ada.token))
        _ = try await asAda.createBot(named: "Ada's")
        try await asAda.addBot("Ada's", to: ops)
        let adas = try await asAda.createToken(for: "Ada's", scope: .account, days: nil).secret
        let asGrace = harness.graph.bots(for: harness.graph.caller(token: grace.token))
        _ = try await asGrace.createBot(named: "Grace's")
        try await asGrace.addBot("Grace's", to: ops)
        let graces = try await asGrace.createToken(for: "Grace's", scope: .account, days: nil).secret
        _ = try await harness.graph.services(for: harness.graph.caller(token: graces)).chat.send(id: .random(), text: "kept", to: ops)

        try await harness.accounts.deleteAccount(token: ada.token, password: "password-Ada")
        await #expect(throws: AppError.notSignedIn) {
            try await harness.graph.services(for: harness.graph.caller(token: adas)).chat.send(id: .random(), text: "orphan", to: ops)
        }
        let gracesBot = try #require(try await asGrace.bots().first).id
        try await asGrace.deleteBot("Grace's")
        await #expect(throws: AppError.notSignedIn) {
            try await harness.graph.services(for: harness.graph.caller(token: graces)).chat.send(id: .random(), text: "gone", to: ops)
        }
        #expect(try await asGrace.bots().isEmpty)
        let members = try #require(try await harness.services(for: grace).conversations.conversations().first { $0.id == ops }).memberIDs
        #expect(!members.contains(gracesBot), "a deleted bot leaves its conversations")
        let texts = try await harness.services(for: grace).chat.latestMessages(in: ops, limit: 5).messages.map(\.text)
        #expect(texts == ["kept"], "what a deleted bot posted stays")
    }

    /// Suspends `user` as an operator does: through the server's command on the remote backends.
    static func suspend(_ user: BackendHarness.User, on harness: BackendHarness, _ backend: ContractBackend) async throws {
        if backend.graphBackend == .remote {
            _ = try await RegistrationContractTests.admin(["users", "suspend", user.email], on: harness)
        } else {
            _ = try await harness.graph.operatorAdmin(named: "operator:test").setSuspended(email: user.email, true)
        }
    }
}
