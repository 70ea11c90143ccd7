import Foundation
import MessageAIServer
import ServerSupport
import TestSupport
import Testing

/// Who a client is, by address: behind a trusted load balancer, the address its
/// `X-Forwarded-For` names, and nobody else's header; and how many connections one address may hold.
@Suite("Client addresses", .timeLimit(.minutes(2)))
struct ClientAddressTests {
    @Test("X-Forwarded-For decides the address only on a trusted proxy's connection: the proxy's clients have a limit each, a forger shares one")
    func forwardedForFromTrustedProxiesOnly() async throws {
        try await InProcessServer.live({ settings in
            settings.signUpBurst = 2
            settings.trustedProxies = (try? ClientAddress.TrustedProxies(["127.0.5.1"])) ?? .none
        }) { world throws in
            // Through the proxy: each client has its own two sign-ups at once (the proxy itself is
            // skipped in a chain), and no more than a refill (one every 3 s) beyond them.
            let started = ContinuousClock.now
            let clients = ["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4, 127.0.5.1"]
            let proxied = try await Self.signUps(on: world, from: "127.0.5.1", forwardedFor: clients + clients)
            #expect(proxied == 8, "\(proxied) of 8 sign-ups made through the proxy, two for each of its four clients")
            let past = try await Self.signUps(on: world, from: "127.0.5.1", forwardedFor: Array(repeating: "10.0.0.1", count: 4))
            let refills = Int((ContinuousClock.now - started).components.seconds) / 3 + 1
            #expect(past <= refills, "a client past its two sign-ups made \(past) more with \(refills) refills")
            // Straight from a client: its header is ignored, however it varies.
            let direct = try await Self.signUps(on: world, from: "127.0.5.2", forwardedFor: clients + clients)
            let directRefills = Int((ContinuousClock.now - started).components.seconds) / 3 + 1
            #expect(direct >= 2 && direct <= 2 + directRefills, "\(direct) of 8 sign-ups with forged headers from one address")
        }
    }

    /// New users' sign-ups through `world` from `source`, all at once, one with each of
    /// `forwardedFor` as its `X-Forwarded-For`: how many were made (201).
    private static func signUps(on world: InProcessServer, from source: String, forwardedFor: [String]) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for header in forwardedFor {
                group.addTask {
                    let name = UUID().uuidString.prefix(8).lowercased()
                    return try await world.probe.send(
                        "POST", "/v1/auth/signup",
                        json: [
                            "email": "\(name)@example.com", "displayName": name, "password": "password-\(name)",
                        ], from: source, headers: ["X-Forwarded-For": header]
                    ).status
                }
            }
            return try await group.reduce(0) { $0 + ($1 == 201 ? 1 : 0) }
        }
    }

    @Test("one address holds at most its connections; the next is closed at once, other addresses are served, and a freed place can be taken again")
    func connectionsPerAddress() async throws {
        try await InProcessServer.live({ $0.connectionsPerAddress = 8 }) { world in
            let held = try (0..<8).map { _ in try SilentSocket(port: world.port, from: "127.0.6.1") }
            // Each answered once, so that the server has counted all eight before the ninth comes.
            for socket in held {
                socket.writeText("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(await OwnThread.run { socket.status(within: 10) } == 200)
            }
            // The kernel accepts the ninth; the server closes it before reading a byte.
            let ninth = try SilentSocket(port: world.port, from: "127.0.6.1")
            let (_, closed) = await ninth.framesUntilClosed(limit: 10)
            #expect(closed, "the ninth connection of one address was kept open")
            #expect(try await world.probe.send("GET", "/v1/openapi.json", json: [:], from: "127.0.6.2").status == 200)
            held.forEach { $0.hangUp() }
            // The places come back as the server sees the connections end; until then a new
            // connection is closed unanswered. Tried again, paced, for up to 10 s.
            var status = 0
            let deadline = ContinuousClock.now + .seconds(10)
            while status != 200, ContinuousClock.now < deadline {
                status = (try? await world.probe.send("GET", "/v1/openapi.json", json: [:], from: "127.0.6.1").status) ?? 0
                if status != 200 { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(status == 200, "the address got no place back within 10 s of closing its eight connections")
        }
    }

    @Test("through a trusted proxy, connections count by the client it names when they become events sockets")
    func socketsThroughProxyCountByClient() async throws {
        try await InProcessServer.live({ settings in
            settings.connectionsPerAddress = 3
            settings.trustedProxies = (try? ClientAddress.TrustedProxies(["127.0.7.1"])) ?? .none
        }) { world in
            let ada = try await world.probe.signUp("Ada")
            func open(for client: String) async throws -> (SilentSocket, Int) {
                let socket = try SilentSocket(port: world.port, from: "127.0.7.1")
                socket.ask(token: ada.token, headers: ["X-Forwarded-For": client])
                return (socket, await OwnThread.run { socket.status(within: 10) })
            }
            var sockets: [SilentSocket] = []
            for _ in 0..<3 {
                let (socket, status) = try await open(for: "10.2.0.1")
                #expect(status == 101)
                sockets.append(socket)
            }
            let (refused, status) = try await open(for: "10.2.0.1")
            #expect(status == 429, "a fourth socket of one client through the proxy was answered \(status)")
            let (other, otherStatus) = try await open(for: "10.2.0.2")
            #expect(otherStatus == 101, "another client through the same proxy was answered \(otherStatus)")
            (sockets + [refused, other]).forEach { $0.hangUp() }
        }
    }
}
