import Chat
import Foundation
import HummingbirdWSClient
import Kernel
import Logging
import ServiceGraph
import TestSupport
import Testing

/// The server as an operator sees it: stopped gracefully, killed, restarted; and sessions that
/// end while their sockets are open.
@Suite("Server lifecycle", .timeLimit(.minutes(3)))
struct ServerLifecycleTests {
    @Test("SIGTERM: sockets are closed with 'going away', the server exits 0 within 10 s")
    func gracefulShutdown() async throws {
        let world = try await ServerWorld()
        defer { world.remove() }
        let ada = try await world.probe.signUp("Ada")
        let configuration = WebSocketClientConfiguration.events(token: ada.token)
        let (opened, open) = AsyncStream<Void>.makeStream()
        let socket = Task {
            try await WebSocketClient.connect(
                url: world.eventsURL,
                configuration: configuration, logger: Logger(label: "test")
            ) { inbound, _, _ in
                for try await _ in inbound { open.yield() }
            }
        }
        var iterator = opened.makeAsyncIterator()
        _ = await iterator.next()  // the ready frame: the socket stands
        let (status, took) = await world.server.terminate()
        #expect(status == 0)
        #expect(took < .seconds(10))
        let close = try await socket.value
        #expect(close?.closeCode == .goingAway)
    }

    @Test("SIGTERM drains: the health check says 503 draining, the sockets are closed spread over about 2 s, then the server exits 0")
    func drainSpreadsTheClosing() async throws {
        let world = try await ServerWorld()
        defer { world.remove() }
        let health = try await world.probe.send("GET", "/v1/health")
        #expect(health.status == 200 && health.json?["status"] as? String == "serving", "\(health.status) \(health.json ?? [:])")
        var sockets: [SilentSocket] = []
        for name in ["Ada", "Grace", "Linus", "Barbara", "Edsger"] {
            let user = try await world.probe.signUp(name)
            for _ in 0..<EventSocketProtocol.socketsPerUser { sockets.append(try SilentSocket(port: world.port, token: user.token)) }
        }
        let closings = sockets.map { socket in
            Task {
                let (frames, closed) = await socket.framesUntilClosed(limit: 20)
                return (at: ContinuousClock.now, goingAway: closed && frames.contains { $0.opcode == 0x8 && $0.payload.prefix(2) == [0x03, 0xE9] })
            }
        }
        let stopped = Task { await world.server.terminate() }
        var answer = 0
        for _ in 0..<200 where answer == 200 || answer == 0 {
            answer = (try? await world.probe.send("GET", "/v1/health").status) ?? -1
        }
        #expect(answer == 503, "the health check answered \(answer) while the server drained")
        var ends: [ContinuousClock.Instant] = []
        for closing in closings {
            let (at, goingAway) = await closing.value
            #expect(goingAway, "a socket ended without 'going away'")
            ends.append(at)
        }
        let spread = (ends.max() ?? .now) - (ends.min() ?? .now)
        #expect(spread >= .seconds(1) && spread <= .seconds(3), "40 sockets were closed over \(spread)")
        let (status, took) = await stopped.value
        #expect(status == 0 && took < .seconds(10), "exit \(status) after \(took)")
    }

    @Test("SIGTERM while a request is being answered: it is answered, then the server exits 0")
    func finishesRequestsInFlight() async throws {
        // A costly password hash keeps a sign-in in flight long enough to stop the server under it.
        let world = try await ServerWorld(arguments: { _ in ["--bcrypt-cost", "12"] })
        defer { world.remove() }
        let signUp = try await world.probe.send(
            "POST", "/v1/auth/signup",
            json: [
                "email": "ada@example.com", "displayName": "Ada",
                "password": "password-Ada",
            ])
        #expect(signUp.status == 201)
        let pid = world.server.processIdentifier, before = Child.cpuSeconds(of: pid)
        let signIn = Task { try await world.probe.send("POST", "/v1/auth/signin", json: ["email": "ada@example.com", "password": "password-Ada"]) }
        // In flight once the server spends time on it (its hash); an idle server spends none.
        while Child.cpuSeconds(of: pid) - before < 0.05 { try await Task.sleep(for: .milliseconds(5)) }
        let (status, took) = await world.server.terminate()
        let answer = try await signIn.value
        #expect(answer.status == 200, "the sign-in in flight was answered \(answer.status)")
        #expect(status == 0 && took < .seconds(10), "exit \(status) after \(took)")
    }

