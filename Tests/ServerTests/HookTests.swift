import Auth
import Chat
import Foundation
import Kernel
import ServerSupport
import ServiceGraph
import TestSupport
import Testing

/// Incoming webhooks through real servers: tools' recorded Slack posts arrive as plain lines,
/// live through another instance; a leaked URL reaches its one group, within its budget, until
/// it is deleted.
@Suite("Incoming webhooks", .serialized, .timeLimit(.minutes(3)))
struct HookTests {
    /// Two people in a group on `graph`, a bot of Ada's in it, and a hook posting as the bot.
    struct Setup {
        let ada: IssuedSession
        let grace: IssuedSession
        let ops: ConversationID
        let bot: Bot
        let hook: Issued<Hook>

        init(on graph: ServiceGraph, bot name: String = "Alerts") async throws {
            ada = try await graph.accounts.signUp(
                email: "ada-\(UUID().uuidString.prefix(8))@example.com", displayName: "Ada", password: "password-Ada")
            grace = try await graph.accounts.signUp(
                email: "grace-\(UUID().uuidString.prefix(8))@example.com", displayName: "Grace", password: "password-Grace")
            let (ada, grace) = (graph.caller(token: ada.token), graph.caller(token: grace.token))
            ops = try await graph.services(for: ada).conversations.createGroup(title: "Ops", memberIDs: [self.grace.account.id]).id
            _ = try await graph.services(for: grace).conversations.accept(ops)
            bot = try await graph.bots(for: ada).createBot(named: name)
            hook = try await graph.bots(for: ada).createHook(in: ops, as: name)
        }

        var path: String { hook.credential.path(secret: hook.secret) }
    }

