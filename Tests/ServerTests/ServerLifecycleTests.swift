import Chat
import Foundation
import HummingbirdWSClient
import Kernel
import Logging
import ServiceGraph
import Testing
import TestSupport

/// The server as an operator sees it: stopped gracefully, killed, restarted; and sessions that
/// end while their sockets are open.
@Suite("Server lifecycle", .timeLimit(.minutes(3)))
struct ServerLifecycleTests {
    @Test("SIGTERM: sockets are closed with 'going away', the server exits 0 within 10 s")
    func gracefulShutdown() async throws {
        let world = try await ServerWorld()
        defer { world.remove() }
        let ada = try await world.probe.signUp("Ada")
        var configuration = WebSocketClientConfiguration()
        configuration.additionalHeaders[.authorization] = "Bearer \(ada.token)"
        let (opened, open) = AsyncStream<Void>.makeStream()
        let socket = Task {
            try await WebSocketClient.connect(url: world.server.url.replacing("http", with: "ws") + EventSocketProtocol.path,
                                              configuration: configuration, logger: Logger(label: "test")) { inbound, _, _ in
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

    @Test("a revoked session's events socket is closed within 5 s")
    func revokedSocketCloses() async throws {
        try await InProcessServer.live { world in
            let graph = try world.remoteGraph()
            let ada = try await world.probe.signUp("Ada")
            let live = try await graph.services(for: graph.caller(token: ada.token)).chat.liveMessages(in: nil)
            let revoked = ContinuousClock.now
            #expect(try await world.probe.send("DELETE", "/v1/auth/session", token: ada.token).status == 204)
            for await _ in live {}
            #expect(ContinuousClock.now - revoked < .seconds(5))
            await #expect(throws: AppError.notSignedIn) {
                try await graph.services(for: graph.caller(token: ada.token)).chat.liveMessages(in: nil)
            }
        }
    }

    @Test("a password change closes the user's other sockets at once; the changing session's socket stays")
    func passwordChangeClosesOtherSockets() async throws {
        try await InProcessServer.live { world in
            let graph = try world.remoteGraph()
            let signUp = try await world.probe.send("POST", "/v1/auth/signup", json: ["email": "ada@example.com", "displayName": "Ada",
                                                                                      "password": "password-Ada"])
            let kept = try #require(signUp.json?["token"] as? String)
            let signIn = try await world.probe.send("POST", "/v1/auth/signin", json: ["email": "ada@example.com", "password": "password-Ada"])
            let other = try #require(signIn.json?["token"] as? String)
            let keptEvents = try await graph.services(for: graph.caller(token: kept)).chat.liveEvents()
            let otherEvents = try await graph.services(for: graph.caller(token: other)).chat.liveEvents()

            let changed = ContinuousClock.now
            #expect(try await world.probe.send("POST", "/v1/auth/password", token: kept,
                                               json: ["current": "password-Ada", "new": "password-Ada-2"]).status == 204)
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
        let live = Inbox.collecting(try await asGrace.chat.liveMessages(in: direct.id))
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
