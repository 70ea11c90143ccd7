import Chat
import ChatAPI
import ChatServer
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Kernel
import RemoteClient
import Testing

/// How the messageai client reads what a newer server may send (`docs/protocol.md`, "The event
/// stream"): event types and fields it does not know are skipped, and `socket.reset` makes its
/// readers reload. The server here is a stand-in that sends chosen frames, since ours sends
/// only the types and fields this client knows.
@Suite("The client's reading of events", .timeLimit(.minutes(1)))
struct ClientReadingTests {
    /// A message event as our server encodes it, with fields a newer server might add.
    static func messageFrame(_ text: String, position: Int) throws -> String {
        let message = Message(
            id: MessageID("m-\(position)"), conversationID: ConversationID("c-1"), senderID: UserID("u-ada"), text: text,
            sentAt: Date(timeIntervalSince1970: 1_800_000_000), cursor: EventCursor(epoch: "e1", position: Int64(position)))
        var frame = try #require(try JSONSerialization.jsonObject(with: EventFrames.text(of: UserEvent.message(message))) as? [String: Any])
        var event = try #require(frame["event"] as? [String: Any])
        var fields = try #require(event["message"] as? [String: Any])
        fields["pinnedAt"] = "2027-01-01T00:00:00Z"
        event["message"] = fields
        event["reactions"] = ["👍": 2]
        frame["event"] = event
        frame["priority"] = "high"
        return String(decoding: try JSONSerialization.data(withJSONObject: frame), as: UTF8.self)
    }

    /// An event of a type this client does not know.
    static func unknownFrame(position: Int) -> String {
        #"{"v":1,"type":"chat.reaction","cursor":"e1.\#(position)","event":{"messageID":"m-1","emoji":"👍"}}"#
    }

    @Test("in the event log, events of an unknown type are skipped and unknown fields ignored")
    func eventLog() throws {
        let body =
            #"{"events":["# + Self.unknownFrame(position: 1) + "," + (try Self.messageFrame("hello", position: 2)) + ","
            + Self.unknownFrame(position: 3) + "]}"
        let list = try WireFormat.decoder().decode(EventList.self, from: Data(body.utf8))
        #expect(list.events.map(\.message?.text) == ["hello"])
    }

    @Test("on the socket, events of an unknown type are skipped, unknown fields ignored, and socket.reset makes readers reload")
    func socketFrames() async throws {
        let frames = [
            #"{"v":1,"type":"socket.ready","cursor":"e1.0","event":{}}"#,
            Self.unknownFrame(position: 1),
            try Self.messageFrame("hello", position: 2),
            Self.unknownFrame(position: 3),
            try Self.messageFrame("again", position: 4),
            #"{"v":1,"type":"socket.reset","event":{}}"#,
        ]
        // The stand-in sends `socket.ready`, then the rest once the client says it has
        // subscribed (a request frame, which it answers), so that no frame comes before its reader.
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.ws(RouterPath(EventSocketProtocol.path)) { inbound, outbound, _ in
            try await outbound.write(.text(frames[0]))
            for try await message in inbound.messages(maxSize: EventSocketProtocol.maxFrameBytes) {
                guard case .text = message else { continue }
                try await outbound.write(.text(#"{"type":"\#(EventSocketProtocol.replyType)","request":"subscribed"}"#))
                for frame in frames.dropFirst() { try await outbound.write(.text(frame)) }
            }
        }
        let app = Application(
            router: Router(), server: .http1WebSocketUpgrade(webSocketRouter: router),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let connection = try RemoteConnection(
                server: try ServerAddress("http://127.0.0.1:\(port)"), timeout: .seconds(10), trustedCertificates: nil)
            let caller = Caller(token: "stand-in") { UserID("u-ada") }
            let readies = try await connection.events(token: "stand-in").subscribe([EventSocketProtocol.Ready.type])
            let events = try await connection.frames(UserEvent.self, types: UserEvent.types, as: caller)
            #expect(await connection.request(["type": "subscribed"], id: "subscribed", as: caller) != nil)
            var texts: [String] = []
            for await event in events {
                texts.append(event.message?.text ?? event.type)
                if texts.count == 2 { break }
            }
            #expect(texts == ["hello", "again"])
            // The first ready, then the one the reset stands for: a reader reloads on each.
            var readyCount = 0
            for await _ in readies {
                readyCount += 1
                if readyCount == 2 { break }
            }
            #expect(readyCount == 2)
        }
    }
}
