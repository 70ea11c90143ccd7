import Chat
import ChatServer
import Foundation
import Kernel
import Logging
import NIOCore
import NIOEmbedded
import NIOWebSocket
import ServerSupport
import ServiceGraph
import Testing

@testable import MessageAIServer

/// What an events socket's connection writes on its channel, on an embedded channel whose event
/// loop runs only when told: the frames queued before it runs go out in order with one flush,
/// and nothing follows the close frame.
@Suite("Event connection writes", .timeLimit(.minutes(1)))
struct EventConnectionTests {
    @Test("frames queued before the event loop comes to them are written in order, with one flush")
    func queuedFramesGoTogether() throws {
        let (connection, channel, flushes) = try Self.connection()
        for text in ["one", "two", "three"] { connection.answer(Data(text.utf8)) }
        #expect(try channel.readOutbound(as: WebSocketFrame.self) == nil, "written before the event loop ran")

        channel.embeddedEventLoop.run()
        #expect(try Self.written(channel) == ["one", "two", "three"])
        #expect(flushes.count == 1)

        connection.answer(Data("four".utf8))
        channel.embeddedEventLoop.run()
        #expect(try Self.written(channel) == ["four"])
        #expect(flushes.count == 2)
    }

    @Test("frames still queued when the socket ends are not written after its close frame")
    func nothingAfterClose() throws {
        let (connection, channel, _) = try Self.connection()
        for text in ["one", "two"] { connection.answer(Data(text.utf8)) }
        connection.end(.tooSlow)
        channel.embeddedEventLoop.run()

        let close = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        #expect(close.opcode == .connectionClose)
        var data = close.data
        #expect(data.readWebSocketErrorCode() == .unknown(EventSocketProtocol.tooSlow))
        #expect(try channel.readOutbound(as: WebSocketFrame.self) == nil, "a frame after the close frame")
    }

    @Test("a queue past 8 MiB, well within its frame count, is closed as too slow without writing a frame of it")
    func queueOverEightMebibytes() throws {
        let (connection, channel, _) = try Self.connection()
        let frame = Data(repeating: UInt8(ascii: "a"), count: 1_024 * 1_024)
        for _ in 0..<8 { connection.answer(frame) }
        channel.embeddedEventLoop.run()
        #expect(try Self.written(channel).count == 8, "8 MiB is within the bound")

        for _ in 0..<8 { connection.answer(frame) }
        connection.answer(Data("one byte past".utf8))
        channel.embeddedEventLoop.run()
        let close = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        #expect(close.opcode == .connectionClose)
        var data = close.data
        #expect(data.readWebSocketErrorCode() == .unknown(EventSocketProtocol.tooSlow))
        #expect(try channel.readOutbound(as: WebSocketFrame.self) == nil, "a frame after the close frame")
    }

