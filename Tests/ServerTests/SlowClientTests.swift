import Chat
import Foundation
import Kernel
import Testing

/// One client that stops reading never holds up anyone else: the server closes it as too slow
/// (4408) once its queue is full or a frame has waited 2 s, and every other reader gets every
/// message. For the full queue, the queue is set to 16 frames, so that it fills after a few
/// hundred kilobytes more than the sockets' buffers hold rather than after 16 MiB; for the wait,
/// the default queue and 300 messages (more than those buffers take), then nothing more.
@Suite("Slow clients", .timeLimit(.minutes(3)))
struct SlowClientTests {
    @Test(
        "a stalled reader is closed with 4408 while another member receives every message",
        arguments: [(16, "a full queue"), (EventSocketProtocol.queueFrames, "a frame waiting 2 s")])
    func stalledReader(queueFrames: Int, trigger: String) async throws {
        try await InProcessServer.live({ $0.socketQueueFrames = queueFrames }) { world in
            let graph = try world.remoteGraph()
            let ada = try await world.probe.signUp("Ada"), grace = try await world.probe.signUp("Grace"), bob = try await world.probe.signUp("Bob")
            let asAda = graph.services(for: graph.caller(token: ada.token)), asBob = graph.services(for: graph.caller(token: bob.token))
            let room = try await asAda.conversations.createGroup(title: "Room", memberIDs: [UserID(grace.id), UserID(bob.id)])
            for invitee in [grace.token, bob.token] { _ = try await graph.services(for: graph.caller(token: invitee)).conversations.accept(room.id) }

            // Grace's client: a bare socket that asks for its events and then reads nothing (a
            // WebSocket client library would go on reading into its own buffer).
            let stalled = try SilentSocket(port: world.port, token: grace.token, receiveBuffer: 4_096)
            let bobHears = Inbox.collecting(try await asBob.events.liveMessages(in: room.id))

            // 16 KB messages until the server says it closed the stalled socket; the client then
            // reads what was sent to it, the close frame last, within the server's 2 s grace.
            let text = String(repeating: "😀", count: Validation.maxMessageLength)
            var sent: [MessageID] = []
            let limit = queueFrames == EventSocketProtocol.queueFrames ? 300 : 2_000
            while !world.log.contains("too slow"), sent.count < limit {
                sent.append(try await asAda.chat.send(id: .random(), text: text, to: room.id).id)
            }
            let deadline = ContinuousClock.now + .seconds(10)
            while !world.log.contains("too slow"), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(world.log.contains("too slow"), "\(trigger): the stalled socket was not closed after \(sent.count) messages")
            // Nothing sent after the close reaches the closed socket.
            let closedAfter = sent.count
            for _ in 0..<10 { sent.append(try await asAda.chat.send(id: .random(), text: text, to: room.id).id) }
            let (frames, closed) = await stalled.framesUntilClosed(limit: 10)
            let close = frames.last { $0.opcode == 0x8 }
            let code = close.flatMap { $0.payload.count >= 2 ? Int($0.payload[0]) << 8 | Int($0.payload[1]) : nil }
            #expect(closed && code == Int(EventSocketProtocol.tooSlow), "closed: \(closed), with \(code.map(String.init) ?? "no close frame")")
            let texts = frames.filter { $0.opcode == 0x1 && String(decoding: $0.payload, as: UTF8.self).contains("chat.message") }.count
            #expect(texts <= closedAfter, "the stalled client was sent \(texts) frames, \(closedAfter) sent before it was closed")

            var heard: [MessageID] = []
            while heard.count < sent.count, let message = await bobHears.next(within: .seconds(10)) { heard.append(message.id) }
            #expect(heard == sent, "Bob heard \(heard.count) of \(sent.count)")
            print(
                "SlowClientTests: \(trigger): closed as too slow after \(closedAfter) messages of 16 KB; \(texts) frames reached the stalled client")
        }
    }
}
