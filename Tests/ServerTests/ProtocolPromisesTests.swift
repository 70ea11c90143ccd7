import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import Kernel
import Logging
import ServerSupport
import Synchronization
import TestSupport
import Testing

/// Promises of `docs/protocol.md` that no other test holds to its word: each test names the
/// promise it checks.
@Suite("Protocol promises", .timeLimit(.minutes(3)))
struct ProtocolPromisesTests {
    @Test("a 405 lists the path's methods in Allow; the body limit is 256 KiB to the byte; a 426 is usage")
    func statusDetails() async throws {
        try await InProcessServer.router { probe in
            let ada = try await probe.signUp("Ada"), grace = try await probe.signUp("Grace")
            let wrongMethod = try await probe.send("DELETE", "/v1/conversations", token: ada.token)
            #expect(
                wrongMethod.status == 405 && wrongMethod.headers["allow"]?.contains("GET") == true, "\(wrongMethod.status) \(wrongMethod.headers)")
            let messages = "/v1/conversations/\(try await probe.startDirect(ada.token, with: grace.id))/messages"
            for (bytes, tooLarge) in [(256 * 1_024, false), (256 * 1_024 + 1, true)] {
                let head = #"{"text": ""#, tail = #""}"#
                let body = Data((head + String(repeating: "a", count: bytes - head.utf8.count - tail.utf8.count) + tail).utf8)
                let answer = try await probe.send("PUT", messages + "/big", token: ada.token, body: body)
                #expect((answer.status == 413) == tooLarge, "a body of \(bytes) bytes: \(answer.status)")
            }
            let notUpgrade = try await probe.send("GET", EventSocketProtocol.path, token: ada.token)
            #expect(notUpgrade.status == 426 && notUpgrade.errorKind == "usage")
        }
    }

    @Test("limits: 1–500 on history, messages and the event log (501 is 400); history pages default to 50")
    func limitsAndDefaults() async throws {
        try await InProcessServer.router { probe in
            let ada = try await probe.signUp("Ada"), grace = try await probe.signUp("Grace")
            let messages = "/v1/conversations/\(try await probe.startDirect(ada.token, with: grace.id))/messages"
            for index in 0..<60 { _ = try await probe.send("PUT", messages + "/m\(index)", token: ada.token, json: ["text": "m\(index)"]) }
            let page = try await probe.send("GET", messages, token: ada.token)
            #expect((page.json?["messages"] as? [Any])?.count == 50 && page.json?["hasOlder"] as? Bool == true)
            let cursor = try #require(try await probe.send("GET", "/v1/events/newest", token: ada.token).json?["cursor"] as? String)
            for path in [messages + "?limit=501", "/v1/messages?after=\(cursor)&limit=501", "/v1/events/log?after=\(cursor)&limit=501"] {
                let answer = try await probe.send("GET", path, token: ada.token)
                #expect(answer.status == 400 && answer.errorKind == "invalidInput", "\(path): \(answer.status)")
            }
            #expect(try await probe.send("GET", messages + "?limit=500", token: ada.token).status == 200)
        }
    }

    @Test(
        "a read marker goes to the reader and, as a receipt, to the others unless kept private; invitations come newest first; newest has no cursor with nothing to see"
    )
    func eventsAndInvitations() async throws {
        try await InProcessServer.router { probe in
            let ada = try await probe.signUp("Ada"), grace = try await probe.signUp("Grace"), eve = try await probe.signUp("Eve")
            let nothing = try await probe.send("GET", "/v1/events/newest", token: eve.token)
            #expect(nothing.status == 200 && nothing.json?["cursor"] == nil, "\(String(decoding: nothing.body, as: UTF8.self))")
            let conversation = try await probe.startDirect(ada.token, with: grace.id)
            _ = try await probe.startDirect(grace.token, with: ada.id)  // accepts
            let before = try #require(try await probe.send("GET", "/v1/events/newest", token: ada.token).json?["cursor"] as? String)
            _ = try await probe.send("PUT", "/v1/conversations/\(conversation)/messages/m1", token: ada.token, json: ["text": "hello"])
            #expect(try await probe.send("POST", "/v1/conversations/\(conversation)/read", token: grace.token).status == 204)
            func types(_ token: String) async throws -> [String] {
                let log = try await probe.send("GET", "/v1/events/log?after=\(before)", token: token)
                return String(decoding: log.body, as: UTF8.self).matches(of: /"type":"([a-z.]+)"/).map { String($0.output.1) }
            }
            #expect(try await types(grace.token).contains("chat.read"))
            #expect(try await types(ada.token).contains("chat.read"), "a read receipt: Ada sees Grace read")
            // Kept private, Grace's reading is hers alone.
            #expect(try await probe.send("PUT", "/v1/receipts/privacy", token: grace.token, json: ["private": true]).status == 204)
            _ = try await probe.send("PUT", "/v1/conversations/\(conversation)/messages/m2", token: ada.token, json: ["text": "again"])
            #expect(try await probe.send("POST", "/v1/conversations/\(conversation)/read", token: grace.token).status == 204)
            #expect(try await types(ada.token).count(where: { $0 == "chat.read" }) == 1, "Ada was told a private reader read")
            #expect(try await types(grace.token).count(where: { $0 == "chat.read" }) == 2)

            // Eve is invited by Ada, then by Grace: Grace's invitation comes first.
            _ = try await probe.startDirect(ada.token, with: eve.id)
            _ = try await probe.startDirect(grace.token, with: eve.id)
            let invitations = try await probe.send("GET", "/v1/invitations", token: eve.token).json?["invitations"] as? [[String: Any]]
            #expect(invitations?.compactMap { $0["inviterID"] as? String } == [grace.id, ada.id], "\(invitations ?? [])")
        }
    }

    @Test("signing out twice: the second is 401; blocking an unknown person is 404")
    func signOutAndBlock() async throws {
        try await InProcessServer.router { probe in
            let ada = try await probe.signUp("Ada")
            #expect(try await probe.send("PUT", "/v1/blocks/nobody-here", token: ada.token).status == 404)
            #expect(try await probe.send("DELETE", "/v1/auth/session", token: ada.token).status == 204)
            let again = try await probe.send("DELETE", "/v1/auth/session", token: ada.token)
            #expect(again.status == 401 && again.errorKind == "notSignedIn")
        }
    }

    @Test("an upgrade with a malformed cursor is 400, one asked for on another path is 404, both before switching protocols")
    func refusedUpgrades() async throws {
        try await InProcessServer.live { world in
            let ada = try await world.probe.signUp("Ada")
            let upgrade =
                "HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nAuthorization: Bearer \(ada.token)\r\n\r\n"
            #expect(try await SilentSocket.exchange(port: world.port, request: "GET /v1/events?after=not-a-cursor " + upgrade) == 400)
            #expect(try await SilentSocket.exchange(port: world.port, request: "GET /v1/elsewhere " + upgrade) == 404)
        }
    }

    @Test(
        "a socket resumed far back gets each message once, in order, across its pages of 500 and a queue smaller than a page, then live ones",
        arguments: [(EventSocketProtocol.queueFrames, 1_200), (16, 100)])
    func resumeAcrossPages(queueFrames: Int, count: Int) async throws {
        try await InProcessServer.live({ $0.socketQueueFrames = queueFrames }) { world in
            let ada = try await world.probe.signUp("Ada"), grace = try await world.probe.signUp("Grace")
            let messages = "/v1/conversations/\(try await world.probe.startDirect(ada.token, with: grace.id))/messages"
            let after = try #require(try await world.probe.send("GET", "/v1/events/newest", token: ada.token).json?["cursor"] as? String)
            for index in 0..<count { _ = try await world.probe.send("PUT", messages + "/m\(index)", token: ada.token, json: ["text": "m\(index)"]) }
            let configuration = WebSocketClientConfiguration.events(token: ada.token, maxFrameSize: EventSocketProtocol.maxFrameBytes)
            let received = Mutex<[String]>([])
            _ = try await WebSocketClient.connect(
                url: world.eventsURL + "?after=\(after)",
                configuration: configuration, logger: Logger(label: "resume")
            ) { inbound, outbound, _ in
                var iterator = inbound.messages(maxSize: EventSocketProtocol.maxFrameBytes).makeAsyncIterator()
                var sentLast = false
                while let message = try await iterator.next() {
                    guard case .text(let text) = message, let id = text.firstMatch(of: /"id":"(m[0-9]+|last)"/)?.output.1 else { continue }
                    received.withLock { $0.append(String(id)) }
                    if id == "last" { break }
                    // Once the backlog is in, one live message, sent after everything else.
                    if id == "m\(count - 1)", !sentLast {
                        sentLast = true
                        _ = try await world.probe.send("PUT", messages + "/last", token: ada.token, json: ["text": "last"])
                    }
                }
                try await outbound.close(.normalClosure, reason: nil)
            }
            #expect(received.withLock { $0 } == (0..<count).map { "m\($0)" } + ["last"], "\(received.withLock { $0.count }) events")
        }
    }

    @Test("a connection that sends no request, or half of one, is closed after the idle time (http.idleSeconds)")
    func idleConnectionsClosed() async throws {
        try await InProcessServer.live({ $0.idleSeconds = 1 }) { world in
            for request in ["", "GET /v1/openapi.json HTTP/1.1\r\nHost: 127"] {
                let started = ContinuousClock.now
                _ = try await SilentSocket.answer(to: Data(request.utf8), port: world.port, from: "127.0.0.1")
                let waited = ContinuousClock.now - started
                #expect(waited < .seconds(10), "\(request.isEmpty ? "a silent connection" : "half a request"): closed after \(waited)")
            }
        }
    }

    @Test("a client's close frame is answered with a close frame, and the connection then ends")
    func clientCloseAnswered() async throws {
        try await InProcessServer.live { world in
            let ada = try await world.probe.signUp("Ada")
            let socket = try SilentSocket(port: world.port, token: ada.token)
            socket.send(opcode: 0x8, payload: [0x03, 0xE8])
            let (frames, closed) = await socket.framesUntilClosed(limit: 10)
            let close = frames.last { $0.opcode == 0x8 }
            #expect(close?.payload.prefix(2) == [0x03, 0xE8] && closed, "close frame \(close?.payload ?? []), connection ended: \(closed)")
        }
    }

    @Test("a failure that is not a refusal is a 500 whose body names the kind and nothing of the failure; the log has it")
    func internalFailureBody() async throws {
        struct Secret: Error { let detail = "table accounts is locked by pid 4242" }
        let log = LogCapture()
        let router = Router(context: APIRequestContext.self)
        router.middlewares.add(ErrorMiddleware(routes: RouteTable()))
        router.get("/failing") { _, _ -> Response in throw Secret() }
        var logger = Logger(label: "test") { _ in LogCapture.Handler(capture: log) }
        logger.logLevel = .info
        try await Application(router: router, logger: logger).test(.router) { client in
            try await client.execute(uri: "/failing", method: .get) { response in
                let body = String(buffer: response.body)
                #expect(response.status == .internalServerError && body.contains(#""kind":"internal""#), "\(response.status) \(body)")
                #expect(!body.contains("4242") && !body.contains("Secret"), "\(body)")
            }
        }
        #expect(log.text.contains("4242"), "the failure is not in the log")
    }

    @Test("unblocking does not put you back in the one-to-one; starting it again shows what was written meanwhile")
    func blockUnblockReturn() async throws {
        try await InProcessServer.router { probe in
            let ada = try await probe.signUp("Ada"), grace = try await probe.signUp("Grace")
            let conversation = try await probe.startDirect(ada.token, with: grace.id)
            _ = try await probe.startDirect(grace.token, with: ada.id)  // accepts
            func listed(_ token: String) async throws -> Bool {
                String(decoding: try await probe.send("GET", "/v1/conversations", token: token).body, as: UTF8.self).contains(conversation)
            }
            #expect(try await probe.send("PUT", "/v1/blocks/\(ada.id)", token: grace.token).status == 204)
            #expect(try await !listed(grace.token), "blocking leaves the one-to-one")
            _ = try await probe.send("PUT", "/v1/conversations/\(conversation)/messages/meanwhile", token: ada.token, json: ["text": "meanwhile"])
            #expect(try await probe.send("DELETE", "/v1/blocks/\(ada.id)", token: grace.token).status == 204)
            #expect(try await !listed(grace.token), "unblocking joined the one-to-one again")
            let again = try await probe.send("POST", "/v1/conversations/direct", token: grace.token, json: ["userID": ada.id])
            #expect(again.json?["id"] as? String == conversation)
            let history = try await probe.send("GET", "/v1/conversations/\(conversation)/messages", token: grace.token)
            #expect(String(decoding: history.body, as: UTF8.self).contains("meanwhile"), "\(history.status)")
        }
    }

    @Test("a sign-in with an email over 254 bytes is refused before it spends an attempt")
    func longEmailSpendsNothing() async throws {
        try await InProcessServer.live { world in
            let long = String(repeating: "a", count: 250) + "@example.com"
            for _ in 0..<8 {
                let answer = try await world.probe.send(
                    "POST", "/v1/auth/signin", json: ["email": long, "password": "whatever-it-is"], from: "127.0.6.1")
                #expect(answer.status == 401, "\(answer.status)")
            }
        }
    }

    @Test(
        "edges and defaults: ids of 64 characters (65 refused), 1,000 names asked at once and group members (1,001 refused), list pages of 50, searches of 20"
    )
    func edgesAndDefaults() async throws {
        try await InProcessServer.router({ $0.signUpBurst = 1_000 }) { probe in
            let ada = try await probe.signUp("Ada"), grace = try await probe.signUp("Grace")
            let messages = "/v1/conversations/\(try await probe.startDirect(ada.token, with: grace.id))/messages"
            for (length, status) in [(Validation.maxIdentifierBytes, 200), (Validation.maxIdentifierBytes + 1, 400)] {
                let answer = try await probe.send(
                    "PUT", messages + "/" + String(repeating: "i", count: length), token: ada.token, json: ["text": "id"])
                #expect(answer.status == status, "an id of \(length) characters: \(answer.status)")
            }
            for (count, status) in [(1_000, 200), (1_001, 400)] {
                let answer = try await probe.send("POST", "/v1/profiles/names", token: ada.token, json: ["ids": (0..<count).map { "u\($0)" }])
                #expect(answer.status == status, "names of \(count) users: \(answer.status)")
            }
            // A group of 1,000 passes the count and is refused for naming no such people (404); 1,001 for the count.
            for (count, kind) in [(1_000, "notFound"), (1_001, "invalidInput")] {
                let answer = try await probe.send(
                    "POST", "/v1/conversations/groups", token: ada.token,
                    json: ["title": "big", "memberIDs": (0..<count).map { "u\($0)" }])
                #expect(answer.errorKind == kind, "a group of \(count): \(answer.status) \(answer.errorKind ?? "")")
            }
            var people: [(id: String, token: String)] = []
            for index in 0..<55 { people.append(try await probe.signUp("Sam\(index)")) }
            for person in people { _ = try await probe.send("POST", "/v1/conversations/direct", token: ada.token, json: ["userID": person.id]) }
            let list = try await probe.send("GET", "/v1/conversations", token: ada.token)
            #expect((list.json?["conversations"] as? [Any])?.count == 50 && list.json?["hasMore"] as? Bool == true)
            let found = try await probe.send("GET", "/v1/profiles/search?q=sam", token: ada.token)
            #expect((found.json?["profiles"] as? [Any])?.count == 20, "\(found.status)")
        }
    }

    @Test("socket.ready carries the cursor of the newest event the user may see")
    func readyCursorIsNewest() async throws {
        try await InProcessServer.live { world in
            let ada = try await world.probe.signUp("Ada"), grace = try await world.probe.signUp("Grace")
            let messages = "/v1/conversations/\(try await world.probe.startDirect(ada.token, with: grace.id))/messages"
            _ = try await world.probe.send("PUT", messages + "/m1", token: ada.token, json: ["text": "hello"])
            let newest = try #require(try await world.probe.send("GET", "/v1/events/newest", token: ada.token).json?["cursor"] as? String)
            let configuration = WebSocketClientConfiguration.events(token: ada.token)
            let ready = Mutex<String?>(nil)
            _ = try await WebSocketClient.connect(
                url: world.eventsURL,
                configuration: configuration, logger: Logger(label: "ready")
            ) { inbound, outbound, _ in
                var iterator = inbound.messages(maxSize: EventSocketProtocol.maxFrameBytes).makeAsyncIterator()
                if case .text(let text) = try await iterator.next() { ready.withLock { $0 = text } }
                try await outbound.close(.normalClosure, reason: nil)
            }
            let frame = ready.withLock { $0 } ?? ""
            #expect(frame.contains("socket.ready") && frame.contains("\"\(newest)\""), "\(frame), newest \(newest)")
        }
    }

    @Test("conversation.left goes to who left and the members who stay; a decline to who declined alone")
    func leaveAndDeclineAudiences() async throws {
        try await InProcessServer.router { probe in
            let ada = try await probe.signUp("Ada"), grace = try await probe.signUp("Grace"), bob = try await probe.signUp("Bob")
            let eve = try await probe.signUp("Eve")
            // Grace and Bob accept Ada (each starts a one-to-one with her).
            for person in [grace, bob] { _ = try await probe.startDirect(person.token, with: ada.id) }
            let before = try #require(try await probe.send("GET", "/v1/events/newest", token: ada.token).json?["cursor"] as? String)
            let group = try await probe.send(
                "POST", "/v1/conversations/groups", token: ada.token,
                json: ["title": "Room", "memberIDs": [grace.id, bob.id, eve.id]])
            let room = try #require(group.json?["id"] as? String, "\(group.status)")
            // The group holds Eve, whom Grace and Bob never accepted: they are invited, and join by accepting.
            for person in [grace, bob] {
                #expect(try await probe.send("POST", "/v1/invitations/\(room)/accept", token: person.token).status == 200)
            }
            #expect(try await probe.send("POST", "/v1/conversations/\(room)/leave", token: bob.token).status == 204)
            #expect(try await probe.send("POST", "/v1/invitations/\(room)/decline", token: eve.token).status == 204)
            /// The users `conversation.left` events in `token`'s log name.
            func left(_ token: String) async throws -> [String] {
                let log = String(decoding: try await probe.send("GET", "/v1/events/log?after=\(before)", token: token).body, as: UTF8.self)
                return log.matches(of: /"userID":"([a-z0-9]+)"\},"type":"conversation\.left"/).map { String($0.output.1) }
            }
            #expect(try await left(ada.token) == [bob.id], "Ada hears Bob leave, not Eve decline")
            #expect(try await left(grace.token) == [bob.id])
            #expect(try await left(bob.token) == [bob.id])
            #expect(try await left(eve.token) == [eve.id], "Eve hears only her own decline")
        }
    }

    @Test("past 100 waiting invitations a new one takes the place of the oldest stranger's; answering one frees a place")
    func invitationCap() async throws {
        try await InProcessServer.router({ $0.signUpBurst = 1_000 }) { probe in
            let ada = try await probe.signUp("Ada")
            var strangers: [(id: String, token: String)] = []
            for index in 0..<101 { strangers.append(try await probe.signUp("Stranger\(index)")) }
            for stranger in strangers { _ = try await probe.startDirect(stranger.token, with: ada.id) }
            func waiting() async throws -> [String] {
                let list = try await probe.send("GET", "/v1/invitations", token: ada.token).json?["invitations"] as? [[String: Any]]
                return list?.compactMap { $0["inviterID"] as? String } ?? []
            }
            let first = try await waiting()
            #expect(first.count == 100 && first.contains(strangers[100].id) && !first.contains(strangers[0].id), "\(first.count) waiting")
            let declined =
                try #require(try await probe.send("GET", "/v1/invitations", token: ada.token).json?["invitations"] as? [[String: Any]])
                .first?["id"] as? String
            #expect(try await probe.send("POST", "/v1/invitations/\(try #require(declined))/decline", token: ada.token).status == 204)
            let late = try await probe.signUp("Late")
            _ = try await probe.startDirect(late.token, with: ada.id)
            #expect(try await waiting().contains(late.id), "a place freed by answering one takes a new invitation")
        }
    }
}
