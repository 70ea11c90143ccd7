import Chat
import Foundation
import HummingbirdWSClient
import Kernel
import Logging
import MessageAIServer
import Testing

/// The server pings events sockets that have gone silent and closes those that do not answer,
/// so a client that vanished without a word (a sleeping laptop, a cut cable) does not hold a
/// socket for ever; a client that answers keeps its socket.
@Suite("Keep-alive", .timeLimit(.minutes(2)))
struct KeepAliveTests {
    @Test("with pings after 2 s of silence: a client that never answers is closed after its ping; one that answers keeps its socket")
    func silentClientIsClosed() async throws {
        // Two seconds, not one: the answering client must get its pong through a machine busy
        // with the rest of the suite.
        try await InProcessServer.live({ $0.pingSeconds = 2 }) { world in
            let ada = try await world.probe.signUp("Ada"), grace = try await world.probe.signUp("Grace")

            // Grace's client answers pings (and sends none of its own): its socket must outlive Ada's.
            var configuration = WebSocketClientConfiguration.events(token: grace.token)
            configuration.autoPing = .disabled
            let (frames, frame) = AsyncStream<Void>.makeStream()
            let answering = Task {
                try await WebSocketClient.connect(
                    url: world.eventsURL,
                    configuration: configuration, logger: Logger(label: "answering")
                ) { inbound, _, _ in
                    defer { frame.finish() }
                    for try await _ in inbound.messages(maxSize: EventSocketProtocol.maxFrameBytes) { frame.yield() }
                }
            }
            defer { answering.cancel() }
            var heard = frames.makeAsyncIterator()
            _ = await heard.next()  // the ready frame

            let started = ContinuousClock.now
            let silent = try await SilentSocket(port: world.port, token: ada.token).framesUntilClosed(limit: 20)
            #expect(silent.closed, "the server kept a socket that answers nothing")
            #expect(ContinuousClock.now - started < .seconds(12))
            #expect(silent.frames.contains { $0.opcode == 0x9 }, "no ping before the close: \(silent.frames.map(\.opcode))")
            let close = try #require(silent.frames.last)
            #expect(close.opcode == 0x8 && close.payload.prefix(2) == [0x03, 0xE9], "not a 1001 close: \(close.payload)")
            #expect(String(decoding: close.payload.dropFirst(2), as: UTF8.self) == "no answer to pings")

            // By now Grace's socket has been pinged too; it still carries what happens to her.
            let conversations = try world.remoteGraph()
            let asGrace = conversations.services(for: conversations.caller(token: grace.token))
            _ = try await asGrace.conversations.createGroup(title: "Still here", memberIDs: [UserID(ada.id)])
            #expect(await heard.next() != nil, "the answering client's socket was closed")
        }
    }
}
