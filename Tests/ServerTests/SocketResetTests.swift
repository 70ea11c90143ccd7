import Foundation
import HummingbirdWSClient
import Kernel
import Logging
import Synchronization
import Testing

/// A socket resumed after a cursor the server cannot resume from is told so: `socket.reset`
/// right after `socket.ready`, then live events only (protocol.md, "Cursors").
@Suite("Socket reset", .timeLimit(.minutes(1)))
struct SocketResetTests {
    @Test("a cursor of another store, or one past the newest event, gets socket.ready then socket.reset, then live events")
    func resetThenLive() async throws {
        try await InProcessServer.live { world in
            let ada = try await world.probe.signUp("Ada"), grace = try await world.probe.signUp("Grace")
            let messages = "/v1/conversations/\(try await world.probe.startDirect(ada.token, with: grace.id))/messages"
            let first = try await world.probe.send("PUT", messages + "/m1", token: ada.token, json: ["text": "before"])
            let cursor = try #require(first.json?["cursor"] as? String)
            let epoch = try #require(cursor.split(separator: ".").first)
            for after in ["elsewhere.1", "\(epoch).999999999"] {
                let configuration = WebSocketClientConfiguration.events(token: ada.token)
                let types = Mutex<[String]>([])
                _ = try await WebSocketClient.connect(
                    url: world.eventsURL + "?after=\(after)",
                    configuration: configuration, logger: Logger(label: "reset")
                ) { inbound, outbound, _ in
                    var iterator = inbound.messages(maxSize: EventSocketProtocol.maxFrameBytes).makeAsyncIterator()
                    while let message = try await iterator.next() {
                        guard case .text(let text) = message, let type = text.firstMatch(of: /"type":"([^"]+)"/)?.output.1 else { continue }
                        types.withLock { $0.append(String(type)) }
                        if type == "socket.reset" {
                            let live = try await world.probe.send("PUT", messages + "/live-\(after.count)", token: ada.token, json: ["text": "live"])
                            #expect(live.status == 200)
                        }
                        if type == "chat.message" { break }
                    }
                    try await outbound.close(.normalClosure, reason: nil)
                }
                #expect(types.withLock { $0 } == ["socket.ready", "socket.reset", "chat.message"], "after \(after): \(types.withLock { $0 })")
            }
        }
    }
}
