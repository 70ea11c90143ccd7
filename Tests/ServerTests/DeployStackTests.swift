import Chat
import ConversationList
import Foundation
import Kernel
import ServiceGraph
import Synchronization
import TestSupport
import Testing

/// `Tools/Deploy/stack`, as an operator trying the scaled-out server would run it: PostgreSQL,
/// two instances and HAProxy at one address; and what killing an instance, or PostgreSQL,
/// under load does to the clients behind that address.
@Suite(
    "Deployment stack", .timeLimit(.minutes(4)), .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment["MESSAGEAI_STACK_TESTS"] == "1",
        "runs PostgreSQL, two servers and HAProxy under load: set MESSAGEAI_STACK_TESTS=1 (CI does, after the suite)"))
struct DeployStackTests {

    @Test(
        "stack start serves through HAProxy and each instance serves what went through it; one instance killed, the proxy serves from the other within 3 s; a reset and a suspension reach it; stack stop ends everything"
    )
    func stackServesThroughTheProxy() async throws {
        let stack = DeployStack()
        defer { stack.remove() }
        let started = try await stack.run("start")
        try #require(started.status == 0, "stack start failed: \(started.output)")
        #expect(started.output.contains("serving at \(stack.url) (2 instances"))

        let proxy = HTTPProbe(base: stack.url)
        #expect(try await proxy.send("GET", "/v1/health").status == 200)
        let ada = try await proxy.signUp("Ada"), grace = try await proxy.signUp("Grace")
        let conversation = try await proxy.startDirect(ada.token, with: grace.id)
        let sent = try await proxy.send("PUT", "/v1/conversations/\(conversation)/messages/m-1", token: ada.token, json: ["text": "hi"])
        #expect(sent.status == 200, "\(sent.status)")
        // Each instance serves what was stored through the proxy.
        for instance in [stack.port + 1, stack.port + 2] {
            let history = try await HTTPProbe(base: "http://127.0.0.1:\(instance)").send(
                "GET", "/v1/conversations/\(conversation)/messages",
                token: ada.token)
            #expect(history.status == 200 && String(decoding: history.body, as: UTF8.self).contains("\"hi\""), "instance :\(instance)")
        }
        // A file uploaded and sent through one instance is served, whole and in part, by the other (no shared disk).
        let bytes = Data((0..<1_500_000).map { _ in UInt8.random(in: 0...255) })
        let (first, second) = (HTTPProbe(base: "http://127.0.0.1:\(stack.port + 1)"), HTTPProbe(base: "http://127.0.0.1:\(stack.port + 2)"))
        let uploaded = try await first.send(
            "PUT", "/v1/conversations/\(conversation)/messages/m-2/files?name=..%2Fplan.bin", token: ada.token, body: bytes)
        #expect(uploaded.status == 200, "\(uploaded.status)")
        let file = try #require(try JSONSerialization.jsonObject(with: uploaded.body) as? [String: Any])
        let id = try #require(file["id"] as? String)
        #expect(file["name"] as? String == "plan.bin" && file["size"] as? Int == bytes.count, "its name made safe")
        let carried = try await first.send(
            "PUT", "/v1/conversations/\(conversation)/messages/m-2", token: ada.token, json: ["text": "the plan", "attachments": [id]])
        #expect(carried.status == 200, "\(carried.status)")
        let whole = try await second.send("GET", "/v1/files/\(id)/bytes", token: ada.token)
        #expect(whole.status == 200 && whole.body == bytes, "the other instance serves the file whole")
        let part = try await second.send("GET", "/v1/files/\(id)/bytes", token: ada.token, headers: ["Range": "bytes=1048570-1048589"])
        #expect(part.status == 206 && part.body == bytes[1_048_570..<1_048_590], "and a range across its 1 MiB rows")

        kill(try stack.pid("instance-1.pid"), SIGKILL)
        let killed = ContinuousClock.now
        var statuses: [Int] = []
        while statuses.last != 200, ContinuousClock.now - killed < .seconds(10) {
            statuses.append((try? await proxy.send("GET", "/v1/profiles/me", token: ada.token).status) ?? 0)
        }
        let back = ContinuousClock.now - killed
        #expect(statuses.last == 200 && back < .seconds(3), "served again \(back) after the kill: \(statuses)")
        for _ in 0..<10 {
            #expect(try await proxy.send("GET", "/v1/profiles/me", token: ada.token).status == 200, "once back, every request is served")
        }

        // A password reset: the operator's code, made on the database, redeemed through the proxy.
        let email = try #require(try await proxy.send("GET", "/v1/auth/session", token: ada.token).json?["email"] as? String)
        let operatorRun = try await OwnThread.run {
            try SpawnedProgram.run(
                [ServerProcess.executable.path, "admin", "users", "reset-password", email, "--store", stack.databaseURL], environment: [:])
        }
        // Its output holds the audit line (standard error) and the code (standard output), last.
        let code = String(operatorRun.output.split(separator: "\n").last ?? "").trimmingCharacters(in: .whitespaces)
        #expect(operatorRun.status == 0 && code.hasPrefix("reset-"), "\(operatorRun.output)")
        let reset = try await proxy.send("POST", "/v1/auth/password/reset", json: ["code": code, "new": "a-new-password"])
        let newToken = try #require(reset.json?["token"] as? String, "\(reset.status)")
        #expect(try await proxy.send("GET", "/v1/profiles/me", token: ada.token).status == 401, "the old session ended")
        #expect(try await proxy.send("GET", "/v1/profiles/me", token: newToken).status == 200)
        let again = try await proxy.send("POST", "/v1/auth/password/reset", json: ["code": code, "new": "another-password"])
        #expect(again.status == 401, "a code works once")

        // A suspension on the database: refused through the proxy within 2 s, sign-in refused as suspended.
        let suspended = try await OwnThread.run {
            try SpawnedProgram.run(
                [ServerProcess.executable.path, "admin", "users", "suspend", email, "--store", stack.databaseURL], environment: [:])
        }
        #expect(suspended.status == 0, "\(suspended.output)")
        let start = ContinuousClock.now
        while try await proxy.send("GET", "/v1/profiles/me", token: newToken).status == 200, ContinuousClock.now - start < .seconds(5) {}
        #expect(ContinuousClock.now - start < .seconds(2), "the session refused \(ContinuousClock.now - start) after the suspension")
        let signIn = try await proxy.send("POST", "/v1/auth/signin", json: ["email": email, "password": "a-new-password"])
        #expect(signIn.status == 403 && String(decoding: signIn.body, as: UTF8.self).contains("suspended"), "\(signIn.status)")

        #expect(try await stack.run("stop").status == 0)
        let status = try await stack.run("status")
        #expect(
            status.status == 1 && status.output.contains("proxy: not running") && status.output.contains("postgres: not running"), "\(status.output)")
    }

    @Test("typing crosses instances: a typist on one instance reaches a reader on the other as they start and stop; nothing of it is stored")
    func typingCrossesInstances() async throws {
        let stack = DeployStack()
        defer { stack.remove() }
        let started = try await stack.run("start")
        try #require(started.status == 0, "stack start failed: \(started.output)")
        let proxy = HTTPProbe(base: stack.url)
        let ada = try await proxy.signUp("Ada"), grace = try await proxy.signUp("Grace")
        let direct = try await proxy.startDirect(ada.token, with: grace.id)
        #expect(try await proxy.send("POST", "/v1/invitations/\(direct)/accept", token: grace.token).status == 200)
        let stored = "SELECT (SELECT count(*) FROM messages) + (SELECT count(*) FROM store_changes)"
        let before = try stack.psql(stored)
        /// The typing service of the user signed in with `token`, on instance `number` straight.
        func typing(on number: Int, _ token: String) throws -> any TypingService {
            let graph = try ServiceGraph(GraphOptions(backend: .remote, sqlitePath: "", remoteURL: stack.instance(number)))
            return graph.services(for: graph.caller(token: token)).typing
        }
        let (adaChat, graceChat) = (try typing(on: 1, ada.token), try typing(on: 2, grace.token))
        var graceHears = try await graceChat.typingNotices().makeAsyncIterator()
        _ = try await adaChat.typingNotices()  // Ada's events socket: her notices go over it.
        try await adaChat.setTyping(true, in: ConversationID(direct))
        #expect(await graceHears.next() == TypingNotice(conversationID: ConversationID(direct), userID: UserID(ada.id), typing: true))
        try await adaChat.setTyping(false, in: ConversationID(direct))
        #expect(await graceHears.next() == TypingNotice(conversationID: ConversationID(direct), userID: UserID(ada.id), typing: false))
        #expect(try stack.psql(stored) == before, "typing stored something")
    }

    @Test("search and mentions cross instances: a message sent through one instance is found, and its mention listed, through the other at once")
    func searchCrossesInstances() async throws {
        let stack = DeployStack()
        defer { stack.remove() }
        let started = try await stack.run("start")
        try #require(started.status == 0, "stack start failed: \(started.output)")
        let first = HTTPProbe(base: stack.instance(1)), second = HTTPProbe(base: stack.instance(2))
        let ada = try await first.signUp("Ada"), grace = try await first.signUp("Grace")
        let direct = try await first.startDirect(ada.token, with: grace.id)
        #expect(try await first.send("POST", "/v1/invitations/\(direct)/accept", token: grace.token).status == 200)
        let path = "/v1/conversations/\(direct)/messages/"
        #expect(try await first.send("PUT", path + "m1", token: ada.token, json: ["text": "the Café opens at nine"]).status == 200)
        let found = try await second.send("GET", "/v1/search?q=cafe", token: grace.token)
        #expect(
            found.status == 200 && String(decoding: found.body, as: UTF8.self).contains("\"m1\""), "\(String(decoding: found.body, as: UTF8.self))")
        #expect(try await first.send("PATCH", path + "m1", token: ada.token, json: ["text": "the bakery opens at nine"]).status == 200)
        let after = String(decoding: try await second.send("GET", "/v1/search?q=cafe", token: grace.token).body, as: UTF8.self)
        #expect(!after.contains("\"m1\""), "found by the words it no longer has: \(after)")
        let bakery = String(decoding: try await second.send("GET", "/v1/search?q=bakery", token: grace.token).body, as: UTF8.self)
        #expect(bakery.contains("\"m1\""), "\(bakery)")

        #expect(try await first.send("PUT", path + "m2", token: ada.token, json: ["text": "@grace the keys are with you"]).status == 200)
        let mentions = String(decoding: try await second.send("GET", "/v1/mentions", token: grace.token).body, as: UTF8.self)
        #expect(mentions.contains("\"m2\"") && !mentions.contains("\"m1\""), "\(mentions)")
        let list = String(decoding: try await second.send("GET", "/v1/conversations", token: grace.token).body, as: UTF8.self)
        #expect(list.contains("\"unreadMentions\":1"), "\(list)")
    }

    @Test(
        "kill -9 of one instance, four times alternating, under load through the proxy: nothing acknowledged lost or repeated, order kept, clients served again within 3 s"
    )
    func instanceKills() async throws {
        let stack = DeployStack()
        defer { stack.remove() }
        try #require(try await stack.run("start").status == 0)
        let outcome = try await Self.drill(through: stack, pairs: 4, perPair: 250, kills: 4) { number in
            try await stack.killInstance(number % 2 + 1)
        }
        #expect(outcome.verdict.isPerfect, "\(outcome.verdict)")
        #expect(outcome.kills == 4)
        #expect(outcome.longestWait < .seconds(3), "the clients went \(outcome.longestWait) without an acknowledged send")
    }

    @Test(
        "kill -9 of PostgreSQL's postmaster under load, then its restart: nothing acknowledged lost from the store; the instances serve on without a restart"
    )
    func postmasterKill() async throws {
        let stack = DeployStack()
        defer { stack.remove() }
        try #require(try await stack.run("start").status == 0)
        let instances = try [stack.pid("instance-1.pid"), stack.pid("instance-2.pid")]
        let outcome = try await Self.drill(through: stack, pairs: 4, perPair: 150, kills: 1) { _ in try await stack.killDatabase() }
        // Nothing acknowledged is lost from the store (`drill` checks each conversation's stored
        // order), and every reader, on either instance, gets everything once and in order.
        #expect(outcome.verdict.isPerfect, "\(outcome.verdict)")
        #expect(try [stack.pid("instance-1.pid"), stack.pid("instance-2.pid")] == instances, "an instance was restarted")
        for instance in instances { #expect(kill(instance, 0) == 0, "instance \(instance) is gone") }
    }

    /// What a drill did to its clients.
    struct Outcome {
        let verdict: DeliveryLedger.Verdict
        let kills: Int
        /// The longest time between two acknowledged sends of all the senders.
        let longestWait: Duration
    }

    /// `pairs` senders and live readers, clients of the proxy, each sender sending `perPair`
    /// messages one after another; `crash` runs `kills` times, evenly spread over the sends.
    private static func drill(
        through stack: DeployStack, pairs count: Int, perPair: Int, kills: Int,
        crash: @escaping @Sendable (Int) async throws -> Void
    ) async throws -> Outcome {
        let traffic = try await DrillTraffic(
            graph: try ServiceGraph(GraphOptions(backend: .remote, sqlitePath: "", remoteURL: stack.url)),
            pairs: count)
        defer { traffic.stop() }
        let total = count * perPair
        let drill = KillDrill(killingAt: (1...kills).map { total * $0 / (kills + 1) }, crash: crash)
        _ = try await traffic.send(perPair, through: drill)
        let crashes = try await drill.finish()
        await traffic.ledger.waitForArrivals(total, timeout: .seconds(60))
        for texts in try await traffic.stored() { #expect(texts == (0..<perPair).map { "m\($0)" }, "the store's order") }
        return Outcome(verdict: traffic.ledger.verdict, kills: crashes, longestWait: drill.longestPause)
    }
}