    @Test("a revoked session's events socket is closed with 4401 within 5 s")
    func revokedSocketCloses() async throws {
        try await InProcessServer.live { world in
            let graph = try world.remoteGraph()
            let ada = try await world.probe.signUp("Ada")
            let live = try await graph.services(for: graph.caller(token: ada.token)).events.liveMessages(in: nil)
            // A bare socket beside the client's, to read the close code.
            let configuration = WebSocketClientConfiguration.events(token: ada.token)
            let (opened, open) = AsyncStream<Void>.makeStream()
            let bare = Task {
                try await WebSocketClient.connect(
                    url: world.eventsURL,
                    configuration: configuration, logger: Logger(label: "bare")
                ) { inbound, _, _ in
                    for try await _ in inbound { open.yield() }
                }
            }
            var ready = opened.makeAsyncIterator()
            _ = await ready.next()
            let revoked = ContinuousClock.now
            #expect(try await world.probe.send("DELETE", "/v1/auth/session", token: ada.token).status == 204)
            for await _ in live {}
            #expect(ContinuousClock.now - revoked < .seconds(5))
            #expect(try await bare.value?.closeCode == .unknown(EventSocketProtocol.sessionEnded))
            await #expect(throws: AppError.notSignedIn) {
                try await graph.services(for: graph.caller(token: ada.token)).events.liveMessages(in: nil)
            }
        }
    }

    @Test(
        "a session signed out through one server is refused by a second server on the same database from 2 s on, and its socket there closed within 32 s"
    )
    func revokedThroughAnotherServer() async throws {
        let world = try await ServerWorld()
        defer { world.remove() }
        let second = try await ServerProcess(databasePath: world.server.databasePath)
        defer { second.stop() }
        let other = HTTPProbe(base: second.url)
        let ada = try await world.probe.signUp("Ada")
        #expect(try await other.send("GET", "/v1/profiles/me", token: ada.token).status == 200)
        // An events socket on the second server: it hears nothing of the sign-out, and finds it
        // when it checks the socket's session again (every 30 s, against a 2 s cache).
        let graph = try ServiceGraph(GraphOptions(backend: .remote, sqlitePath: "", remoteURL: second.url))
        let live = try await graph.services(for: graph.caller(token: ada.token)).events.liveEvents()
        #expect(try await world.probe.send("DELETE", "/v1/auth/session", token: ada.token).status == 204)
        let revoked = ContinuousClock.now
        try await ContinuousClock().sleep(until: revoked + .seconds(2))
        let after = try await other.send("GET", "/v1/profiles/me", token: ada.token)
        #expect(after.status == 401, "the second server still accepts the session 2 s after sign-out: \(after.status)")
        for await _ in live {}
        #expect(ContinuousClock.now - revoked < .seconds(33), "the second server's socket outlived the documented 32 s")
    }

    @Test("a password change closes the user's other sockets at once; the changing session's socket stays")
    func passwordChangeClosesOtherSockets() async throws {
        try await InProcessServer.live { world in
            let graph = try world.remoteGraph()
            let signUp = try await world.probe.send(
                "POST", "/v1/auth/signup",
                json: [
                    "email": "ada@example.com", "displayName": "Ada",
                    "password": "password-Ada",
                ])
            let kept = try #require(signUp.json?["token"] as? String)
            let signIn = try await world.probe.send("POST", "/v1/auth/signin", json: ["email": "ada@example.com", "password": "password-Ada"])
            let other = try #require(signIn.json?["token"] as? String)
            let keptEvents = try await graph.services(for: graph.caller(token: kept)).events.liveEvents()
            let otherEvents = try await graph.services(for: graph.caller(token: other)).events.liveEvents()

            let changed = ContinuousClock.now
            #expect(
                try await world.probe.send(
                    "POST", "/v1/auth/password", token: kept,
                    json: ["current": "password-Ada", "new": "password-Ada-2"]
                ).status == 204)
            for await _ in otherEvents {}
            // Sooner than the sweep of every socket's session (30 s) could have found it.
            #expect(ContinuousClock.now - changed < .seconds(5))

            let ada = try #require((signUp.json?["account"] as? [String: Any])?["id"] as? String)
            let grace = try await world.probe.signUp("Grace")
            let asGrace = graph.services(for: graph.caller(token: grace.token))
            let group = try await asGrace.conversations.createGroup(title: "Still here", memberIDs: [UserID(ada)])
            var iterator = keptEvents.makeAsyncIterator()
            guard case .change(let change, _) = await iterator.next() else {
                Issue.record("the changing session's socket no longer carries events")
                return
            }
            #expect(change.kind == .conversationInvited && change.conversationID == group.id)
        }
    }

    @Test("killed (-9) right after acknowledged sends: nothing acknowledged is lost, clients reconnect on their own")
    func killAndRestart() async throws {
        let world = try await ServerWorld()
        defer { world.remove() }
        let graph = try world.remoteGraph()
        let ada = try await world.probe.signUp("Ada"), grace = try await world.probe.signUp("Grace")
        let asAda = graph.services(for: graph.caller(token: ada.token))
        let asGrace = graph.services(for: graph.caller(token: grace.token))
        let direct = try await asAda.conversations.startDirect(with: UserID(grace.id))
        _ = try await asGrace.conversations.accept(direct.id)
        let live = Inbox.collecting(try await asGrace.events.liveMessages(in: direct.id))
        var acknowledged: [MessageID] = []
        for index in 0..<200 { acknowledged.append(try await asAda.chat.send(id: .random(), text: "before \(index)", to: direct.id).id) }
        await world.server.kill9()
        await #expect(throws: AppError.self) { try await asAda.chat.send(id: .random(), text: "while down", to: direct.id) }
        try await world.server.restart()

        var history: [Message] = []
        var page = try await asGrace.chat.latestMessages(in: direct.id, limit: 500)
        history = page.messages
        while page.hasOlder, let oldest = page.messages.first {
            page = try await asGrace.chat.messages(in: direct.id, before: oldest.id, limit: 500)
            history = page.messages + history
        }
        #expect(history.map(\.id) == acknowledged)
        // Grace's events socket comes back by itself: a message sent after the restart arrives
        // on the stream she opened before the kill.
        // The live stream opened before the kill gets every acknowledged message once, in order:
        // what the kill cut off is replayed when the socket comes back, after its last cursor.
        var before: [MessageID] = []
        while before.count < acknowledged.count, let message = await live.next(within: .seconds(30)) { before.append(message.id) }
        #expect(before == acknowledged)
        var received: Message?
        for attempt in 0..<100 where received == nil {
            _ = try await asAda.chat.send(id: .random(), text: "after \(attempt)", to: direct.id)
            received = await live.next(within: .milliseconds(300))
        }
        #expect(received?.text.hasPrefix("after") == true, "no message arrived on the stream opened before the kill")
    }

}
