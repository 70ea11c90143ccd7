import Foundation
import HummingbirdWSClient
import Kernel
import Logging
import TestSupport
import Testing

/// What strangers may send a server: every malformed, oversized, unauthorised or misdirected
/// request is a 4xx with the error body, never a 5xx, and changes nothing.
@Suite("Hostile requests", .timeLimit(.minutes(2)))
struct HostileRequestTests {
    @Test("bad requests are 4xx with an error body and change nothing")
    func badRequests() async throws {
        try await InProcessServer.router { probe in
            let ada = try await probe.signUp("Ada"), grace = try await probe.signUp("Grace"), eve = try await probe.signUp("Eve")
            let conversation = try await probe.startDirect(ada.token, with: grace.id)
            let sent = try await probe.send("PUT", "/v1/conversations/\(conversation)/messages/first", token: ada.token, json: ["text": "hello"])
            #expect(sent.status == 200)
            func state() async throws -> [String] {
                var views: [String] = []
                for user in [ada, grace, eve] {
                    for path in ["/v1/conversations", "/v1/profiles/me"] {
                        views.append(String(decoding: try await probe.send("GET", path, token: user.token).body, as: UTF8.self))
                    }
                }
                views.append(
                    String(decoding: try await probe.send("GET", "/v1/conversations/\(conversation)/messages", token: ada.token).body, as: UTF8.self))
                return views
            }
            let before = try await state()
            let messages = "/v1/conversations/\(conversation)/messages"
            let cases: [(String, String, String, String?, Data?, Int, String)] = [
                ("malformed JSON", "PUT", messages + "/m2", ada.token, Data("{\"text\": ".utf8), 400, "invalidInput"),
                ("JSON of the wrong type", "PUT", messages + "/m2", ada.token, Data("{\"text\": 42}".utf8), 400, "invalidInput"),
                ("a missing field", "POST", "/v1/conversations/groups", ada.token, Data("{\"title\": \"x\"}".utf8), 400, "invalidInput"),
                ("an array for an object", "PATCH", "/v1/profiles/me", ada.token, Data("[1, 2]".utf8), 400, "invalidInput"),
                (
                    "a 300 KB body", "PUT", messages + "/m2", ada.token,
                    Data(("{\"text\": \"" + String(repeating: "a", count: 300_000) + "\"}").utf8), 413, "tooLarge"
                ),
                (
                    "a message of 8,001 characters", "PUT", messages + "/m2", ada.token,
                    Data("{\"text\": \"\(String(repeating: "é", count: 8_001))\"}".utf8), 400, "invalidInput"
                ),
                ("an empty message", "PUT", messages + "/m2", ada.token, Data("{\"text\": \"\"}".utf8), 400, "invalidInput"),
                ("no token", "GET", "/v1/conversations", nil, nil, 401, "notSignedIn"),
                ("a forged token", "GET", "/v1/conversations", String(repeating: "0", count: 64), nil, 401, "notSignedIn"),
                ("a 10 KB token", "GET", "/v1/conversations", String(repeating: "0", count: 10_000), nil, 401, "notSignedIn"),
                ("someone else's conversation", "GET", messages, eve.token, nil, 403, "forbidden"),
                ("posting in someone else's conversation", "PUT", messages + "/m3", eve.token, Data("{\"text\": \"hi\"}".utf8), 403, "forbidden"),
                ("a conversation that does not exist", "GET", "/v1/conversations/nope/messages", ada.token, nil, 404, "notFound"),
                ("an id with a control character", "GET", "/v1/conversations/a%1Bb/messages", ada.token, nil, 400, "invalidInput"),
                (
                    "a 1,000-character id", "GET", "/v1/conversations/\(String(repeating: "c", count: 1_000))/messages", ada.token, nil, 400,
                    "invalidInput"
                ),
                ("limit 0", "GET", messages + "?limit=0", ada.token, nil, 400, "invalidInput"),
                ("limit Int.min", "GET", messages + "?limit=-9223372036854775808", ada.token, nil, 400, "invalidInput"),
                ("limit not a number", "GET", messages + "?limit=abc", ada.token, nil, 400, "invalidInput"),
                ("an unknown route", "GET", "/v1/nothing/here", ada.token, nil, 404, "notFound"),
                ("a method the path does not serve", "DELETE", "/v1/conversations", ada.token, nil, 405, "usage"),
                ("a method no path serves", "TRACE", "/v1/profiles/me", ada.token, nil, 405, "usage"),
                ("a reused message id with other text", "PUT", messages + "/first", ada.token, Data("{\"text\": \"changed\"}".utf8), 409, "conflict"),
                ("search limit 1,000,000", "GET", "/v1/profiles/search?q=a&limit=1000000", ada.token, nil, 400, "invalidInput"),
                (
                    "a group with 2,000 members", "POST", "/v1/conversations/groups", ada.token,
                    try JSONSerialization.data(withJSONObject: ["title": "big", "memberIDs": (0..<2_000).map { "u\($0)" }]), 400, "invalidInput"
                ),
                ("a cursor of another store", "GET", "/v1/events/log?after=elsewhere.1", ada.token, nil, 410, "gone"),
                (
                    "a cursor past the newest event", "GET",
                    "/v1/events/log?after=\(try #require(sent.json?["cursor"] as? String).split(separator: ".")[0]).999999",
                    ada.token, nil, 410, "gone"
                ),
                ("a cursor that is not one", "GET", "/v1/events/log?after=not-a-cursor", ada.token, nil, 400, "invalidInput"),
                (
                    "names of 5,000 users", "POST", "/v1/profiles/names", ada.token,
                    try JSONSerialization.data(withJSONObject: ["ids": (0..<5_000).map { "u\($0)" }]), 400, "invalidInput"
                ),
            ]
            // The README's Tests section says "28 kinds of hostile request" (DocumentedNumbersTests holds it to that).
            #expect(cases.count == 28)
            for (name, method, path, token, body, status, kind) in cases {
                let answer = try await probe.send(method, path, token: token, body: body)
                #expect(
                    answer.status == status && answer.errorKind == kind,
                    "\(name): \(answer.status) \(String(decoding: answer.body.prefix(300), as: UTF8.self))")
            }
            #expect(try await state() == before)
        }
    }

    @Test("byte limits at their boundaries: a message of 16,000 bytes and a status of 560 are stored, one byte more is refused")
    func byteBoundaries() async throws {
        try await InProcessServer.router { probe in
            let ada = try await probe.signUp("Ada"), grace = try await probe.signUp("Grace")
            let messages = "/v1/conversations/\(try await probe.startDirect(ada.token, with: grace.id))/messages"
            for (bytes, status) in [(Validation.maxMessageBytes, 200), (Validation.maxMessageBytes + 1, 400)] {
                let text = RandomText.dense(bytes: bytes)
                let answer = try await probe.send("PUT", messages + "/b\(bytes)", token: ada.token, json: ["text": text])
                #expect(answer.status == status, "a message of \(bytes) bytes in \(text.count) characters: \(answer.status)")
            }
            let history = String(decoding: try await probe.send("GET", messages, token: ada.token).body, as: UTF8.self)
            #expect(history.contains("b\(Validation.maxMessageBytes)") && !history.contains("b\(Validation.maxMessageBytes + 1)"))
            for (bytes, status) in [(Validation.maxStatusBytes, 200), (Validation.maxStatusBytes + 1, 400)] {
                let text = RandomText.dense(bytes: bytes)
                let answer = try await probe.send("PATCH", "/v1/profiles/me", token: ada.token, json: ["status": text])
                #expect(answer.status == status, "a status of \(bytes) bytes in \(text.count) characters: \(answer.status)")
            }
            let profile = try await probe.send("GET", "/v1/profiles/me", token: ada.token)
            #expect((profile.json?["status"] as? String)?.utf8.count == Validation.maxStatusBytes)
        }
    }

    @Test("unknown fields in a request are ignored: a newer client's send and profile change still work")
    func unknownFieldsIgnored() async throws {
        try await InProcessServer.router { probe in
            let ada = try await probe.signUp("Ada"), grace = try await probe.signUp("Grace")
            let direct = try await probe.send("POST", "/v1/conversations/direct", token: ada.token, json: ["userID": grace.id, "since": 2030])
            let conversation = try #require(direct.json?["id"] as? String, "\(direct.status)")
            let sent = try await probe.send(
                "PUT", "/v1/conversations/\(conversation)/messages/n1", token: ada.token,
                json: ["text": "from the future", "threadID": "m0", "poll": [["option": "yes"]]])
            #expect(sent.status == 200 && sent.json?["text"] as? String == "from the future", "\(sent.status)")
            let changed = try await probe.send("PATCH", "/v1/profiles/me", token: ada.token, json: ["status": "here", "pronouns": "she/her"])
            #expect(changed.status == 200 && changed.json?["status"] as? String == "here", "\(changed.status)")
        }
    }

    @Test("an account may hold 8 events sockets; a ninth is refused with 429 before the upgrade")
    func socketsPerAccount() async throws {
        try await InProcessServer.live { world in
            let ada = try await world.probe.signUp("Ada")
            let configuration = WebSocketClientConfiguration.events(token: ada.token)
            let (opened, open) = AsyncStream<Void>.makeStream()
            let url = world.eventsURL
            let sockets = (0..<EventSocketProtocol.socketsPerUser).map { _ in
                Task {
                    try await WebSocketClient.connect(url: url, configuration: configuration, logger: Logger(label: "socket")) { inbound, _, _ in
                        for try await _ in inbound { open.yield() }
                    }
                }
            }
            defer { sockets.forEach { $0.cancel() } }
            var ready = 0
            for await _ in opened {
                ready += 1
                if ready == EventSocketProtocol.socketsPerUser { break }
            }
            let ninth = try await world.probe.send("GET", EventSocketProtocol.path, token: ada.token)
            #expect(ninth.status == 429 && ninth.errorKind == "rateLimited" && ninth.headers["retry-after"] != nil)
            let grace = try await world.probe.signUp("Grace")
            // Another account passes every check: only the missing upgrade is left to refuse.
            #expect(try await world.probe.send("GET", EventSocketProtocol.path, token: grace.token).status == 426, "other accounts are not limited")
        }
    }

    @Test("bodies that are not valid HTTP are 400, and a stranger sending them writes nothing to the server's log")
    func malformedBodies() async throws {
        try await InProcessServer.live { world in
            let ada = try await world.probe.signUp("Ada")
            let head = "PATCH /v1/profiles/me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(ada.token)\r\nContent-Type: application/json\r\n"
            for (name, rest) in [
                ("an unknown transfer coding", "Transfer-Encoding: xchunked\r\n\r\n5\r\n{\"a\":\r\n0\r\n\r\n"),
                ("an absurd chunk size", "Transfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFF\r\nx\r\n0\r\n\r\n"),
                ("a chunk size that is not a number", "Transfer-Encoding: chunked\r\n\r\nzz\r\nx\r\n0\r\n\r\n"),
            ] {
                let status = try await SilentSocket.exchange(port: world.port, request: head + rest)
                #expect(status == 400, "\(name): \(status)")
            }
            #expect(world.log.contains("listening on"), "the server's log was not captured")
            #expect(!world.log.contains("error"), "\(world.log)")
        }
    }

    @Test("a hundred upgrades raced at once for one account open exactly as many sockets as the limit")
    func socketsPerAccountRaced() async throws {
        try await InProcessServer.live { world in
            let ada = try await world.probe.signUp("Ada")
            let statuses = try await SilentSocket.race(port: world.port, token: ada.token, count: 100)
            #expect(
                statuses.filter { $0 == 101 }.count == EventSocketProtocol.socketsPerUser,
                "\(Dictionary(grouping: statuses) { $0 }.mapValues(\.count))")
            #expect(statuses.allSatisfy { [101, 429].contains($0) })
        }
    }

    @Test("sign-in is rate-limited per account: 429 with Retry-After, other accounts unaffected")
    func signInRateLimit() async throws {
        try await InProcessServer.router { probe in
            _ = try await probe.signUp("Ada")
            let grace = try await probe.send(
                "POST", "/v1/auth/signup", json: ["email": "grace@example.com", "displayName": "Grace", "password": "password-Grace"])
            #expect(grace.status == 201)
            var statuses: [Int] = []
            var retryAfter: String?
            for _ in 0..<7 {
                let answer = try await probe.send("POST", "/v1/auth/signin", json: ["email": "grace@example.com", "password": "wrong-password"])
                statuses.append(answer.status)
                if answer.status == 429 { retryAfter = answer.headers["retry-after"] }
            }
            #expect(statuses == [401, 401, 401, 401, 401, 429, 429])
            #expect(retryAfter.flatMap(Int.init).map { (1...12).contains($0) } == true)
            let right = try await probe.send("POST", "/v1/auth/signin", json: ["email": "grace@example.com", "password": "password-Grace"])
            #expect(right.status == 429 && right.errorKind == "rateLimited", "the limit holds for the right password too")
            let other = try await probe.send("POST", "/v1/auth/signin", json: ["email": "nobody@example.com", "password": "password-x"])
            #expect(other.status == 401)
        }
    }
}