    @Test("recorded Alertmanager and Grafana posts through instance A arrive as the bot's plain lines, live through instance B within 1 s")
    func recordedPostsReachAnotherInstance() async throws {
        let instances = try await ScaleOutTests.Instances()
        defer { instances.remove() }
        let onA = try ServiceGraph(GraphOptions(backend: .remote, sqlitePath: "", remoteURL: instances.a.url))
        let onB = try ServiceGraph(GraphOptions(backend: .remote, sqlitePath: "", remoteURL: instances.b.url))
        defer {
            onA.close()
            onB.close()
        }
        let setup = try await Setup(on: onA)
        let live = try await onB.services(for: onB.caller(token: setup.grace.token)).events.liveMessages(in: setup.ops)
        var arriving = live.makeAsyncIterator()
        // The socket stands once a message of Ada's comes through it.
        _ = try await onA.services(for: onA.caller(token: setup.ada.token)).chat.send(id: .random(), text: "warm", to: setup.ops)
        #expect(await arriving.next()?.text == "warm")

        let probe = HTTPProbe(base: instances.a.url)
        for (fixture, lines) in [(HookFixtures.alertmanager, HookFixtures.alertmanagerLines), (HookFixtures.grafana, HookFixtures.grafanaLines)] {
            let posted = ContinuousClock.now
            let answer = try await probe.send("POST", setup.path, body: Data(fixture.utf8), headers: ["Content-Type": "application/json"])
            #expect(answer.status == 204, "\(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
            let message = try #require(await arriving.next())
            #expect(ContinuousClock.now - posted < .seconds(1), "seen through B \(ContinuousClock.now - posted) after the post to A")
            #expect(message.senderID == setup.bot.id)
            #expect(message.text.split(separator: "\n").map(String.init) == lines, "\(message.text)")
        }

        // The URL is no bearer token: a header naming the hook opens nothing.
        let asBearer = "hook \(setup.hook.credential.id) \(setup.hook.secret)"
        #expect(try await probe.send("GET", "/v1/conversations", token: asBearer).status == 401)
        #expect(try await probe.send("GET", "/v1/conversations", token: setup.hook.secret).status == 401)

        let unknown = try await probe.send("POST", "/v1/hooks/hnosuchhook/\(setup.hook.secret)", body: Data(#"{"text":"x"}"#.utf8))
        let wrong = try await probe.send(
            "POST", "/v1/hooks/\(setup.hook.credential.id)/\(String(repeating: "0", count: 64))", body: Data(#"{"text":"x"}"#.utf8))
        #expect(unknown.status == 404 && wrong.status == unknown.status && wrong.body == unknown.body, "a wrong secret answers as an unknown hook")
        #expect(!String(decoding: wrong.body, as: UTF8.self).contains(setup.hook.credential.id))

        try await onA.bots(for: onA.caller(token: setup.ada.token)).revoke(setup.hook.credential.id)
        let deleted = try await probe.send("POST", setup.path, body: Data(#"{"text":"after"}"#.utf8))
        #expect(deleted.status == 404 && deleted.body == unknown.body, "a deleted hook answers as an unknown one")
    }

    @Test("each hook posts within its own budget (429 with Retry-After past it); bodies are bounded; escapes arrive as text")
    func budgetsAndBounds() async throws {
        let folder = try ServerWorld.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await ServerProcess(
            databasePath: folder.appendingPathComponent("hooks.sqlite").path, liftingBudgets: false, arguments: ["--messages-per-minute", "30"])
        defer { server.stop() }
        let graph = try ServiceGraph(GraphOptions(backend: .remote, sqlitePath: "", remoteURL: server.url))
        defer { graph.close() }
        let setup = try await Setup(on: graph)
        let second = try await graph.bots(for: graph.caller(token: setup.ada.token)).createBot(named: "Builds")
        let other = try await graph.bots(for: graph.caller(token: setup.ada.token)).createHook(in: setup.ops, as: second.name)
        let probe = HTTPProbe(base: server.url)

        let hostile = #"{"text":"*bold* \u001b[2J\u001b]0;pwned\u0007 &lt;b&gt; <https://x.example/a|link> \u202Eevil"}"#
        #expect(try await probe.send("POST", setup.path, body: Data(hostile.utf8)).status == 204)
        var statuses: [Int] = []
        for _ in 0..<3 { statuses.append(try await probe.send("POST", setup.path, body: Data(#"{"text":"again"}"#.utf8)).status) }
        #expect(statuses == [204, 204, 429], "three at once (a tenth of 30 a minute)")
        let refused = try await probe.send("POST", setup.path, body: Data(#"{"text":"again"}"#.utf8))
        #expect(refused.status == 429 && Int(refused.headers["retry-after"] ?? "") ?? 0 > 0, "\(refused.headers)")
        #expect(
            try await probe.send("POST", other.credential.path(secret: other.secret), body: Data(#"{"text":"own budget"}"#.utf8)).status == 204,
            "another hook is not held up")
        // Guessing hooks' URLs is held back per address; a tool whose hook exists is not.
        var guessed: [Int] = []
        for _ in 0...BotRules.hookGuessesAtOnce {
            guessed.append(
                try await probe.send(
                    "POST", "/v1/hooks/\(other.credential.id)/\(String(repeating: "0", count: 64))", body: Data(#"{"text":"x"}"#.utf8)
                ).status)
        }
        #expect(Set(guessed.dropLast()) == [404] && guessed.last == 429, "\(guessed)")

        let huge = try JSONSerialization.data(withJSONObject: ["text": String(repeating: "x", count: 300 * 1_024)])
        #expect(try await probe.send("POST", other.credential.path(secret: other.secret), body: huge).status == 413)

        let texts = try await graph.services(for: graph.caller(token: setup.grace.token)).chat.latestMessages(in: setup.ops, limit: 10).messages
            .map(\.text)
        #expect(texts.first == "*bold* [2J]0;pwned <b> link (https://x.example/a) evil", "\(texts)")
        #expect(texts.allSatisfy { !$0.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" } })
    }

    @Test("a hook's secret never reaches a log line: the path is logged with the secret left out")
    func secretLeftOutOfLogs() {
        let routes = RouteTable()
        routes.add("POST", "/v1/hooks/{hook}/{secret}")
        routes.add("GET", "/v1/conversations/{conversation}/messages")
        #expect(routes.logged("/v1/hooks/h123/abcdef0123") == "/v1/hooks/h123/…")
        #expect(routes.logged("/v1/conversations/c1/messages") == "/v1/conversations/c1/messages")
        #expect(routes.logged("/v1/unknown/x") == "/v1/unknown/x")
    }
}