    @Test("a socket whose session ended between its admission and its registration is closed as such at once")
    func sessionEndedBeforeRegistration() async throws {
        let closes = CloseWatcher()
        // Signed out after it was let in: the sign-out's broadcast found no socket to close.
        let (connection, _, _) = try Self.connection(caller: .signedOut, outbound: closes)
        let graph = try ServiceGraph(GraphOptions(backend: .memory, sqlitePath: ""))
        connection.start(feed: try #require(graph.eventFeed), typing: graph.typingHub, events: graph.services(for: .signedOut).events, after: nil)
        #expect(await closes.first == .unknown(EventSocketProtocol.sessionEnded))
    }

    @Test("a client that pings without taking the answers has at most 4 pongs waiting; further pings go unanswered until it takes them")
    func pongsWaitAtMostFour() throws {
        let held = HeldWrites()
        let (connection, channel, sockets) = try Self.connection(outbound: held)
        let admission = try EventSocketAdmission(
            graph: try ServiceGraph(GraphOptions(backend: .memory, sqlitePath: "")), sockets: sockets,
            requests: AccountRequests(limit: AccountRequests.productLimit), socketRequests: SocketRequests())
        try channel.pipeline.syncOperations.addHandler(
            EventSocketHandler(
                connection: connection, admission: admission, logger: Logger(label: "test"),
                eventLoop: channel.eventLoop))
        let ping = WebSocketFrame(fin: true, opcode: .ping, data: channel.allocator.buffer(string: "are you there"))
        for _ in 0..<10 { try channel.writeInbound(ping) }
        #expect(held.pongs == 4)
        held.release()
        for _ in 0..<10 { try channel.writeInbound(ping) }
        #expect(held.pongs == 8, "after the client took the first 4")
    }

    @Test("a socket whose store fails to read its backlog is closed with 1011")
    func failedReadCloses() async throws {
        let closes = CloseWatcher()
        let (connection, _, _) = try Self.connection(outbound: closes)
        let graph = try ServiceGraph(GraphOptions(backend: .memory, sqlitePath: ""))
        connection.start(
            feed: try #require(graph.eventFeed), typing: graph.typingHub, events: FailingReads(), after: EventCursor(epoch: "e1", position: 1))
        #expect(await closes.first == .unexpectedServerError)
    }

    /// A store whose every read fails.
    private struct FailingReads: EventStreamService {
        struct Failure: Error {}
        func liveMessages(in conversationID: ConversationID?) async throws -> AsyncStream<Message> { throw Failure() }
        func messages(after cursor: EventCursor, in conversationID: ConversationID?, limit: Int) async throws -> [Message] { throw Failure() }
        func events(after cursor: EventCursor, limit: Int) async throws -> [UserEvent] { throw Failure() }
        func liveEvents() async throws -> AsyncStream<UserEvent> { throw Failure() }
        func newestCursor() async throws -> EventCursor? { throw Failure() }
    }

    /// Keeps the pongs written, as a client that does not read leaves them, until `release()`.
    private final class HeldWrites: ChannelOutboundHandler, @unchecked Sendable {
        typealias OutboundIn = WebSocketFrame
        private var held: [EventLoopPromise<Void>] = []
        private(set) var pongs = 0

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            if unwrapOutboundIn(data).opcode == .pong { pongs += 1 }
            if let promise { held.append(promise) }
        }

        /// The client takes everything written so far.
        func release() {
            let taken = held
            held = []
            taken.forEach { $0.succeed() }
        }
    }

    /// Tells the code of the first close frame written.
    private final class CloseWatcher: ChannelOutboundHandler, @unchecked Sendable {
        typealias OutboundIn = WebSocketFrame
        private let (codes, code) = AsyncStream<WebSocketErrorCode?>.makeStream()

        /// The first close frame's code (`nil` for none).
        var first: WebSocketErrorCode? { get async { await codes.first { _ in true } ?? nil } }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            let frame = unwrapOutboundIn(data)
            if frame.opcode == .connectionClose {
                var payload = frame.data
                code.yield(payload.readWebSocketErrorCode())
            }
            context.write(data, promise: promise)
        }
    }

    /// Counts the flushes that reach the channel.
    private final class FlushCounter: ChannelOutboundHandler {
        typealias OutboundIn = WebSocketFrame
        var count = 0

        func flush(context: ChannelHandlerContext) {
            count += 1
            context.flush()
        }
    }

    private static func connection() throws -> (EventConnection, EmbeddedChannel, FlushCounter) {
        let flushes = FlushCounter()
        let (connection, channel, _) = try connection(outbound: flushes)
        return (connection, channel, flushes)
    }

    /// A connection of `caller`'s (user u1's) over an embedded channel whose outbound side
    /// starts with `outbound`, registered in sockets of its own.
    private static func connection(caller: Caller = .verified(UserID("u1")), outbound: some ChannelOutboundHandler) throws
        -> (EventConnection, EmbeddedChannel, OpenSockets)
    {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(outbound)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        let sockets = OpenSockets(sessionEnds: AsyncStream<SessionEnd>.makeStream().stream, sessionSweep: .seconds(60))
        let connection = EventConnection(
            caller: caller, owner: UserID("u1"), channel: channel, sockets: sockets, frames: EventFrames(),
            logger: Logger(label: "test"))
        return (connection, channel, sockets)
    }

    /// The texts of the data frames written so far.
    private static func written(_ channel: EmbeddedChannel) throws -> [String] {
        var texts: [String] = []
        while let frame = try channel.readOutbound(as: WebSocketFrame.self) { texts.append(String(buffer: frame.data)) }
        return texts
    }
}
