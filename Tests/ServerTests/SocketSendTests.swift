import Chat
import ChatAPI
import ChatRemote
import Foundation
import GRDB
import HummingbirdWSClient
import Kernel
import Logging
import RemoteClient
import Synchronization
import Testing

/// Sends made on the events socket: stored once and answered by id as a `PUT` would be, and
/// the way a client with its socket open sends.
@Suite("Sends over the events socket", .timeLimit(.minutes(2)))
struct SocketSendTests {
    @Test("the server stores a send made on the socket once, answers each request by its id, stores replies, and refuses a bad one there")
    func serverSide() async throws {
        try await InProcessServer.live { world in
            let graph = try world.remoteGraph()
            let ada = try await world.probe.signUp("Ada"), bob = try await world.probe.signUp("Bob"), eve = try await world.probe.signUp("Eve")
            let asAda = graph.services(for: graph.caller(token: ada.token)), asBob = graph.services(for: graph.caller(token: bob.token))
            let direct = try await asAda.conversations.startDirect(with: UserID(bob.id))
            _ = try await asBob.conversations.startDirect(with: UserID(ada.id))  // accepts
            let notAdas = try await asBob.conversations.startDirect(with: UserID(eve.id))
            let bobHears = Inbox.collecting(try await asBob.events.liveMessages(in: direct.id))

            let before = try #require(try await world.probe.send("GET", "/v1/events/newest", token: ada.token).json?["cursor"] as? String)
            let id = MessageID.random(), empty = MessageID.random(), stranger = MessageID.random()
            let answer = MessageID.random(), lost = MessageID.random()
            let encoder = WireFormat.encoder()
            func text(_ frame: ChatSocket.SendFrame) throws -> String { String(decoding: try encoder.encode(frame), as: UTF8.self) }
            let frames = [
                try text(ChatSocket.SendFrame(id: id, conversation: direct.id, text: "hello")),
                try text(ChatSocket.SendFrame(id: id, conversation: direct.id, text: "hello")),
                try text(ChatSocket.SendFrame(id: stranger, conversation: notAdas.id, text: "let me in")),
                try text(ChatSocket.SendFrame(id: empty, conversation: direct.id, text: "")),
                try text(ChatSocket.SendFrame(id: answer, conversation: direct.id, text: "yes", replyTo: id)),
                try text(ChatSocket.SendFrame(id: lost, conversation: direct.id, text: "to what?", replyTo: MessageID("no-such-message"))),
                #"{"type": "chat.unknown", "id": "odd-1"}"#,
                "{ not json, and no id",
            ]
            let replies = try await Self.exchange(frames, expecting: 7, as: ada.token, on: world)
            let byRequest = Dictionary(grouping: replies, by: \.request)
            let stored = byRequest[id.rawValue]?.compactMap(\.message) ?? []
            #expect(
                stored.count == 2 && stored.allSatisfy { $0.text == "hello" && $0.cursor == stored.first?.cursor && $0.senderID == UserID(ada.id) })
            #expect(byRequest[stranger.rawValue]?.first?.error?.kind == AppError.Kind.forbidden.rawValue)
            #expect(byRequest[empty.rawValue]?.first?.error?.kind == AppError.Kind.invalidInput.rawValue)
            #expect(byRequest["odd-1"]?.first?.error?.kind == AppError.Kind.invalidInput.rawValue)
            // A reply travels on the socket like any send, quoting what it answers; one to no message is refused as the PUT refuses it.
            let replied = byRequest[answer.rawValue]?.first?.message
            #expect(replied?.replyTo?.id == id && replied?.replyTo?.quote == "hello", "\(String(describing: byRequest[answer.rawValue]))")
            #expect(
                byRequest[lost.rawValue]?.first?.error?.kind == AppError.Kind.notFound.rawValue, "\(String(describing: byRequest[lost.rawValue]))")

            // Replies answer the socket that asked; they are not events.
            let log = String(decoding: try await world.probe.send("GET", "/v1/events/log?after=\(before)", token: ada.token).body, as: UTF8.self)
            #expect(log.contains("chat.message") && !log.contains("\"reply\""), "\(log.prefix(300))")

