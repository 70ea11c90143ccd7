import Foundation
import Testing

/// One account's requests served at once are capped (`AccountRequests`): requests held in flight
/// (a body promised and not sent) take the account's places, and one more is refused with 429,
/// over HTTP and over the events socket, while other accounts are served.
@Suite("Requests at once", .timeLimit(.minutes(1)))
struct RequestCapTests {
    @Test(
        "with 8 of one account's requests in flight its 9th is refused with 429 and Retry-After, over HTTP and its events socket; another account is served"
    )
    func ninthRefused() async throws {
        try await InProcessServer.live({ $0.requestsAtOnce = 8 }) { world in
            let ada = try await world.probe.signUp("Ada"), grace = try await world.probe.signUp("Grace")
            let port = try #require(URLComponents(string: world.url)?.port)
            // Eight requests whose bodies never finish: each holds one of Ada's places until its connection closes.
            @Sendable func hold() throws -> SilentSocket {
                let socket = try SilentSocket(port: port)
                socket.writeText(
                    "PUT /v1/receipts/privacy HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(ada.token)\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"priv")
                return socket
            }
            var held = try (0..<8).map { _ in try hold() }
            // The held requests reach the router in their own time: ask until the ninth is refused. One
            // that arrives while the asking request is served is the ninth itself and refused; it gives
            // no place back, so another is held in its place (else Ada's 7 held and 1 asking would
            // leave a place free for every later ask).
            let deadline = ContinuousClock.now + .seconds(10)
            var ninth: HTTPProbe.Answer, replaced = 0
            repeat {
                try await Task.sleep(for: .milliseconds(50))
                for index in held.indices where held[index].hasAnswered() {
                    held[index].hangUp()
                    held[index] = try hold()
                    replaced += 1
                }
                ninth = try await world.probe.send("GET", "/v1/conversations", token: ada.token)
            } while ninth.status != 429 && ContinuousClock.now < deadline
            #expect(
                ninth.status == 429 && ninth.headers["retry-after"] == "1",
                "\(ninth.status) \(ninth.headers), \(replaced) held requests refused and held again")
            #expect(try await world.probe.send("GET", "/v1/conversations", token: grace.token).status == 200, "another account was refused")

            // A send over Ada's events socket is one of her requests too.
            let events = try SilentSocket(port: port, token: ada.token)
            events.send(opcode: 0x1, payload: Array(#"{"type":"chat.send","id":"m1","conversation":"c1","text":"hi"}"#.utf8))
            let (frames, _) = await events.framesUntilClosed(limit: 2)
            let replies = frames.map { String(decoding: $0.payload, as: UTF8.self) }.filter { $0.contains(#""request":"m1""#) }
            #expect(replies.count == 1 && replies.allSatisfy { $0.contains("rateLimited") }, "\(replies)")

            // Their connections closed, the held requests give their places back.
            held.forEach { $0.hangUp() }
            var after = ninth
            while after.status != 200, ContinuousClock.now < deadline + .seconds(10) {
                try await Task.sleep(for: .milliseconds(20))
                after = try await world.probe.send("GET", "/v1/conversations", token: ada.token)
            }
            #expect(after.status == 200, "the places were not given back: \(after.status)")
        }
    }
}
