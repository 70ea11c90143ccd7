import Chat
import Foundation
import HummingbirdWSClient
import Kernel
import Logging
import Synchronization
import Testing

/// One client that stops reading never holds up anyone else: its own queue fills, the server
/// closes it, and every other reader gets every message.
@Suite("Slow clients", .timeLimit(.minutes(3)))
struct SlowClientTests {
    @Test("a stalled reader is closed as too slow while another member receives every message")
    func stalledReader() async throws {
        try await InProcessServer.live { world in
            let graph = try world.remoteGraph()
            let ada = try await world.probe.signUp("Ada"), grace = try await world.probe.signUp("Grace"), bob = try await world.probe.signUp("Bob")
            let asAda = graph.services(for: graph.caller(token: ada.token)), asBob = graph.services(for: graph.caller(token: bob.token))
            let room = try await asAda.conversations.createGroup(title: "Room", memberIDs: [UserID(grace.id), UserID(bob.id)])
            for invitee in [grace.token, bob.token] { _ = try await graph.services(for: graph.caller(token: invitee)).conversations.accept(room.id) }

            // Grace's client: a socket that takes the ready frame, then reads nothing until released.
            var configuration = WebSocketClientConfiguration(maxFrameSize: EventSocketProtocol.maxFrameBytes)
            configuration.additionalHeaders[.authorization] = "Bearer \(grace.token)"
            let (ready, isReady) = AsyncStream<Void>.makeStream()
            let (release, released) = AsyncStream<Void>.makeStream()
            let stalled = Task {
                // A connection that fails never sends ready: the wait below ends then too, not never.
                defer { isReady.finish() }
                let frames = Mutex(0)
                let close = try? await WebSocketClient.connect(url: world.url.replacing("http", with: "ws") + EventSocketProtocol.path,
                                                               configuration: configuration, logger: Logger(label: "stalled")) { inbound, _, _ in
                    var iterator = inbound.messages(maxSize: EventSocketProtocol.maxFrameBytes).makeAsyncIterator()
                    _ = try await iterator.next()
                    isReady.yield()
                    for await _ in release { break }
                    while try await iterator.next() != nil { frames.withLock { $0 += 1 } }
                }
                return (close?.closeCode, frames.withLock { $0 })
            }
            var connected = false
            for await _ in ready {
                connected = true
                break
            }
            #expect(connected, "the stalled client never got its socket")
            let bobHears = Inbox.collecting(try await asBob.chat.liveMessages(in: room.id))

            // 16 KB messages, more than the stalled connection's queue (1,024) and socket buffers hold.
            let count = 1_600
            let text = String(repeating: "😀", count: Validation.maxMessageLength)
            var sent: [MessageID] = []
            for _ in 0..<count { sent.append(try await asAda.chat.send(id: .random(), text: text, to: room.id).id) }
            var heard: [MessageID] = []
            while heard.count < count, let message = await bobHears.next(within: .seconds(10)) { heard.append(message.id) }
            #expect(heard == sent, "Bob heard \(heard.count) of \(count)")

            released.yield()
            let (code, frames) = await stalled.value
            #expect(frames < count, "the stalled client was sent everything: \(frames) frames")
            #expect(code == nil || code == .unknown(EventSocketProtocol.tooSlow), "closed with \(String(describing: code))")
        }
    }
}
