import Foundation
import Kernel
import Logging
import NIOCore
import ServerSupport
import Synchronization
import Testing

/// The reader of a socket's requests, on its own: each frame decoded once and handed to the
/// receiver its type names; what no receiver takes is refused by id.
@Suite("Requests on the events socket")
struct SocketRequestsTests {
    /// A request counting how often it is decoded.
    struct Ping: EventSocketProtocol.Request {
        static let type = "test.ping"
        static let decodings = Atomic(0)
        let n: Int

        init(from decoder: any Decoder) throws {
            Self.decodings.add(1, ordering: .relaxed)
            n = try decoder.container(keyedBy: Field.self).decode(Int.self, forKey: .n)
        }

        private enum Field: String, CodingKey { case n }
    }

    struct Pong: EventSocketProtocol.Request, Decodable {
        static let type = "test.pong"
    }

    /// Keeps what it is given.
    final class Keeper<Request: EventSocketProtocol.Request>: SocketRequestReceiver {
        let kept = Mutex<[Request]>([])
        func received(_ request: Request) { kept.withLock { $0.append(request) } }
    }

    @Test("a frame reaches its type's receiver, decoded once; an unknown type or a bad field is refused by id, a frame with no id dropped")
    func dispatch() throws {
        let pings = Keeper<Ping>(), pongs = Keeper<Pong>()
        var table = SocketRequests()
        table.add { _ in pings }
        table.add { _ in pongs }
        #expect(table.types == [Ping.type, Pong.type])
        let written = Mutex<[Data]>([])
        let client = SocketClient(
            caller: .verified(UserID("u1")), owner: UserID("u1"), requests: AccountRequests(limit: 4), logger: Logger(label: "t")
        ) {
            text in written.withLock { $0.append(text) }
        }
        let reader = table.reader(for: client)
        let before = Ping.decodings.load(ordering: .relaxed)
        for frame in [
            #"{"type":"test.ping","id":"a","n":7}"#,
            #"{"type":"test.pong"}"#,
            #"{"type":"test.nothing","id":"b"}"#,
            #"{"type":"test.ping","id":"c","n":"seven"}"#,
            #"{"type":"test.ping","id":"d"}"#,
            #"{"type":"test.ping","n":"no id"}"#,
            #"{"id":"e"}"#,
            "not json at all",
        ] {
            reader.received(ByteBuffer(string: frame))
        }
        #expect(pings.kept.withLock { $0.map(\.n) } == [7])
        #expect(pongs.kept.withLock { $0.count } == 1)
        // The good ping, and the three bad ones: each decoded once, the unknown types not at all.
        #expect(Ping.decodings.load(ordering: .relaxed) - before == 4)
        let answers = try written.withLock { try $0.map { try WireFormat.decoder().decode(EventSocketProtocol.Answer.self, from: $0) } }
        #expect(answers.map(\.request) == ["b", "c", "d", "e"])
        #expect(answers.allSatisfy { $0.error?.kind == AppError.Kind.invalidInput.rawValue && $0.type == EventSocketProtocol.replyType })
        #expect(answers[0].error?.message.contains("test.ping, test.pong") == true, "\(answers[0])")
        #expect(answers[1].error?.message.contains("field n") == true, "\(answers[1])")
        #expect(answers[2].error?.message.contains("needs the field n") == true, "\(answers[2])")
    }
}