            // Bob gets the message once: the next he hears is one sent after it.
            let marker = try await asAda.chat.send(id: .random(), text: "after", to: direct.id)
            #expect(await bobHears.next(within: .seconds(10))?.id == id)
            #expect(await bobHears.next(within: .seconds(10))?.id == answer)
            #expect(await bobHears.next(within: .seconds(10))?.id == marker.id)
        }
    }

    @Test(
        "typing frames: answered by id (done, forbidden for a non-member, invalid for a bad conversation or field), none without an id; the member hears it"
    )
    func typingFrames() async throws {
        try await InProcessServer.live { world in
            let graph = try world.remoteGraph()
            let ada = try await world.probe.signUp("Ada"), bob = try await world.probe.signUp("Bob"), eve = try await world.probe.signUp("Eve")
            let asAda = graph.services(for: graph.caller(token: ada.token)), asBob = graph.services(for: graph.caller(token: bob.token))
            let direct = try await asAda.conversations.startDirect(with: UserID(bob.id)).id
            _ = try await asBob.conversations.startDirect(with: UserID(ada.id))  // accepts
            let notAdas = try await asBob.conversations.startDirect(with: UserID(eve.id)).id
            var bobHears = try await asBob.typing.typingNotices().makeAsyncIterator()
            // One burst a frame: a frame that comes while another is passed on replaces it (and is answered as done).
            let replies = try await Self.exchange(
                [
                    [#"{"type":"chat.typing","id":"t1","conversation":"\#(direct)","typing":true}"#],
                    [#"{"type":"chat.typing","id":"t2","conversation":"\#(notAdas)","typing":true}"#],
                    [#"{"type":"chat.typing","id":"t3","conversation":"../\u001B[2J","typing":true}"#],
                    [#"{"type":"chat.typing","id":"t4","conversation":"\#(direct)","typing":"very much"}"#],
                    [
                        #"{"type":"chat.typing","conversation":"\#(direct)","typing":false}"#,
                        #"{"type":"chat.typing","id":"t5","conversation":"\#(direct)","typing":false}"#,
                    ],
                ], expecting: 5, as: ada.token, on: world)
            let kinds = Dictionary(replies.map { ($0.request, $0.error?.kind ?? "done") }) { $1 }
            #expect(
                kinds == [
                    "t1": "done", "t2": AppError.Kind.forbidden.rawValue, "t3": AppError.Kind.invalidInput.rawValue,
                    "t4": AppError.Kind.invalidInput.rawValue, "t5": "done",
                ], "\(kinds)")
            #expect(replies.allSatisfy { $0.message == nil })
            #expect(await bobHears.next() == TypingNotice(conversationID: direct, userID: UserID(ada.id), typing: true))
            #expect(await bobHears.next() == TypingNotice(conversationID: direct, userID: UserID(ada.id), typing: false))
        }
    }

    @Test("a frame of 64 KiB is read and answered; one byte more closes the socket as too big (1009)")
    func frameSizeLimit() async throws {
        try await InProcessServer.live { world in
            let ada = try await world.probe.signUp("Ada")
            /// A send frame of `bytes` bytes to a conversation that does not exist: answered with a refusal when read.
            func frame(bytes: Int) -> String {
                let head = #"{"type":"chat.send","id":"big-1","conversation":"c1","text":""#, tail = #""}"#
                return head + String(repeating: "a", count: bytes - head.utf8.count - tail.utf8.count) + tail
            }
            let configuration = WebSocketClientConfiguration.events(token: ada.token, maxFrameSize: EventSocketProtocol.maxFrameBytes * 2)
            for (bytes, answered) in [(EventSocketProtocol.maxFrameBytes, true), (EventSocketProtocol.maxFrameBytes + 1, false)] {
                let reply = Mutex<String?>(nil), text = frame(bytes: bytes)
                let close = try await WebSocketClient.connect(
                    url: world.eventsURL,
                    configuration: configuration, logger: Logger(label: "sender")
                ) { inbound, outbound, _ in
                    var iterator = inbound.messages(maxSize: EventSocketProtocol.maxFrameBytes).makeAsyncIterator()
                    _ = try await iterator.next()
                    try await outbound.write(.text(text))
                    while let message = try await iterator.next() {
                        guard case .text(let answer) = message, answer.contains(EventSocketProtocol.replyType) else { continue }
                        reply.withLock { $0 = answer }
                        try await outbound.close(.normalClosure, reason: nil)
                    }
                }
                let answer = reply.withLock { $0 }
                if answered {
                    #expect(answer?.contains(#""request":"big-1""#) == true, "\(bytes) bytes: \(answer ?? "no reply")")
                } else {
                    #expect(
                        answer == nil && close?.closeCode == .messageTooLarge,
                        "\(bytes) bytes: \(String(describing: close?.closeCode)), \(answer ?? "no reply")")
                }
            }
        }
    }

    @Test("a socket with 64 sends being stored has the next refused at once, and the 64 are stored when the database frees")
    func pendingLimit() async throws {
        try await InProcessServer.live { world in
            let graph = try world.remoteGraph()
            let ada = try await world.probe.signUp("Ada"), bob = try await world.probe.signUp("Bob")
            let asBob = graph.services(for: graph.caller(token: bob.token))
            let direct = try await graph.services(for: graph.caller(token: ada.token)).conversations.startDirect(with: UserID(bob.id))
            _ = try await asBob.conversations.startDirect(with: UserID(ada.id))  // accepts
            let bobHears = Inbox.collecting(try await asBob.events.liveMessages(in: direct.id))

            // Another process holds the database's write lock: every send waits for it.
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true  // the lock is held across accesses
            let holder = try DatabaseQueue(path: world.folder.appendingPathComponent("server.sqlite").path, configuration: configuration)
            try await holder.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE") }
            let ids = (0...EventSocketProtocol.maxPendingRequests).map { _ in MessageID.random() }
            let encoder = WireFormat.encoder()
            let frames = try ids.map {
                String(decoding: try encoder.encode(ChatSocket.SendFrame(id: $0, conversation: direct.id, text: "queued")), as: UTF8.self)
            }
            let replies = try await Self.exchange(frames, expecting: ids.count, as: ada.token, on: world) { reply in
                guard reply.error != nil else { return }
                try? await holder.writeWithoutTransaction { try $0.execute(sql: "COMMIT") }
            }
            let refused = replies.filter { $0.error != nil }
            #expect(refused.map(\.request) == [ids[EventSocketProtocol.maxPendingRequests].rawValue])
            #expect(refused.first?.error?.kind == AppError.Kind.rateLimited.rawValue)
            #expect(Set(replies.compactMap { $0.message?.id }) == Set(ids.dropLast()))
            var heard: [MessageID] = []
            while heard.count < ids.count - 1, let message = await bobHears.next(within: .seconds(10)) { heard.append(message.id) }
            #expect(Set(heard) == Set(ids.dropLast()) && heard.count == ids.count - 1)
        }
    }

    @Test("a client sends over its events socket once it is open, over HTTP before, and gets the same answers both ways")
    func clientSide() async throws {
        try await InProcessServer.live { world in
            let ada = try await world.probe.signUp("Ada"), bob = try await world.probe.signUp("Bob"), eve = try await world.probe.signUp("Eve")
            let graph = try world.remoteGraph()
            let asBob = graph.services(for: graph.caller(token: bob.token))
            let notAdas = try await asBob.conversations.startDirect(with: UserID(eve.id))
            let direct = try await graph.services(for: graph.caller(token: ada.token)).conversations.startDirect(with: UserID(bob.id))
            _ = try await asBob.conversations.startDirect(with: UserID(ada.id))  // accepts

            let connection = try RemoteConnection(server: try ServerAddress(world.url), timeout: .seconds(10), trustedCertificates: nil)
            let caller = Caller(token: ada.token) { UserID(ada.id) }
            let chat = RemoteChatService(connection: connection, caller: caller)
            let probe = ChatSocket.SendFrame(id: .random(), conversation: direct.id, text: "probe")
            #expect(await connection.request(probe, id: probe.id.rawValue, as: caller) == nil, "a request went out with no socket open")
            let overHTTP = try await chat.send(id: .random(), text: "over HTTP", to: direct.id)

            let own = Inbox.collecting(try await RemoteEventStreamService(connection: connection, caller: caller).liveMessages(in: direct.id))
            let id = MessageID.random()
            let frame = try #require(
                await connection.request(
                    ChatSocket.SendFrame(id: id, conversation: direct.id, text: "over the socket"), id: id.rawValue,
                    as: caller), "no reply on the open socket")
            let reply = try WireFormat.decoder().decode(ChatSocket.SendReply.self, from: frame).stored()
            #expect(reply.text == "over the socket" && reply.senderID == UserID(ada.id))
            #expect(reply.cursor.map { cursor in overHTTP.cursor.map { cursor.follows($0) } ?? false } ?? false)
            let again = try await chat.send(id: id, text: "over the socket", to: direct.id)
            #expect(again.id == id && again.cursor == reply.cursor)
            await #expect { try await chat.send(id: .random(), text: "let me in", to: notAdas.id) } throws: { ($0 as? AppError)?.kind == .forbidden }
            await #expect { try await chat.send(id: .random(), text: "   ", to: direct.id) } throws: { ($0 as? AppError)?.kind == .invalidInput }
            #expect(await own.next(within: .seconds(10))?.id == id, "the sender's own socket did not get its message")
        }
    }

    @Test("sends written in bursts on one socket are stored in the order written")
    func orderKept() async throws {
        try await InProcessServer.live { world in
            let graph = try world.remoteGraph()
            let ada = try await world.probe.signUp("Ada"), bob = try await world.probe.signUp("Bob")
            let direct = try await graph.services(for: graph.caller(token: ada.token)).conversations.startDirect(with: UserID(bob.id))
            _ = try await graph.services(for: graph.caller(token: bob.token)).conversations.startDirect(with: UserID(ada.id))  // accepts
            let encoder = WireFormat.encoder()
            let texts = (1...300).map { "burst \(($0 - 1) / 60 + 1), line \($0)" }
            let bursts = try stride(from: 0, to: texts.count, by: 60).map { start in
                try texts[start..<start + 60].map { text in
                    String(decoding: try encoder.encode(ChatSocket.SendFrame(id: .random(), conversation: direct.id, text: text)), as: UTF8.self)
                }
            }
            let replies = try await Self.exchange(bursts, as: ada.token, on: world)
            #expect(replies.allSatisfy { $0.error == nil } && replies.count == texts.count)
            let stored = try await graph.services(for: graph.caller(token: bob.token)).chat.latestMessages(in: direct.id, limit: texts.count).messages
            let swapped = zip(stored, texts).filter { $0.text != $1 }.count
            #expect(stored.map(\.text) == texts, "\(swapped) of \(texts.count) stored out of the order written")
        }
    }

    /// Opens `token`'s events socket as a bare WebSocket client, writes `frames` once it is
    /// ready, and returns the first `count` replies, in the order they came; `heard` sees each
    /// as it comes.
    static func exchange(
        _ frames: [String], expecting count: Int, as token: String, on world: some TestServer,
        heard: @escaping @Sendable (ChatSocket.SendReply) async -> Void = { _ in }
    ) async throws -> [ChatSocket.SendReply] {
        try await exchange([frames], expecting: count, as: token, on: world, heard: heard)
    }

    /// `exchange` in bursts: each burst's frames are written together once the replies to the
    /// one before have come (`count`: all of them, unless told fewer).
    private static func exchange(
        _ bursts: [[String]], expecting count: Int? = nil, as token: String, on world: some TestServer,
        heard: @escaping @Sendable (ChatSocket.SendReply) async -> Void = { _ in }
    ) async throws -> [ChatSocket.SendReply] {
        let count = count ?? bursts.map(\.count).reduce(0, +)
        let configuration = WebSocketClientConfiguration.events(token: token, maxFrameSize: EventSocketProtocol.maxFrameBytes)
        let replies = Mutex<[ChatSocket.SendReply]>([])
        _ = try await WebSocketClient.connect(
            url: world.eventsURL,
            configuration: configuration, logger: Logger(label: "sender")
        ) { inbound, outbound, _ in
            var iterator = inbound.messages(maxSize: EventSocketProtocol.maxFrameBytes).makeAsyncIterator()
            _ = try await iterator.next()
            let decoder = WireFormat.decoder()
            var written = 0
            for burst in bursts {
                for frame in burst { try await outbound.write(.text(frame)) }
                written += burst.count
                while replies.withLock({ $0.count }) < min(written, count), let message = try await iterator.next() {
                    guard case .text(let text) = message, let reply = try? decoder.decode(ChatSocket.SendReply.self, from: Data(text.utf8)),
                        reply.type == EventSocketProtocol.replyType
                    else { continue }
                    replies.withLock { $0.append(reply) }
                    await heard(reply)
                }
            }
            try await outbound.close(.normalClosure, reason: nil)
        }
        return replies.withLock { $0 }
    }
}
