import Foundation
import Kernel
import Testing

/// Promises of `docs/protocol.md` that no other test holds to its word: each test names the
/// promise it checks.
@Suite("Protocol promises", .timeLimit(.minutes(1)))
struct ProtocolPromisesTests {
    @Test("a 405 lists the path's methods in Allow; the body limit is 256 KiB to the byte; a 426 is usage")
    func statusDetails() async throws {
        try await InProcessServer.router { probe in
            let ada = try await probe.signUp("Ada"), grace = try await probe.signUp("Grace")
            let wrongMethod = try await probe.send("DELETE", "/v1/conversations", token: ada.token)
            #expect(wrongMethod.status == 405 && wrongMethod.headers["allow"]?.contains("GET") == true, "\(wrongMethod.status) \(wrongMethod.headers)")
            let direct = try await probe.send("POST", "/v1/conversations/direct", token: ada.token, json: ["userID": grace.id])
            let messages = "/v1/conversations/\(try #require(direct.json?["id"] as? String))/messages"
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
            let direct = try await probe.send("POST", "/v1/conversations/direct", token: ada.token, json: ["userID": grace.id])
            let messages = "/v1/conversations/\(try #require(direct.json?["id"] as? String))/messages"
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

    @Test("a read marker goes to the reader alone; invitations come newest first; newest has no cursor with nothing to see")
    func eventsAndInvitations() async throws {
        try await InProcessServer.router { probe in
            let ada = try await probe.signUp("Ada"), grace = try await probe.signUp("Grace"), eve = try await probe.signUp("Eve")
            let nothing = try await probe.send("GET", "/v1/events/newest", token: eve.token)
            #expect(nothing.status == 200 && nothing.json?["cursor"] == nil, "\(String(decoding: nothing.body, as: UTF8.self))")
            let direct = try await probe.send("POST", "/v1/conversations/direct", token: ada.token, json: ["userID": grace.id])
            let conversation = try #require(direct.json?["id"] as? String)
            _ = try await probe.send("POST", "/v1/conversations/direct", token: grace.token, json: ["userID": ada.id])  // accepts
            let before = try #require(try await probe.send("GET", "/v1/events/newest", token: ada.token).json?["cursor"] as? String)
            _ = try await probe.send("PUT", "/v1/conversations/\(conversation)/messages/m1", token: ada.token, json: ["text": "hello"])
            #expect(try await probe.send("POST", "/v1/conversations/\(conversation)/read", token: grace.token).status == 204)
            func types(_ token: String) async throws -> [String] {
                let log = try await probe.send("GET", "/v1/events/log?after=\(before)", token: token)
                return String(decoding: log.body, as: UTF8.self).matches(of: /"type":"([a-z.]+)"/).map { String($0.output.1) }
            }
            #expect(try await types(grace.token).contains("chat.read"))
            #expect(try await !types(ada.token).contains("chat.read"), "Ada was told Grace read")

            // Eve is invited by Ada, then by Grace: Grace's invitation comes first.
            _ = try await probe.send("POST", "/v1/conversations/direct", token: ada.token, json: ["userID": eve.id])
            _ = try await probe.send("POST", "/v1/conversations/direct", token: grace.token, json: ["userID": eve.id])
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
            let upgrade = "HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nAuthorization: Bearer \(ada.token)\r\n\r\n"
            #expect(try await SilentSocket.exchange(port: world.port, request: "GET /v1/events?after=not-a-cursor " + upgrade) == 400)
            #expect(try await SilentSocket.exchange(port: world.port, request: "GET /v1/elsewhere " + upgrade) == 404)
        }
    }
}
